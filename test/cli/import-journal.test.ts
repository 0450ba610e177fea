/**
 * The change journal of an import, as `wsm undo` and `wsm history show` read it back: each contact
 * the rows name, with its before-image and the values its rows leave it with. On generated rows
 * (one number on several rows, held cells and rows, groups, emptied fields, the import's --group,
 * rows the server refused, stored contacts, numbers looked up) the records read back are those
 * the rows predict, laid over each contact as the import applies them (contacts/plan.ts applyRow).
 * Following the rows keeps none of the check's row values alive: a million rows are followed
 * while the server works, and each value kept was copied by the collector (docs/benchmarks.md).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Contact, ImportRow } from '../../src/api/schemas/index.js';
import type { CheckedRow } from '../../src/cli/csv-check.js';
import { applyRow, copyOf, createdState, liveContacts, stateOf, type RowSets } from '../../src/commands/contacts/plan.js';
import { type HeldCells, importRowSets } from '../../src/commands/imports/import-plan.js';
import { ImportChange } from '../../src/journal/import-change.js';
import { ImportOutcome } from '../../src/journal/import-outcome.js';
import { type ChangeMeta, contactImage, type JournalRecord } from '../../src/journal/records.js';
import { readRecords } from '../../src/journal/journal-files.js';
import { type ChangeWriter, JournalStore } from '../../src/journal/store.js';
import { seededRandom } from '../seeded-random.js';
import { tempDir } from './helpers.js';

const meta = { profile: 'p', base_url: 'http://127.0.0.1:1/api/v3', workspace: 'w', command: 'wsm contacts import f.csv', summary: 's' };

interface Case {
  rows: CheckedRow[];
  held: HeldCells;
  stored: Contact[];
  /** Numbers looked up and found with no contact (undefined: the workspace was read whole). */
  absent?: Set<string>;
  group?: string;
  refusedLines: number[];
  most: number;
}

function generated(seed: number): Case {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const numbers = Array.from({ length: 2 + Math.floor(random() * 8) }, (_, i) => `${pick(['', '0', '00'])}4155550${100 + i}`);
  const rows: CheckedRow[] = [];
  const held: HeldCells = new Map();
  for (let i = 0; i < 1 + Math.floor(random() * 25); i++) {
    const row = i + 2;
    const value: ImportRow = { number: pick(numbers) } as ImportRow;
    if (random() < 0.7) value.name = pick(['', 'Ann', 'Bo "B" \\ Ø', 'Ünïcode ✓']);
    if (random() < 0.5) value.email = pick([null, 'a@example.com']);
    if (random() < 0.3) value.gender = pick(['female', 'other'] as const);
    if (random() < 0.3) value.status = random() < 0.5;
    if (random() < 0.4) value.fields = pick<Record<string, string>>([{}, { city: 'Oslo' }, { city: '' }, { city: 'Bergen', tier: 'gold' }]);
    if (random() < 0.25) value.contact_groups = pick([['VIP'], ['VIP', 'Ops'], []]);
    if (random() < 0.15) held.set(row, random() < 0.3 ? 'row' : [pick(['name', 'email', 'gender', 'fields.city'])]);
    rows.push(random() < 0.1 ? { row, line: row, cells: [], errors: { number: ['invalid'] } } : { row, line: row, cells: [], value });
  }
  const stored = numbers
    .filter(() => random() < 0.4)
    .map((number, i) => ({
      id: 10 + i,
      number,
      name: `Stored ${i}`,
      email: random() < 0.5 ? 'stored@example.com' : null,
      gender: null,
      status: random() < 0.5,
      fields: random() < 0.5 ? { city: 'Turku' } : {},
      contact_groups: random() < 0.5 ? [{ id: 1, name: 'VIP' }] : [],
    })) as unknown as Contact[];
  const absent = random() < 0.3 ? new Set(numbers.filter((n) => !stored.some((c) => c.number === n) && random() < 0.7)) : undefined;
  return {
    rows,
    held,
    stored,
    ...(absent !== undefined ? { absent } : {}),
    ...(random() < 0.3 ? { group: pick(['VIP', 'Imported']) } : {}),
    refusedLines: rows.filter(() => random() < 0.1).map((row) => row.line),
    most: random() < 0.3 ? 1 + Math.floor(random() * 3) : 500_000,
  };
}

/** What the rows predict, worked out directly: each number's rows applied in file order over its contact. */
function expected(c: Case): JournalRecord[] {
  const sent = c.rows.filter((row) => row.value !== undefined && c.held.get(row.row) !== 'row');
  const followed: string[] = [];
  for (const row of sent) {
    const number = row.value!.number;
    if (!followed.includes(number) && followed.length <= c.most) followed.push(number);
  }
  const refused = new Set(sent.filter((row) => c.refusedLines.includes(row.line)).map((row) => row.value!.number));
  return followed.flatMap((number): JournalRecord[] => {
    const was = c.stored.find((contact) => contact.number === number);
    if (refused.has(number) || (was === undefined && c.absent !== undefined && !c.absent.has(number))) return [];
    const state = copyOf(stateOf(was));
    for (const row of sent.filter((each) => each.value!.number === number)) {
      const sets: RowSets = importRowSets(row.value!, undefined);
      const held = c.held.get(row.row);
      for (const key of Array.isArray(held) ? held : []) {
        if (key === 'fields.city' && sets.fields !== undefined)
          sets.fields = Object.fromEntries(Object.entries(sets.fields).filter(([name]) => name !== 'city'));
        else delete sets[key as 'name' | 'email' | 'gender'];
      }
      applyRow(state, { place: '', sets }, true);
    }
    if (c.group !== undefined && !state.contact_groups.includes(c.group)) state.contact_groups.push(c.group);
    if (was !== undefined)
      return [{ kind: 'contact', op: 'update', id: Number(was.id), before: contactImage(was), after: null, predicted: state }];
    return [{ kind: 'contact', op: 'create', id: null, number, before: null, after: null, predicted: createdState(state) }];
  });
}

describe("an import's journal", () => {
  let dir: string;
  let done: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup: done } = await tempDir()));
  afterEach(() => done());

  /** The records of the change of case `c`, written as the store writes them and read back by the journal's reader. */
  async function recorded(c: Case): Promise<JournalRecord[]> {
    const outcome = new ImportOutcome(c.held, false, c.most);
    for (const row of c.rows) outcome.add(row);
    const lines: Uint8Array[] = [];
    const writer: ChangeWriter = {
      id: '20261129-000000-000',
      add: (records) => lines.push(Buffer.from(records.map((record) => `${JSON.stringify(record)}\n`).join(''))),
      addLines: (bytes, count) => lines.push(count > 0 ? Buffer.from(bytes) : Buffer.alloc(0)),
      note: () => {},
      finish: () => {},
    };
    const before = { live: liveContacts(c.stored), ...(c.absent !== undefined ? { absent: c.absent } : {}) };
    const errors = c.refusedLines.map((line) => ({ row: line, line, message: 'refused', failed: true }));
    const record = { id: 1, status: 'completed', errors, ...(c.group !== undefined ? { contact_group: { id: 1, name: c.group } } : {}) };
    await new ImportChange(writer, before).end(outcome, { import: record as never, finished: true });
    writeFileSync(join(dir, `${writer.id}.jsonl`), Buffer.concat(lines));
    return readRecords(dir, { id: writer.id, notes: [], records: 0 } as unknown as ChangeMeta).records;
  }

  it('records what the rows predict for each contact, on 200 generated files and workspaces', async () => {
    for (let seed = 1; seed <= 200; seed++) {
      const c = generated(seed);
      expect(await recorded(c), `seed ${seed}`).toEqual(expected(c));
    }
  });

  it('past the most records a change keeps, only the numbers first named are followed, each with all its rows', async () => {
    const value = (number: string, name: string) => ({ number, name }) as ImportRow;
    const rows = ['4155550101', '4155550102', '4155550103', '4155550101', '4155550104', '4155550102'].map(
      (number, i): CheckedRow => ({ row: i + 2, line: i + 2, cells: [], value: value(number, `Row ${i + 2}`) }),
    );
    const c: Case = { rows, held: new Map(), stored: [], refusedLines: [], most: 2 };
    const records = await recorded(c);
    expect(records.map((r) => [r.kind === 'contact' && r.number, r.kind === 'contact' && r.predicted?.name])).toEqual([
      ['4155550101', 'Row 5'],
      ['4155550102', 'Row 7'],
      ['4155550103', 'Row 4'],
    ]);
  });

  it('follows a file naming fewer numbers than the most, each again after the most rows, by a few sorts, not one a row', async () => {
    // Two exports one after the other: every number named twice, far apart, past the most rows.
    // Sorting every number followed again at each such row made a million rows run for hours.
    const most = 1000;
    const numbers = [...Array.from({ length: 5 * most }, (_, i) => `4155${String(i % most).padStart(6, '0')}`), '4166000001', '4166000002'];
    const rows = numbers.map((number, i): CheckedRow => {
      const value = { number, name: `Row ${i + 2}` } as ImportRow;
      return { row: i + 2, line: i + 2, cells: [], value };
    });
    const sort = Float64Array.prototype.sort;
    let sorts = 0;
    Float64Array.prototype.sort = function (this: Float64Array, ...args) {
      sorts++;
      return sort.apply(this, args);
    };
    let records: JournalRecord[];
    try {
      records = await recorded({ rows, held: new Map(), stored: [], refusedLines: [], most });
    } finally {
      Float64Array.prototype.sort = sort;
    }
    expect(sorts).toBeLessThan(10);
    const named = records.map((r) => (r.kind === 'contact' ? [r.number, r.predicted?.name] : []));
    expect(named).toHaveLength(most + 1);
    expect(named[0]).toEqual(['4155000000', `Row ${4 * most + 2}`]);
    expect(named.at(-1)).toEqual(['4166000001', `Row ${5 * most + 2}`]);
  });

  it('takes records written as JSON lines, a short one for a created contact, and says where it kept the most', () => {
    const store = new JournalStore(dir, { changes: 10, days: 90 }, 3);
    const change = store.begin(meta, 3000);
    const lines = '["4155550101","Ann",null]\n["4155550102","Bo","b@example.com","female",false,{"city":"Oslo"},["VIP"]]\n';
    change.addLines(Buffer.from(lines), 2);
    expect(() => change.addLines(Buffer.from(lines), 2)).toThrow(RangeError);
    change.addLines(Buffer.from('["4155550103","Cy",null]\n'), 1, true);
    change.finish({});
    const kept = store.find(change.id)!;
    expect(kept.notes).toEqual(['only its first 3 records are kept (the most a change keeps): undo leaves the rest as they are']);
    const made = { kind: 'contact', op: 'create', id: null, before: null, after: null };
    const created = (number: string, predicted: object) => ({ ...made, number, predicted });
    const plain = { gender: null, status: true, fields: {}, contact_groups: [] };
    expect(store.read(kept).records).toEqual([
      created('4155550101', { name: 'Ann', email: null, ...plain }),
      created('4155550102', {
        name: 'Bo',
        email: 'b@example.com',
        gender: 'female',
        status: false,
        fields: { city: 'Oslo' },
        contact_groups: ['VIP'],
      }),
      created('4155550103', { name: 'Cy', email: null, ...plain }),
    ]);
  });

  it('a large change that ended without a record (every row of a large file failed) is read back as none, not as damaged', () => {
    const store = new JournalStore(dir);
    const change = store.begin(meta, 3000);
    change.finish({});
    expect(store.read(store.find(change.id)!).records).toEqual([]);
  });

  it("keeps no value of the check's rows alive once it has followed them", async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const outcome = new ImportOutcome(new Map(), false);
    /** Row `i` followed, as the check gives it: only a weak reference to its value is kept here. */
    const follow = (i: number): WeakRef<object> => {
      const value = { number: `41555${String(i).padStart(5, '0')}`, name: `Contact ${i}`, email: `c${i}@example.com` } as ImportRow;
      outcome.add({ row: i + 2, line: i + 2, cells: [], value });
      return new WeakRef(value);
    };
    const values = Array.from({ length: 2000 }, (_, i) => follow(i));
    // A WeakRef holds its target to the end of the job that made it.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    expect(values.filter((value) => value.deref() !== undefined)).toHaveLength(0);
    expect([...outcome.allNumbers()].slice(0, 2)).toEqual(['4155500000', '4155500001']);
  });
});
