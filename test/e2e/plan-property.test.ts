/**
 * Plan = apply, held by a property: whatever the workspace and the file (plan-property.ts
 * generates both), the contacts `--dry-run` predicts are the contacts the real run leaves, on
 * `wsm serve` and on the stand-in of the published API. Bounded here; bench/plan-property.mjs runs
 * it longer (WSM_PLAN_RUNS).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import { caseArb, checkCase, type Generated } from './plan-property.js';
import { cleanup } from './processes.js';

const RUNS = Number(process.env.WSM_PLAN_RUNS ?? 8);

/** An import of `rows` (number, name) into an empty workspace, as a CSV. */
const example = (...rows: Array<[string, string]>): Generated => ({
  seeds: [],
  verb: 'import',
  xlsx: false,
  flags: [],
  importRows: rows.map(([number, name]) => [number, name, '', '', '', '', '']),
  updateRows: [],
});

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`plan = apply, generated, against ${kind.name}`, () => {
    let backend: Backend;
    let dir: string;
    beforeAll(async () => {
      backend = await kind.start();
      dir = mkdtempSync(join(tmpdir(), 'wsm-plan-property-'));
    });
    afterAll(async () => {
      if (dir !== undefined) cleanup(dir);
      if (backend !== undefined) expect(await backend.stop()).toBe(0);
    });

    it('the state the plan predicts is the state after the run, contact by contact', async () => {
      await fc.assert(
        fc.asyncProperty(caseArb, async (generated) => {
          const { predicted, shown, found, twins, plan, file, again } = await checkCase(backend, dir, generated);
          const why = `${file}\n${JSON.stringify(plan)}`;
          expect(found, why).toEqual(predicted);
          expect(found, why).toEqual(shown);
          expect(twins, why).toEqual([]);
          expect(again, why).toEqual({ create: 0, update: 0 });
        }),
        {
          numRuns: RUNS,
          seed: process.env.WSM_PLAN_SEED === undefined ? undefined : Number(process.env.WSM_PLAN_SEED),
          // Always among the cases: a new contact whose one name cell is held, one new number with
          // and without its leading zero, the one without first (CSV) and last (.xlsx), and a groups cell that is no JSON array.
          examples: [
            [example(['7700900123', 'Unpadded'], ['+0 7700 900123', 'Padded'], ['14155550104', '1.23457E+16'])],
            [{ ...example(['07700900123', 'Padded'], ['7700900123', 'Unpadded']), xlsx: true }],
            // A number a spreadsheet wrote as a decimal, beside a plain one.
            [example(['14155550104.00', 'Decimal'], ['14155550102', 'Plain'])],
            // A groups cell that is no JSON array: refused on wsm serve, its row created on the stand-in.
            [
              {
                ...example(),
                importRows: [
                  ['14155550101', 'Bob', '', '', '', 'not-json', ''],
                  ['14155550102', 'Cid', '', '', '', '', ''],
                ],
              },
            ],
          ],
        },
      );
    });
  });
}
