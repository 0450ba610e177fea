/**
 * An import's dry run hands on each contact of its plan once its last row is read, and keeps only
 * the contacts whose rows are still to come: its plan is the plan made with every contact held to
 * the end (the run's planner, unchanged), and its reading waits while nobody takes the contacts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvTextRows } from '../../src/api/import-csv.js';
import type { Contact } from '../../src/api/schemas/index.js';
import { checkImportItems } from '../../src/cli/csv-check.js';
import { contact as harnessContact } from './commands/harness.js';
import { liveContacts, type PlannedContact } from '../../src/commands/contacts/plan.js';
import { startDryRun } from '../../src/commands/imports/dry-run.js';
import { repeatCounts } from '../../src/commands/imports/file-numbers.js';
import { importPlanning } from '../../src/commands/imports/import-plan.js';

const NUMBERS = ['14155550101', '+1 415 555 0101', '(1) 415-555-0102', '14155550102', '0042000001', '42000001', '14155550103', 'x'];
const NAMES = ['Ann', '', '0042', '42', '3.51E+12', 'Bob'];
const EMAILS = ['', 'a@example.com', 'bad-email', 'b@example.com'];

/** A stored contact with its number, name and e-mail, the rest as the command tests' harness makes any contact. */
const contact = (id: number, number: string, name: string, email: string | null): Contact =>
  harnessContact(id, { number, name, email }) as Contact;

const GROUPS = ['', '"[""VIP""]"', '[]', '"[""VIP"",""News""]"'];
const rowArb = fc.tuple(fc.constantFrom(...NUMBERS), fc.constantFrom(...NAMES), fc.constantFrom(...EMAILS), fc.constantFrom(...GROUPS));
const liveArb = fc.uniqueArray(fc.tuple(fc.constantFrom('14155550101', '14155550102', '0042000001'), fc.constantFrom(...NAMES)), {
  selector: ([number]) => number,
  maxLength: 3,
});

/** `objects`: how many contacts waiting for later rows the planner keeps as objects before it keeps them as text. */
async function dryRunOf(text: string, stored: Contact[], applyFlagged: boolean, take = true, objects?: number) {
  const { items } = csvTextRows(text);
  const live = liveContacts(stored);
  let read = 0;
  const dryRun = await startDryRun({
    check: (options) => checkImportItems(items, { ...options, source: 'people.csv', onRow: (row) => (read++, options.onRow?.(row)) }),
    planning: async (settling) =>
      importPlanning(
        live,
        { applyFlagged },
        { settling: { ...settling, ...(objects !== undefined ? { objects } : {}) }, sendsNothing: true },
      ),
    repeats: () => repeatCounts({ items }),
    after: async () => {},
  });
  const contacts: PlannedContact[] = [];
  if (take) for await (const planned of dryRun.contacts) contacts.push(planned);
  return { dryRun, contacts, read: () => read };
}

/** The plan of the same rows with every contact held to the end, as a real run under --strict makes it. */
async function heldWhole(text: string, stored: Contact[], applyFlagged: boolean) {
  const planning = importPlanning(liveContacts(stored), { applyFlagged });
  await checkImportItems(csvTextRows(text).items, { source: 'people.csv', onRow: planning.onRow });
  return planning.finish();
}

const byPlace = (contacts: PlannedContact[]) => [...contacts].sort((a, b) => a.place.localeCompare(b.place));

describe("an import's dry run, contact by contact", () => {
  it('plans every generated file as the planner holding every contact to the end does, counts and contacts, its waiting contacts kept as objects or as text', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowArb, { maxLength: 12 }),
        liveArb,
        fc.boolean(),
        fc.constantFrom(undefined, 0, 1),
        async (rows, seeds, applyFlagged, objects) => {
          const text = `number,name,email,contact_groups\n${rows.map((cells) => cells.join(',')).join('\n')}\n`;
          const stored = seeds.map(([number, name], at) => contact(at + 1, number, name === '' ? 'Stored' : name, 'old@example.com'));
          // Kept as objects, or as text from the first (or the second) contact waiting for later rows on.
          const { dryRun, contacts } = await dryRunOf(text, stored, applyFlagged, true, objects);
          const { plan } = await dryRun.finish();
          const { contacts: whole, ...totals } = await heldWhole(text, stored, applyFlagged);
          expect(byPlace(contacts)).toEqual(byPlace(whole));
          expect(plan).toEqual(totals);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('lists a contact several rows name at its last row, after the contacts settled before it', async () => {
    const text = 'number,name\n14155550101,Ann\n14155550102,Bob\n+1 415 555 0101,Ann B\n14155550103,Cid\n';
    const { contacts } = await dryRunOf(text, [], false);
    expect(contacts.map((planned) => [planned.place, planned.action, planned.after?.name])).toEqual([
      ['row 3', 'create', 'Bob'],
      ['rows 2, 4', 'create', 'Ann B'],
      ['row 5', 'create', 'Cid'],
    ]);
  });

  it('reads no further than a few hundred rows ahead of a taker that stopped taking, and reads on when it takes again', async () => {
    const text = `number,name\n${Array.from({ length: 5000 }, (_, i) => `${14155500000 + i},P${i}`).join('\n')}\n`;
    const { dryRun, read } = await dryRunOf(text, [], false, false);
    const taken: PlannedContact[] = [];
    const contacts = dryRun.contacts[Symbol.asyncIterator]();
    for (let at = 0; at < 10; at++) taken.push((await contacts.next()).value as PlannedContact);
    // Nobody takes: let the reading run as far as it goes.
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(read()).toBeLessThan(1000);
    for (let next = await contacts.next(); next.done !== true; next = await contacts.next()) taken.push(next.value);
    expect(read()).toBe(5000);
    expect(taken.map((planned) => planned.place)).toEqual(Array.from({ length: 5000 }, (_, i) => `row ${i + 2}`));
    expect((await dryRun.finish()).plan?.create).toBe(5000);
  });

  it('stops reading when the taker breaks off, and gives finish the whole file when nobody took the contacts', async () => {
    const text = `number,name\n${Array.from({ length: 3000 }, (_, i) => `${14155500000 + i},P${i}`).join('\n')}\n`;
    const { dryRun, read } = await dryRunOf(text, [], false, false);
    for await (const _planned of dryRun.contacts) break;
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(read()).toBeLessThan(1000);
    const untaken = await dryRunOf(text, [], false, false);
    const { report, plan } = await untaken.dryRun.finish();
    expect([report.valid_rows, plan?.create, untaken.read()]).toEqual([3000, 3000, 3000]);
  });
});
