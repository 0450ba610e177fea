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
import { caseArb, checkCase } from './plan-property.js';
import { cleanup } from './processes.js';

const RUNS = Number(process.env.WSM_PLAN_RUNS ?? 8);

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
          const { predicted, found, plan, file } = await checkCase(backend, dir, generated);
          expect(found, `${file}\n${JSON.stringify(plan)}`).toEqual(predicted);
        }),
        { numRuns: RUNS, seed: process.env.WSM_PLAN_SEED === undefined ? undefined : Number(process.env.WSM_PLAN_SEED) },
      );
    });
  });
}
