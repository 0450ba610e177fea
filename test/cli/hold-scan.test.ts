/**
 * The quick read that lets an import send its file at once (imports/hold-scan.ts) must never say
 * "nothing to hold" for a file whose plan holds something: generated files and workspaces (values
 * with leading zeros, long digits, scientific notation, a number beside a padded one, rows naming
 * one contact) are planned by the import's own planner, and every plan that holds a cell or leaves
 * a row out is one the scan said may hold; what the run then says after the upload (the rows
 * naming one contact) is what the plan shows.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkImportCsv } from '../../src/cli/csv-check.js';
import { liveContacts, type PlannedContact } from '../../src/commands/contacts/plan.js';
import { RepeatedNumbers } from '../../src/commands/contacts/repeated-numbers.js';
import { cellMayHold, liveMayHold, scanCsv, scanItems, textScan } from '../../src/commands/imports/hold-scan.js';
import { importPlanning } from '../../src/commands/imports/import-plan.js';
import { seededRandom } from '../seeded-random.js';
import { heldContact } from './held-contact.js';

const dir = mkdtempSync(join(tmpdir(), 'wsm-hold-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each value is taken from its plain list, or one time in six from the list of values a spreadsheet may have made or may damage. */
const NUMBERS = [
  ['14155550101', '+1 415 555 0101', '14155550102', '14155550103', '447700900123'],
  ['0014155550103', '+0 (1) 415-555-0102', '(0) 14155550101', '14155550102.0'],
];
const NAMES = [
  ['Ann', 'Bob 12', 'Cy', ''],
  ['1.5E+3', '0042'],
];
const CODES = [
  ['42', '', 'x7', '1234567890123460000', '1.5', '01/05/24', '1/5/2026'],
  ['0042', '1234567890123456789', '1.23457E+18', '2024-01-05', '1.50', '+42', '$5.00', '$5', 'Jan 5', '12:30', '12:30:00 PM'],
];

/** The file's cells read whole, as if its text showed everything: what the scan must find from the text. */
const readWhole = (csv: string) => scanCsv(csv, { mayHold: true, padded: true });

async function planOf(csv: string, live: ReturnType<typeof liveContacts>, twins: ReadonlyMap<string, string>) {
  const planning = importPlanning(live, { applyFlagged: false, twins });
  await checkImportCsv(csv, { fields: new Map([['code', 1]]), onRow: planning.onRow });
  const plan = planning.finish();
  return { held: planning.held.size, plan };
}

describe('the scan before an import', () => {
  it('says "may hold" for every generated file whose plan holds a cell or leaves a row out', async () => {
    let holding = 0;
    let clean = 0;
    let repeatedSeen = 0;
    let twinsSeen = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const next = seededRandom(seed);
      const pick = ([plain, damaged]: string[][]) => {
        const values = next() < 1 / 6 ? damaged : plain;
        return values[Math.floor(next() * values.length)];
      };
      const rows = Array.from({ length: 1 + Math.floor(next() * 4) }, () => `${pick(NUMBERS)},${pick(NAMES)},${pick(CODES)}`);
      const csv = join(dir, `case-${seed}.csv`);
      writeFileSync(csv, `number,name,code\n${rows.join('\n')}\n`);
      const stored = Array.from({ length: Math.floor(next() * 3) }, (_, i) =>
        heldContact(i + 1, pick(NUMBERS), pick(NAMES) || 'X', pick(CODES)),
      );
      const live = liveContacts(stored);
      const whole = await readWhole(csv);
      const { held, plan } = await planOf(csv, live, whole.twins);
      // The run's scan: the text read first, in chunks, then the cells only where the text cannot tell.
      const text = textScan();
      for (const part of readFileSync(csv, 'utf8').match(/[\s\S]{1,7}/g)!) text.feed(part);
      const scan = await scanCsv(csv, text);
      expect(scan.twins, `seed ${seed}: ${rows.join(' | ')}`).toEqual(whole.twins);
      if (whole.twins.size > 0) twinsSeen++;
      const mayHold = scan.mayHold || liveMayHold(live);
      if (held > 0 || plan.skipped > 0) {
        holding++;
        expect(mayHold, `seed ${seed}: ${rows.join(' | ')}`).toBe(true);
      }
      if (!mayHold) {
        clean++;
        // What the run then says after the upload: the rows naming one contact, as the plan shows them.
        const repeated = new RepeatedNumbers(live);
        await checkImportCsv(csv, {
          fields: new Map([['code', 1]]),
          onRow: (row) => row.value && repeated.add(String(row.value.number), row),
        });
        const said = (contacts: PlannedContact[]) => contacts.map(({ place, id, number, rows }) => ({ place, id, number, rows }));
        expect(said(repeated.contacts()), `seed ${seed}`).toEqual(said(plan.contacts.filter((contact) => contact.rows !== undefined)));
        if (plan.repeated > 0) repeatedSeen++;
      }
    }
    // Both kinds were generated: the property says something.
    expect(holding).toBeGreaterThan(20);
    expect(clean).toBeGreaterThan(20);
    expect(repeatedSeen).toBeGreaterThan(5);
    expect(twinsSeen).toBeGreaterThan(5);
  });

  it('reads a clean file and workspace as holding nothing; the number, groups and status columns are never held', async () => {
    const csv = join(dir, 'clean.csv');
    writeFileSync(csv, 'number,name,email,status,contact_groups\n0014155550101,Ann 12,ann12@mail3.example,1,"[""0042""]"\n');
    expect(await readWhole(csv)).toEqual({ mayHold: false, twins: new Map() });
    expect(liveMayHold(liveContacts([heldContact(1, '14155550101', 'Ann', 'x7')]))).toBe(false);
  });

  it.each([
    ['1.23457E+11', true],
    ['3,5e-2', true],
    ['0042', true],
    ['code 007', true],
    ['1234567890123456', true],
    ['123456789012345', false],
    ['Ann 1042', false],
    ['user10@mail0.example', false],
  ])('a cell %j may hold: %s', (cell, expected) => {
    expect(cellMayHold(cell)).toBe(expected);
  });

  it('reads a cell as its regular expression would, for generated cells of digits, signs, exponents and text', () => {
    const LOOKS_DAMAGED = /\d[eE][+-]?\d|(?:^|\D)0\d|\d{16}/;
    const next = seededRandom(7);
    const alphabet = ['0', '0', '1', '5', '9', 'e', 'E', '+', '-', '.', ' ', 'a', '@', '00', '1234567890'];
    for (let i = 0; i < 20_000; i++) {
      const cell = Array.from({ length: Math.floor(next() * 12) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      expect(cellMayHold(cell), JSON.stringify(cell)).toBe(LOOKS_DAMAGED.test(cell));
    }
  });

  /** The text scan fed `parts` one chunk at a time. */
  const scanned = (...parts: string[]) => {
    const text = textScan();
    for (const part of parts) text.feed(part);
    return text;
  };

  it('the text finds a long number or a scientific one split between two chunks, and nothing in a clean file', () => {
    const read = (...parts: string[]) => scanned(...parts).mayHold;
    expect(read('number,name\n1415555010', '1234567,Ann\n')).toBe(true);
    expect(read('number,name\n14155550101,1.5', 'E+3\n')).toBe(true);
    expect(read('number,name\n14155550101,Ann 1', '2\n14155550102,user10@mail0.example\n')).toBe(false);
  });

  it("the text and then the cells find a number written as a spreadsheet's decimal, split between chunks; a dotted number holds nothing", async () => {
    const read = (...parts: string[]) => scanned(...parts).mayHold;
    expect(read('number,name\n447911123458.0,Ann\n')).toBe(true);
    expect(read('number,name\n447911123458.', '0\n')).toBe(true);
    const csv = join(dir, 'decimal.csv');
    writeFileSync(csv, 'number,name\n16505550004,Bob\n447911123458.0,Ann\n');
    expect(await scanCsv(csv, scanned(readFileSync(csv, 'utf8')))).toEqual({ mayHold: true, twins: new Map() });
    writeFileSync(csv, 'number,name\n415.555.0101,Dotted\n4155550102.5,Odd\n');
    expect(await scanCsv(csv, scanned(readFileSync(csv, 'utf8')))).toEqual({ mayHold: false, twins: new Map() });
  });

  it('the text finds a zero that may lead a number, split between chunks over separators, and none where no number can have one', () => {
    const padded = (...parts: string[]) => scanned(...parts).padded;
    expect(padded('number,name\n+0', ' (1) 415 555 0101,Ann\n')).toBe(true);
    expect(padded('number,name\n(0', ')', ' ', '-', '14155550101,Ann\n')).toBe(true);
    expect(padded('number,name\n14155550100,user10@mail0.example\n')).toBe(false);
    expect(padded('number,name\n1', '0', '14155550100,Ann\n')).toBe(false);
  });

  it("a sheet's numbers written with and without leading zeros are twins, in either order; a number too short without them is none", async () => {
    const items = (...numbers: string[]) =>
      [['number'], ...numbers.map((number) => [number])].map((cells, i) => ({ kind: 'record' as const, row: i + 1, line: i + 1, cells }));
    expect(await scanItems(items('16505550009', '+0 165 0555 0009', '0016505550009', '1.6E+10'))).toEqual({
      mayHold: true,
      twins: new Map([['16505550009', '016505550009']]),
    });
    expect(await scanItems(items('0016505550009', '16505550009'))).toEqual({
      mayHold: true,
      twins: new Map([['16505550009', '0016505550009']]),
    });
    expect(await scanItems(items('0000123456', '123456', '016505550009'))).toEqual({ mayHold: false, twins: new Map() });
  });

  it('a stored value with leading zeros or 16 digits, or a padded number, may be held', () => {
    expect(liveMayHold(liveContacts([heldContact(1, '14155550101', 'Ann', '0042')]))).toBe(true);
    expect(liveMayHold(liveContacts([heldContact(1, '14155550101', '12345678901234567', '')]))).toBe(true);
    expect(liveMayHold(liveContacts([heldContact(1, '0014155550101', 'Ann', '')]))).toBe(true);
  });
});
