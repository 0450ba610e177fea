/**
 * An import's new number beside a stored one with more leading zeros (`16505552001` in the file,
 * `016505552001` stored: a spreadsheet drops zeros), in a workspace too large to read whole
 * (WSM_IMPORT_READ_LIMIT). The number's search finds the padded one where the server's search
 * matches parts of numbers (wsm serve, the stand-in): the dry run holds the row as it does with the
 * workspace read whole, and the run leaves it out as the dry run said. A server whose search
 * matches a number only whole (the stand-in's quirk) cannot find it: the dry run and the run say
 * so, and both create the contact. wsm runs in-process (in-process.ts), the first dry run of each
 * server on the built binary (binaryFirstRunner).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin } from '../standin/index.js';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { binaryFirstRunner } from './in-process.js';
import { cleanup } from './processes.js';

const FILE = 'number,name\n16505552001,New\n16505552002,Fresh\n';
const LARGE = { WSM_IMPORT_READ_LIMIT: '1' };
const LOOKED_UP =
  'the workspace holds over 1 contact: the rows were compared with the contacts of their 2 numbers, each looked up by itself';

/** The stand-in whose contact search matches a number only whole. */
const WHOLE_NUMBERS = {
  name: 'the stand-in, its search matching numbers only whole',
  async start(): Promise<Backend> {
    const standin = await startStandin({ importDelayMs: 50, quirks: { searchNumbersWhole: true } });
    const dir = mkdtempSync(join(tmpdir(), 'wsm-standin-'));
    const stop = async () => {
      await standin.close();
      cleanup(dir);
      return 0;
    };
    return { url: standin.url, token: standin.token, workspace: standin.workspace, env: standin.env(dir), dir, extensions: false, stop };
  },
};

for (const kind of [BACKENDS[0], BACKENDS[2], WHOLE_NUMBERS]) {
  const finds = kind !== WHOLE_NUMBERS;
  describe(`a new number beside a stored one with more leading zeros, over the read limit, against ${kind.name}`, () => {
    let backend: Backend;
    const runner = binaryFirstRunner();
    const run = (env: NodeJS.ProcessEnv, ...args: string[]) => runner({ ...backend.env, ...env }, args);
    const stored = async () =>
      (JSON.parse((await run({}, 'contacts', 'list', '--all', '-o', 'json')).stdout) as Array<{ id: number; number: string; name: string }>)
        .map(({ number, name }) => `${number} ${name}`)
        .sort();
    let padded: number;

    beforeAll(async () => {
      backend = await kind.start();
      // Two contacts no search of the file's numbers finds, so that none answers the whole workspace.
      for (const [number, name] of [
        ['016505552001', 'Padded'],
        ['19998887701', 'Other'],
        ['19998887702', 'Other'],
      ]) {
        const made = await run({}, 'contacts', 'create', '--number', number, '--name', name, '-o', 'json');
        expect(made.code, made.stderr).toBe(0);
        padded ??= (JSON.parse(made.stdout) as { id: number }).id;
      }
    });
    afterAll(async () => {
      if (backend !== undefined) expect(await backend.stop()).toBe(0);
    });

    it(
      finds
        ? 'the dry run holds the row as with the workspace read whole, and the run leaves it out'
        : 'the dry run and the run say the rule cannot be applied, and both create the contact',
      async () => {
        const file = backendFile(backend, 'beside.csv', FILE);
        const dry = await run(LARGE, 'contacts', 'import', file, '--dry-run');
        // The plan, before the check's report.
        const planned = dry.stdout.slice(dry.stdout.indexOf('row 2') - 2, dry.stdout.indexOf('file\t'));
        if (finds) {
          expect([dry.code, dry.stderr]).toEqual([0, `${LOOKED_UP}\n`]);
          expect(planned).toBe(
            '! row 2: 16505552001: not created\n' +
              `    ! number: "16505552001" would be a new contact beside contact ${padded}, "016505552001": a spreadsheet may have dropped its leading zeros: the row is left out\n` +
              '+ row 3: create 16505552002\n    name: "Fresh"\n' +
              'Plan: 1 to create, 0 to update, 0 unchanged, 0 invalid, 1 skipped; 1 cell looks changed by a spreadsheet and is left out: --apply-flagged to apply it (marked !).\n',
          );
          const whole = await run({}, 'contacts', 'import', file, '--dry-run');
          expect(whole.stdout).toBe(dry.stdout);
        } else {
          const untold =
            `; the server's contact search did not find contact ${padded} by the end of its number, 16505552001, ` +
            'so a new number is not held where a contact stores it with more leading zeros (as a spreadsheet drops them)';
          expect([dry.code, dry.stderr]).toEqual([0, `${LOOKED_UP}${untold}\n`]);
          expect(planned).toBe(
            '+ row 2: create 16505552001\n    name: "New"\n+ row 3: create 16505552002\n    name: "Fresh"\n' +
              'Plan: 2 to create, 0 to update, 0 unchanged, 0 invalid.\n',
          );
        }
        const real = await run(LARGE, 'contacts', 'import', file, '--wait', '--interval', '0.05s');
        expect(real.code, real.stderr).toBe(0);
        const said = real.stderr.split('\n');
        if (finds)
          expect(said.slice(0, 3)).toEqual([
            LOOKED_UP,
            `warning: ${file} row 2, new contact 16505552001: number: "16505552001" would be a new contact beside contact ${padded}, "016505552001": a spreadsheet may have dropped its leading zeros: the row is left out`,
            `warning: ${file}: 1 cell looks changed by a spreadsheet and was left out: --apply-flagged to apply it`,
          ]);
        else expect(said[0]).toBe(dry.stderr.trimEnd());
        // The contact found beside is no contact of the import's: its undo deletes what the run created, and no other.
        const undo = await run(LARGE, 'undo', 'last', '--dry-run');
        expect([undo.code, undo.stdout.split('\n').at(-2)]).toEqual([0, `Plan: ${finds ? 1 : 2} to delete, 0 already gone.`]);
        expect(await stored()).toEqual(
          finds
            ? ['016505552001 Padded', '16505552002 Fresh', '19998887701 Other', '19998887702 Other']
            : ['016505552001 Padded', '16505552001 New', '16505552002 Fresh', '19998887701 Other', '19998887702 Other'],
        );
      },
    );
  });
}
