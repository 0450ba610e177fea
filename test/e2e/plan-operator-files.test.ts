/**
 * Plan = apply for files an operator's tools make: text a Mac or a spreadsheet writes decomposed
 * (`e` and a combining accent), cells padded with spaces. The plan compares what the run sends
 * (trimmed, composed: NFC) with the contact, so a value that only looks different is no change,
 * and a change shows the value the workspace will hold. Against `wsm serve` and the stand-in of
 * the published API. wsm runs in-process (in-process.ts: the binary's entry point, its bytes and
 * exit code); the built binary runs one of each command the file covers: `contacts update --from`
 * (a decomposed name renamed), `contacts delete --from` (the padded list deleted) and, on wsm serve,
 * `contacts import` (a groups cell emptied).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend } from './backends.js';
import type { Stored } from './plan-property.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const COMPOSED = 'Zo\u00eb';
const DECOMPOSED = 'Zoe\u0308';

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`plans of operator-made files against ${kind.name}`, () => {
    let backend: Backend;
    let zoe: Stored;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const binary = (...args: string[]) => wsm(backend.env, args);
    const file = (name: string, text: string) => backendFile(backend, name, text);
    const arrange = run;
    const listed = async () => JSON.parse((await arrange('contacts', 'list', '--all', '-o', 'json')).stdout) as Stored[];

    beforeAll(async () => {
      backend = await kind.start();
      const created = await arrange('contacts', 'create', '--number', '14155550301', '--name', COMPOSED, '--email', 'zoe@example.com');
      expect(created.code, created.stderr).toBe(0);
      [zoe] = await listed();
    });
    afterAll(async () => {
      await backend?.stop();
    });

    it('a name written decomposed and an e-mail padded with spaces are no change: planned unchanged, not sent', async () => {
      const same = file('same.csv', `id,name,email\n${zoe.id},${DECOMPOSED},  zoe@example.com  \n`);
      const plan = await run('contacts', 'update', '--from', same, '--dry-run');
      expect([plan.code, plan.stdout]).toEqual([0, 'Plan: 0 to create, 0 to update, 1 unchanged, 0 invalid.\n']);
      const res = await run('contacts', 'update', '--from', same);
      expect([res.code, res.stderr]).toEqual([0, `✓ updated 0 of the 1 contact read from ${same}: 1 unchanged, 0 skipped, 0 failed\n`]);
      expect(await listed()).toEqual([zoe]);
    });

    it('a decomposed name that changes is planned as the workspace will hold it, composed', async () => {
      const renamed = file('renamed.csv', `id,name\n${zoe.id},${DECOMPOSED} Two\n`);
      const plan = await run('contacts', 'update', '--from', renamed, '--dry-run', '-o', 'json');
      expect(plan.code, plan.stderr).toBe(0);
      const [planned] = JSON.parse(plan.stdout).contacts;
      expect([planned.changes.name, planned.after.name]).toEqual([{ from: COMPOSED, to: `${COMPOSED} Two` }, `${COMPOSED} Two`]);
      const res = await binary('contacts', 'update', '--from', renamed);
      expect([res.code, res.stderr]).toEqual([0, `✓ updated 1 of the 1 contact read from ${renamed}: 0 unchanged, 0 skipped, 0 failed\n`]);
      expect((await listed()).map((contact) => contact.name)).toEqual([planned.after.name]);
    });

    it('a custom field an update file sets: kept by wsm serve; on the published API the run says the server did not keep it', async () => {
      expect((await arrange('fields', 'create', 'city')).code).toBe(0);
      const city = file('city.csv', `id,city\n${zoe.id},Faro\n`);
      const res = await run('contacts', 'update', '--from', city);
      const done = `✓ updated 1 of the 1 contact read from ${city}: 0 unchanged, 0 skipped, 0 failed\n`;
      const unkept =
        'warning: the server did not keep the custom field value of city: custom field values need the wsm serve extension (the published API has no field for them)\n';
      expect([res.code, res.stderr]).toEqual([0, kind === BACKENDS[0] ? done : unkept + done]);
    });

    // Groups of contacts are wsm serve's (the stand-in's records have none).
    if (kind === BACKENDS[0])
      it('an import row whose groups cell is emptied or [] keeps the contact in its groups, and the plan says so', async () => {
        expect((await arrange('groups', 'create', 'VIP')).code).toBe(0);
        const joined = await arrange('contacts', 'create', '--number', '14155550302', '--name', 'Vic', '--group', '1');
        expect(joined.code, joined.stderr).toBe(0);
        for (const cell of ['', '[]']) {
          const emptied = file('groups-emptied.csv', `number,name,contact_groups\n14155550302,Vic,${cell}\n`);
          const plan = await run('contacts', 'import', emptied, '--dry-run', '-q');
          expect(plan.stdout).toContain(
            '= row 2: unchanged contact 2 (14155550302)\n' +
              '    contact_groups: emptied in the file, kept ["VIP"]\n' +
              'Plan: 0 to create, 0 to update, 1 unchanged, 0 invalid.\n',
          );
          const imported = await (cell === '' ? binary : run)('contacts', 'import', emptied, '--wait', '-q');
          expect(imported.code, imported.stderr).toBe(0);
          const got = JSON.parse((await arrange('contacts', 'get', '2', '-o', 'json')).stdout);
          expect(got.contact_groups.map((group: { name: string }) => group.name)).toEqual(['VIP']);
        }
        expect((await arrange('contacts', 'delete', '2', '--yes')).code).toBe(0);
      });

    it('a delete list naming one contact on several lines, padded or not: each line deletes it, in the plan and in the run, counted once', async () => {
      const lines = `${zoe.id}\n00${zoe.id}\n`;
      const plan = await wsmInProcess(backend.env, ['contacts', 'delete', '--from', '-', '--dry-run', '-o', 'json'], lines);
      expect(plan.code, plan.stderr).toBe(0);
      const { contacts, repeated } = JSON.parse(plan.stdout);
      expect([repeated, contacts]).toMatchObject([
        1,
        [
          {
            place: 'lines 1, 2',
            action: 'delete',
            id: zoe.id,
            rows: [
              { place: 'line 1', does: 'delete' },
              { place: 'line 2', does: 'delete' },
            ],
          },
        ],
      ]);
      const text = await wsmInProcess(backend.env, ['contacts', 'delete', '--from', '-', '--dry-run'], lines);
      expect(text.stdout.split('\n').at(-2)).toBe(
        'Plan: 1 to delete, 0 already gone; 1 contact named by several rows (shown together, each deleted once).',
      );
      const res = await wsm(backend.env, ['contacts', 'delete', '--from', '-', '--yes'], lines);
      expect([res.code, res.stderr]).toEqual([0, '✓ deleted 1 of the 1 contact read from standard input: 0 already gone, 0 failed\n']);
      expect(await listed()).toEqual([]);
    });
  });
}
