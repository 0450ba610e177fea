/**
 * A finished import's summary (imports/import-tally.ts) is its plan's counts. For generated files and
 * workspaces (one number written several ways, rows naming one contact, values a spreadsheet may
 * have changed, a new number beside a padded one, invalid rows, with and without --apply-flagged),
 * the counts followed as the check reads the rows, before the upload (beside the planner) or after
 * it (the numbers and values alone), equal those of the plan the planner makes of the same rows.
 * Rows the server refused move their contact into failed, and counters that disagree are said.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContactImport } from '../../src/api/schemas/index.js';
import { checkImportCsv } from '../../src/cli/csv-check.js';
import { liveContacts } from '../../src/commands/contacts/plan.js';
import { scanCsv } from '../../src/commands/imports/hold-scan.js';
import { importPlanning } from '../../src/commands/imports/import-plan.js';
import { ImportTally, plannedOutcome } from '../../src/commands/imports/import-tally.js';
import { importRecord } from './commands/harness.js';
import { seededRandom } from '../seeded-random.js';
import { heldContact } from './held-contact.js';

const dir = mkdtempSync(join(tmpdir(), 'wsm-import-tally-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WRITTEN = ['16505550101', '+1 650 555 0101', '16505550102', '016505550103', '16505550103', '447700900777', 'nope'];
const STORED = ['16505550101', '16505550102', '016505550103', '447700900777'];
const NAMED = ['Ann', 'Ann B', '', '3.51E+12', '007', 'Bo'];
const MAILS = ['', 'a@example.com', 'bad-mail'];

describe("an import's counts, followed as its rows are checked", () => {
  it('equal the plan of the same rows, before the upload and after it, for every generated file and workspace', async () => {
    const seen = { created: 0, updated: 0, unchanged: 0, left_out: 0, failed: 0 };
    for (let seed = 1; seed <= 300; seed++) {
      const next = seededRandom(seed);
      const pick = (values: string[]) => values[Math.floor(next() * values.length)];
      const rows = Array.from({ length: 1 + Math.floor(next() * 6) }, () => `${pick(WRITTEN)},${pick(NAMED)},${pick(MAILS)}`);
      const csv = join(dir, `case-${seed}.csv`);
      writeFileSync(csv, `number,name,email\n${rows.join('\n')}\n`);
      const first = Math.floor(next() * STORED.length);
      const stored = Array.from({ length: Math.floor(next() * 3) }, (_, i) =>
        heldContact(i + 1, STORED[(first + i) % STORED.length], pick(NAMED) || 'X', ''),
      );
      const live = liveContacts(stored);
      const applyFlagged = next() < 0.2;
      const { twins } = await scanCsv(csv, { mayHold: true, padded: true });

      const before = new ImportTally(live, applyFlagged);
      const planning = importPlanning(live, { applyFlagged, twins }, { tally: before });
      const report = await checkImportCsv(csv, { onRow: planning.onRow });
      const plan = planning.finish();
      const skipped = plan.contacts.filter((contact) => contact.action === 'skipped');
      const expected = {
        created: plan.create,
        updated: plan.update,
        unchanged: plan.unchanged,
        left_out: skipped.reduce((sum, contact) => sum + (contact.rows?.length ?? 1), 0),
        failed: plan.invalid,
        contacts: plan.create + plan.update + plan.unchanged,
        rows: report.rows,
      };
      const context = { seed, text: rows, stored: stored.map((contact) => [contact.number, contact.name]) };
      expect({ ...context, counts: before.counts(report).summary }).toEqual({ ...context, counts: expected });

      // After the upload the run has the numbers left out whole (the pass's), and each valid row's number and value.
      const leftOutWhole = new Set(skipped.filter((contact) => contact.id === null).map((contact) => contact.number));
      const after = new ImportTally(live, applyFlagged);
      await checkImportCsv(csv, {
        onNumber: (number, place, value) => (leftOutWhole.has(number) ? after.leftOut() : after.sent(number, place, value)),
      });
      expect({ ...context, counts: after.counts(report).summary }).toEqual({ ...context, counts: expected });
      for (const kind of Object.keys(seen) as Array<keyof typeof seen>) seen[kind] += expected[kind] > 0 ? 1 : 0;
    }
    // The generated cases reach every category.
    expect(
      Object.values(seen).every((count) => count >= 5),
      JSON.stringify(seen),
    ).toBe(true);
  });
});

describe('a finished import, against its plan', () => {
  // Ann is stored; Bo is new, on rows 3 and 4; 16505550104 is new, on row 5.
  const text = 'number,name\n16505550101,Ann\n16505550102,Bo\n16505550102,Bo Two\n16505550104,Cy\n';
  const followed = async () => {
    const csv = join(dir, 'finished.csv');
    writeFileSync(csv, text);
    const tally = new ImportTally(liveContacts([heldContact(1, '16505550101', 'Ann', '')]), false);
    const report = await checkImportCsv(csv, { onNumber: (number, place, value) => tally.sent(number, place, value) });
    return { tally, report };
  };
  const finished = (overrides: Record<string, unknown>) =>
    importRecord(9, {
      status: 'completed',
      errors: [{ row: 3, line: 3, message: 'refused', failed: true }],
      ...overrides,
    }) as unknown as ContactImport;

  it("a row the server refused moves its contact into failed; the server's counters, as the plan expects them, say nothing", async () => {
    const { tally, report } = await followed();
    expect(plannedOutcome(tally, report, finished({ created_count: 2, updated_count: 1, failed_count: 1 }))).toEqual({
      summary: { created: 1, updated: 0, unchanged: 1, left_out: 0, failed: 1, contacts: 3, rows: 4 },
    });
  });

  it('counters that disagree are said in one line, the server first; those it does not keep are not named', async () => {
    const { tally, report } = await followed();
    expect(plannedOutcome(tally, report, finished({ created_count: 1, updated_count: 2, failed_count: 1 })).disagreement).toBe(
      'import 9: the server counts 1 created, 2 updated, 1 failed where the plan expects 2 created, 1 updated, 1 failed of the rows sent: some rows were not applied as planned',
    );
    const published = finished({ errors: [] });
    for (const key of ['created_count', 'updated_count', 'failed_count'] as const) delete (published as Partial<ContactImport>)[key];
    expect(plannedOutcome(tally, report, published)).toEqual({
      summary: { created: 2, updated: 0, unchanged: 1, left_out: 0, failed: 0, contacts: 3, rows: 4 },
    });
  });
});
