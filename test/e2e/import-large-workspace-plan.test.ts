/**
 * Plan = apply for an import into a workspace too large to read whole (WSM_IMPORT_READ_LIMIT): the
 * dry run is told the same limit as the run, and both plan against the contacts of the file's
 * numbers, each looked up by search. A stored name a spreadsheet would strip of its zeros is kept
 * by the run as the dry run says; a stored number the file also writes with a leading zero is
 * updated, not left out as a spreadsheet's twin. Past WSM_IMPORT_LOOKUP_LIMIT only the twins are
 * looked up: the dry run says the other rows go unread, and a stored twin is still updated. A
 * property holds the dry run's predicted contacts equal to the run's, as plan-property.test.ts
 * does with the workspace read whole. On `wsm serve` and on the stand-in of the published API;
 * wsm runs in-process (in-process.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { caseArb, checkCase, type Generated } from './plan-property.js';
import { cleanup } from './processes.js';

const FILE = 'number,name\n16505551001,42\n16505551002,Two B\n016505551002,Padded\n';
const LARGE = { WSM_IMPORT_READ_LIMIT: '1' };

/**
 * Contacts no generated file names, so that a search for a number never answers the whole of a
 * small workspace (which the lookup takes for a search that does not find numbers, as a real large
 * workspace never makes it).
 */
const OTHERS: Generated['seeds'] = ['19998887701', '19998887702'].map((number) => ({
  number,
  name: 'Other',
  email: null,
  gender: null,
  status: true,
}));

interface Listed {
  id: number;
  number: string;
  name: string;
}

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`an import over the read limit plans what it does, against ${kind.name}`, () => {
    let backend: Backend;
    let dir: string;
    const run = (env: NodeJS.ProcessEnv, ...args: string[]) => wsmInProcess({ ...backend.env, ...env }, args);
    const listed = async () =>
      (JSON.parse((await run({}, 'contacts', 'list', '--all', '-o', 'json')).stdout) as Listed[]).sort((a, b) =>
        a.number.localeCompare(b.number),
      );
    const names = async () => (await listed()).map(({ number, name }) => `${number} ${name}`);
    /** The ids of the two contacts seeded, in the order of their numbers. */
    const ids = async () => (await listed()).filter(({ number }) => !number.startsWith('0')).map(({ id }) => id);
    /** The workspace holds exactly the contacts of the finding: a name of zeros, and a number the file also writes padded. */
    const seed = async () => {
      for (const { id } of await listed()) expect((await run({}, 'contacts', 'delete', String(id), '--yes', '-q')).code).toBe(0);
      for (const [number, name] of [
        ['16505551001', '0042'],
        ['16505551002', 'Two'],
      ])
        expect((await run({}, 'contacts', 'create', '--number', number, '--name', name, '-q')).code).toBe(0);
    };

    beforeAll(async () => {
      backend = await kind.start();
      dir = mkdtempSync(join(tmpdir(), 'wsm-large-plan-'));
    });
    afterAll(async () => {
      if (dir !== undefined) cleanup(dir);
      if (backend !== undefined) expect(await backend.stop()).toBe(0);
    });

    it('every number looked up: the dry run and the run keep the zeros and update the stored twin', async () => {
      await seed();
      const file = backendFile(backend, 'twins.csv', FILE);
      const dry = await run(LARGE, 'contacts', 'import', file, '--dry-run');
      const said =
        'the workspace holds over 1 contact: the rows were compared with the contacts of their 3 numbers, each looked up by itself\n';
      expect([dry.code, dry.stderr]).toEqual([0, said]);
      const [zeros, two] = await ids();
      // The plan, before the check's report.
      expect(dry.stdout.slice(dry.stdout.indexOf('! row 2'), dry.stdout.indexOf('file\t'))).toBe(
        `! row 2: skipped contact ${zeros} (16505551001)\n` +
          '    ! name: "0042" kept, not "42": "0042" would lose its leading zeros, as a spreadsheet drops them\n' +
          `~ row 3: update contact ${two} (16505551002)\n` +
          '    name: "Two" -> "Two B"\n' +
          '+ row 4: create 016505551002\n' +
          '    name: "Padded"\n' +
          'Plan: 1 to create, 1 to update, 0 unchanged, 0 invalid, 1 skipped; 1 cell looks changed by a spreadsheet and is kept as stored: --apply-flagged to apply it (marked !).\n',
      );
      const real = await run(LARGE, 'contacts', 'import', file, '--wait', '--interval', '0.05s', '-q');
      expect(real.code, real.stderr).toBe(0);
      expect(real.stderr).toBe(
        `warning: ${file} row 2, contact ${zeros}: name: "0042" kept, not "42": "0042" would lose its leading zeros, as a spreadsheet drops them\n` +
          `warning: ${file}: 1 cell looks changed by a spreadsheet and was kept as stored: --apply-flagged to apply it\n`,
      );
      expect(await names()).toEqual(['016505551002 Padded', '16505551001 0042', '16505551002 Two B']);
    });

    it('past the lookup limit: the dry run says the rows go unread, and the stored twin is still updated', async () => {
      await seed();
      const file = backendFile(backend, 'twins.csv', FILE);
      const bounded = { ...LARGE, WSM_IMPORT_LOOKUP_LIMIT: '2' };
      const why =
        'the workspace holds over 1 contact and the file names over 2 numbers, more than are looked up one by one (WSM_IMPORT_LOOKUP_LIMIT)';
      const dry = await run(bounded, 'contacts', 'import', file, '--dry-run');
      expect([dry.code, dry.stderr]).toEqual([0, `${why}: the rows were checked for scientific notation only, not against them\n`]);
      const [, stored] = await ids();
      expect(dry.stdout.slice(dry.stdout.indexOf('+ row 2'), dry.stdout.indexOf('file\t'))).toBe(
        `+ row 2: create or update 16505551001\n    not read (${why}): the row is sent as it is\n    name: "42"\n` +
          `~ row 3: update contact ${stored} (16505551002)\n    name: "Two" -> "Two B"\n` +
          `+ row 4: create or update 016505551002\n    not read (${why}): the row is sent as it is\n    name: "Padded"\n` +
          'Plan: 2 to create, 1 to update, 0 unchanged, 0 invalid; 2 contacts not read first, sent as the file gives them.\n',
      );
      const real = await run(bounded, 'contacts', 'import', file, '--wait', '--interval', '0.05s', '-q');
      expect([real.code, real.stderr]).toEqual([0, '']);
      expect(await names()).toEqual(['016505551002 Padded', '16505551001 42', '16505551002 Two B']);
    });

    it('generated workspaces and files: the contacts the dry run predicts are those the run leaves', async () => {
      const large = { ...backend, env: { ...backend.env, WSM_IMPORT_READ_LIMIT: '0' } };
      const finding: Generated = {
        seeds: [
          { number: '14155550101', name: '007', email: null, gender: null, status: true },
          { number: '14155550102', name: 'Bob', email: null, gender: null, status: true },
          ...OTHERS,
        ],
        verb: 'import',
        xlsx: false,
        flags: [],
        importRows: [
          ['14155550101', '7', '', '', '', '', ''],
          ['14155550102', 'Cid', '', '', '', '', ''],
          ['014155550102', 'Padded', '', '', '', '', ''],
        ],
        updateRows: [],
      };
      await fc.assert(
        fc.asyncProperty(
          caseArb.map((generated) => ({ ...generated, verb: 'import' as const, seeds: [...generated.seeds, ...OTHERS] })),
          async (generated) => {
            const { predicted, shown, found, plan, file, again } = await checkCase(large, dir, generated);
            const why = `${file}\n${JSON.stringify(plan)}`;
            expect(found, why).toEqual(predicted);
            expect(found, why).toEqual(shown);
            expect(again, why).toEqual({ create: 0, update: 0 });
          },
        ),
        { numRuns: Number(process.env.WSM_PLAN_RUNS ?? 4), examples: [[finding]] },
      );
    });
  });
}
