/**
 * A name cell of invisible characters alone (a zero-width space, a left-to-right mark): it looks
 * empty, yet it is no empty cell, which keeps the name. wsm serve refuses it as empty; the
 * published API says only "max 50", and its stand-in stores it. There the plan sets the name as
 * the cell writes it and says so with a `?` line, the run counts no failure (exit 0), and undo
 * sets back exactly what it did: a plan calling such rows invalid would say the server skipped
 * them (exit 8) while the stand-in renames and creates contacts, which undo would leave behind.
 * In-process runs of the built bundle (in-process.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { wsmInProcess } from './in-process.js';

const ZERO_WIDTH = '\u200b';
const LEFT_TO_RIGHT = '\u200e';
const WHY = "The name holds no visible character: wsm serve refuses it as empty; this server may store it as the contact's name.";
const NAME_LINE =
  "name in 2 rows (rows 2 and 3) holds no visible character, which wsm serve refuses; this server's rule is not known: sent as written";

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  const known = kind === BACKENDS[0];
  describe(`a name of invisible characters alone, against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const names = async () =>
      (JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as { number: string; name: string }[])
        .map(({ number, name }) => `${number} ${JSON.stringify(name)}`)
        .sort();

    beforeAll(async () => {
      backend = await kind.start();
    });
    afterAll(async () => {
      if (backend !== undefined) expect(await backend.stop()).toBe(0);
    });

    it('the plan, the run, its summary and undo agree', async () => {
      const seed = backendFile(backend, 'seed.csv', 'number,name\n16505550012,Ann\n');
      expect((await run('contacts', 'import', seed, '--wait', '--interval', '0.05s', '-q')).code).toBe(0);
      const ann = (await names())[0];
      const file = backendFile(
        backend,
        'people.csv',
        `number,name\n16505550011,${ZERO_WIDTH}\n16505550012,${LEFT_TO_RIGHT}\n16505550013,Bo\n`,
      );

      const plan = await run('contacts', 'import', file, '--dry-run', '-q');
      expect(plan.code, plan.stderr).toBe(known ? 8 : 0);
      const bo = '+ row 4: create 16505550013\n    name: "Bo"\n';
      if (known) {
        expect(plan.stdout).toContain('x row 2: invalid\n    name: The name field is required.\n');
        expect(plan.stdout).toContain('Plan: 1 to create, 0 to update, 0 unchanged, 2 invalid.\n');
      } else {
        const id = (JSON.parse((await run('contacts', 'list', '-o', 'json')).stdout) as { id: number }[])[0].id;
        const sent = (cell: string) => `    ? name: "${cell}" sent as written, this server's rule not known: ${WHY}\n`;
        expect(plan.stdout).toBe(
          `+ row 2: create 16505550011\n    name: "${ZERO_WIDTH}"\n${sent(ZERO_WIDTH)}` +
            `~ row 3: update contact ${id} (16505550012)\n    name: "Ann" -> "${LEFT_TO_RIGHT}"\n${sent(LEFT_TO_RIGHT)}` +
            `${bo}? ${NAME_LINE}\nPlan: 2 to create, 1 to update, 0 unchanged, 0 invalid.\n${file}\n`,
        );
        const data = JSON.parse((await run('contacts', 'import', file, '--dry-run', '-o', 'json')).stdout);
        expect(data).toMatchObject({ invalid_rows: 0, unreadable_cells: { name: { rows: 2, first: ['row 2', 'row 3'] } } });
        expect(data.contacts[0]).toMatchObject({ after: { name: ZERO_WIDTH }, unreadable: { name: { cell: ZERO_WIDTH, why: WHY } } });
      }

      const imported = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '-o', 'json');
      expect(imported.code, imported.stderr).toBe(known ? 8 : 0);
      expect(JSON.parse(imported.stdout).summary).toMatchObject(
        known ? { created: 1, updated: 0, failed: 2 } : { created: 2, updated: 1, failed: 0 },
      );
      if (!known) expect(imported.stderr).toContain(`warning: ${file}: ${NAME_LINE}\n`);
      expect(await names()).toEqual(
        known
          ? [ann, '16505550013 "Bo"']
          : [`16505550011 ${JSON.stringify(ZERO_WIDTH)}`, `16505550012 ${JSON.stringify(LEFT_TO_RIGHT)}`, '16505550013 "Bo"'],
      );
      const again = await run('contacts', 'import', file, '--dry-run', '-q');
      expect(again.stdout).toContain(`Plan: 0 to create, 0 to update, ${known ? 1 : 3} unchanged, ${known ? 2 : 0} invalid.\n`);

      const undone = await run('undo', 'last', '--yes');
      expect(undone.code, undone.stderr).toBe(0);
      expect(await names()).toEqual([ann]);
    });
  });
}
