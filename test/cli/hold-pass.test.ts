/**
 * The pass that finds an import's held cells without planning every row (imports/hold-pass.ts)
 * must leave out exactly what the import's own planner leaves out: generated files and workspaces
 * (values with leading zeros, long digits, scientific notation, a number beside a padded one,
 * stored or of the same file before or after it, rows naming one contact, neutral rows before and
 * after damaged ones, rows with values beyond the header's columns, on a server that takes them
 * and on one that refuses them) are planned whole by the planner and passed, and the records each writes
 * anew, and the held lines each says, are equal; the same rows passed as a sheet's (in memory)
 * hold the same cells by row.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csvTextRows } from '../../src/api/import-csv.js';
import { checkImportCsv } from '../../src/cli/csv-check.js';
import { liveContacts, type PlannedContact } from '../../src/commands/contacts/plan.js';
import { NumberTable } from '../../src/commands/contacts/number-table.js';
import { rewrittenRecords } from '../../src/commands/imports/held-cells.js';
import { repeatCounts } from '../../src/commands/imports/file-numbers.js';
import { passForHolds } from '../../src/commands/imports/hold-pass.js';
import { scanCsv } from '../../src/commands/imports/hold-scan.js';
import { importPlanning } from '../../src/commands/imports/import-plan.js';
import type { ServerReading } from '../../src/cli/unreadable-cells.js';
import { seededRandom } from '../seeded-random.js';
import { heldContact } from './held-contact.js';

const dir = mkdtempSync(join(tmpdir(), 'wsm-hold-pass-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FIELDS = new Map([['code', 1]]);
// After the first six (the workspace's): a spreadsheet's decimal, and the number it makes.
const NUMBERS = [
  '14155550101',
  '+1 415 555 0101',
  '14155550102',
  '014155550103',
  '14155550103',
  '447700900123',
  'bad',
  '14155550102.0',
  '141555501020',
];
const NAMES = ['Ann', 'Bob 12', '', '1.5E+3', '0042', '42', 'Cy'];
const CODES = [
  '42',
  '',
  '1234567890123460000',
  '0042',
  '1234567890123456789',
  '1.23457E+18',
  'x7',
  '1.50',
  '1.5',
  '+42',
  '5%',
  '5.00%',
  'Jan 5',
  '01/05/26',
  '1/5/2026',
  '12:30',
  '12:30:00 PM',
];
const EMAILS = ['', 'ann@example.com', 'user03@mail.example', 'not-an-email'];
/** Values beyond the header's columns (none on most rows): planned on the header's columns where the server takes them. */
const BEYOND = ['', '', '', ',extra', ',0042', ',,"a, b"'];

/** What the check asks of the server: whether it runs wsm serve's rules (which refuse values beyond the header). */
const readingOf = (wsmRules: boolean): ServerReading => ({
  shown: async () => ({ contact_groups: true, fields: true }),
  wsmRules: async () => wsmRules,
});

const heldLines = (contacts: PlannedContact[]) => contacts.map(({ place, id, number, held }) => ({ place, id, number, held }));

describe('the pass that finds the held cells', () => {
  it('leaves out, for every generated file and workspace, exactly what the planner holds, and says it as the plan does', async () => {
    let passed = 0;
    let gaveUp = 0;
    let twinsLeftOut = 0;
    let heldBeside = 0;
    let decimalsLeftOut = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const next = seededRandom(seed);
      const pick = (values: string[]) => values[Math.floor(next() * values.length)];
      const rows = Array.from(
        { length: 1 + Math.floor(next() * 6) },
        () => `${pick(NUMBERS)},${pick(NAMES)},${pick(EMAILS)},${pick(CODES)}${pick(BEYOND)}`,
      );
      const reading = readingOf(next() < 0.3);
      const csv = join(dir, `case-${seed}.csv`);
      const text = `number,name,email,code\n${rows.join(next() < 0.3 ? '\r\n' : '\n')}\n`;
      writeFileSync(csv, text);
      const live = liveContacts(
        Array.from({ length: Math.floor(next() * 3) }, (_, i) =>
          heldContact(i + 1, pick(NUMBERS.slice(0, 6)), pick(NAMES) || 'X', pick(CODES)),
        ),
      );
      // The numbers written with and without leading zeros, as the run's scan finds them (read as if the text showed both).
      const { twins } = await scanCsv(csv, { mayHold: true, padded: true });
      const planning = importPlanning(live, { applyFlagged: false, twins });
      await checkImportCsv(csv, { fields: FIELDS, onRow: planning.onRow, reading });
      const plan = planning.finish();
      const pass = await passForHolds(
        { csv },
        live,
        FIELDS,
        { applyFlagged: false, twins },
        { repeats: await repeatCounts({ csv }), reading },
      );
      const where = `seed ${seed}: ${rows.join(' | ')}`;
      // The same rows read from a sheet (in memory): the same cells held, by row, and said the same way.
      const { items } = csvTextRows(text);
      const sheetPass = await passForHolds(
        { items },
        live,
        FIELDS,
        { applyFlagged: false, twins },
        { repeats: await repeatCounts({ items }), reading },
      );
      expect(sheetPass === undefined, where).toBe(pass === undefined);
      if (sheetPass !== undefined) {
        expect(sheetPass.held, where).toEqual(planning.held);
        expect(sheetPass.records, where).toEqual([]);
        expect({ ...sheetPass.said, skipped: sheetPass.skipped }, where).toEqual({ ...pass?.said, skipped: pass?.skipped });
      }
      if (pass === undefined) {
        gaveUp++;
        continue;
      }
      if (plan.held > 0) passed++;
      if (plan.contacts.some((each) => each.held?.number?.why.includes('a number of the same file'))) twinsLeftOut++;
      if (plan.contacts.some((each) => each.held !== undefined && each.unreadable?.extra_values !== undefined)) heldBeside++;
      if (plan.contacts.some((each) => each.held?.number?.why.includes('as a decimal'))) decimalsLeftOut++;
      expect(pass.records, where).toEqual(await rewrittenRecords(csv, planning.held));
      const holding = plan.contacts.filter((each) => each.held !== undefined);
      // The pass says the first held cells one by one (ten, then a count), its contacts as each is settled (at its last row).
      const said = heldLines(pass.said.contacts.filter((each) => each.held !== undefined));
      for (const line of said) expect(heldLines(holding), where).toContainEqual(line);
      const cells = (lines: ReturnType<typeof heldLines>) => lines.reduce((sum, line) => sum + Object.keys(line.held ?? {}).length, 0);
      expect(cells(said), where).toBeGreaterThanOrEqual(Math.min(10, plan.held));
      expect(pass.said.held, where).toBe(plan.held);
      const leftOut = holding.filter((each) => each.held?.number !== undefined).map((each) => each.number);
      expect([...pass.skipped], where).toEqual([...new Set(leftOut)]);
    }
    // Both kinds were generated: the property says something.
    expect(passed).toBeGreaterThan(40);
    expect(gaveUp).toBeGreaterThan(5);
    expect(twinsLeftOut).toBeGreaterThan(5);
    expect(heldBeside).toBeGreaterThan(10);
    expect(decimalsLeftOut).toBeGreaterThan(5);
  });
});

describe('the table of numbers', () => {
  it('keeps leading zeros apart, each repeated number with its rows in order, and the order numbers came in, past its first size', () => {
    const table = new NumberTable();
    const numbers = Array.from({ length: 5000 }, (_, i) => (i % 2 === 0 ? String(1_000_000 + i) : `00${1_000_000 + i - 1}`));
    numbers.forEach((number, i) => table.add(number, i + 2, i + 3));
    expect(table.repeated()).toEqual([]);
    table.add('001000004', 9000, 9100);
    table.add('999999999999999', 9001, 9101);
    table.add('1000004', 9002, 9102);
    table.add('001000004', 9003, 9103);
    expect(table.repeated()).toEqual([
      [4, 5002],
      [5, 5000, 5003],
    ]);
    expect(table.numberOf(5)).toBe('001000004');
    expect(table.placeOf(4)).toEqual({ row: 6, line: 7 });
    expect(table.placeOf(5003)).toEqual({ row: 9003, line: 9103 });
    expect([...table.numbers()]).toEqual([...numbers, '999999999999999']);
  });
});
