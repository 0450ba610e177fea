/**
 * A file naming many contacts on several rows each, their rows far apart: the dry run lists each
 * at its last row, --strict refuses naming the first twenty and counting the rest, and the run
 * warns of the first ten and counts the rest, on wsm serve and on the stand-in. One number on many
 * rows: the warning and the refusal name its first ten rows and count the rest (a number on a
 * million rows was every row, twice, 8 MB on stderr); the dry run lists every row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { wsmInProcess } from './in-process.js';

const COUNT = 25;
const number = (at: number) => String(14155560100 + at);
/** Rows 2 to 26 name 25 numbers; rows 27 to 51 name them again, written another way. */
const TEXT = `number,name\n${Array.from({ length: COUNT }, (_, at) => `${number(at)},First ${at}\n`).join('')}${Array.from(
  { length: COUNT },
  (_, at) => `+${number(at)},Second ${at}\n`,
).join('')}`;
const ROWS = 40;
const ONE_NUMBER = `number,name\n${Array.from({ length: ROWS }, (_, at) => `14155569999,Row ${at + 2}\n`).join('')}`;
const firstRows = `rows 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and ${ROWS - 10} more`;

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`many contacts named by several rows, against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const names = async () =>
      (JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Array<{ name: string }>).map((c) => c.name).sort();

    beforeAll(async () => {
      backend = await kind.start();
    });
    afterAll(async () => {
      await backend?.stop();
    });

    it('the dry run lists each at its last row; --strict names the first 20 and counts the rest; the run warns of 10 and counts the rest', async () => {
      const file = backendFile(backend, 'twice.csv', TEXT);
      const plan = await run('contacts', 'import', file, '--dry-run', '-q');
      expect(plan.code, plan.stderr).toBe(0);
      const listed = plan.stdout.split('\n').filter((line) => line.startsWith('+ '));
      expect(listed).toEqual(Array.from({ length: COUNT }, (_, at) => `+ rows ${at + 2}, ${at + 27}: create ${number(at)}`));
      expect(plan.stdout).toContain(
        `Plan: ${COUNT} to create, 0 to update, 0 unchanged, 0 invalid; ${COUNT} contacts named by several rows (shown together, the last row's values win).\n${file}\n`,
      );

      const refusal = [
        `error: ${file} has rows naming the same contact (--strict): nothing was sent`,
        ...Array.from(
          { length: 20 },
          (_, at) => `  rows ${at + 2}, ${at + 27}: name one contact (${number(at)}): the last row's values would win`,
        ),
        `  more: ${COUNT - 20} more contacts named by several rows (--dry-run lists them all)`,
        '',
      ].join('\n');
      const strict = await run('contacts', 'import', file, '--strict', '--wait');
      expect([strict.code, strict.stdout, strict.stderr]).toEqual([2, '', refusal]);
      // The dry run under --strict shows the plan, then says the refusal.
      const strictPlan = await run('contacts', 'import', file, '--strict', '--dry-run', '-q');
      expect([strictPlan.code, strictPlan.stderr]).toEqual([2, refusal]);
      expect(strictPlan.stdout).toBe(plan.stdout);
      expect(await names()).toEqual([]);

      const imported = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '-q');
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr.split('\n').filter((line) => line !== '')).toEqual([
        ...Array.from(
          { length: 10 },
          (_, at) =>
            `warning: ${file} rows ${at + 2}, ${at + 27}, new contact ${number(at)}: the rows name one contact and are applied in order, the last row's values win (--strict refuses such a file)`,
        ),
        `warning: and ${COUNT - 10} more contacts named by several rows (--dry-run lists them all)`,
      ]);
      expect(await names()).toEqual(Array.from({ length: COUNT }, (_, at) => `Second ${at}`).sort());
    });

    it(`one number on ${ROWS} rows: --strict and the run name its first ten rows and count the rest; the dry run lists them all`, async () => {
      const file = backendFile(backend, 'one-number.csv', ONE_NUMBER);
      const strict = await run('contacts', 'import', file, '--strict', '--wait');
      expect([strict.code, strict.stdout, strict.stderr]).toEqual([
        2,
        '',
        `error: ${file} has rows naming the same contact (--strict): nothing was sent\n  ${firstRows}: name one contact (14155569999): the last row's values would win\n`,
      ]);

      const plan = await run('contacts', 'import', file, '--dry-run', '-q');
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toContain(`+ rows ${Array.from({ length: ROWS }, (_, at) => at + 2).join(', ')}: create 14155569999\n`);

      const imported = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '-q');
      expect([imported.code, imported.stderr]).toEqual([
        0,
        `warning: ${file} ${firstRows}, new contact 14155569999: the rows name one contact and are applied in order, the last row's values win (--strict refuses such a file)\n`,
      ]);
      expect((await names()).filter((name) => name.startsWith('Row '))).toEqual([`Row ${ROWS + 1}`]);
    });
  });
}
