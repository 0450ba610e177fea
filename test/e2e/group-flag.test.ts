/**
 * `--group <id>` of `contacts import` and `contacts update --from` names a group of the workspace:
 * an id it lacks is refused before anything is sent (exit 2), by the dry run as by the run, since
 * the server refuses the whole request; a plan never promises to make that group. A group no
 * contact is in yet is planned by its name. On every backend, the real binary runs each refused
 * import and update --from; the dry runs, set-up and read-backs run in-process (in-process.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const REFUSED = 'error: --group: this workspace has no contact group with id 9999 (`wsm groups list` lists them): nothing was sent\n';

for (const kind of BACKENDS) {
  describe(`--group naming no group of the workspace, against ${kind.name}`, () => {
    let backend: Backend;
    let contact: number;
    let empty: number;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    /** The dry run in-process, the run itself on the binary. */
    const dryOrReal = (args: string[], mode: string[]) => (mode[0] === '--dry-run' ? wsmInProcess : wsm)(backend.env, [...args, ...mode]);
    const json = async (...args: string[]) => {
      const done = await run(...args, '-o', 'json');
      expect(done.code, done.stderr).toBe(0);
      return JSON.parse(done.stdout);
    };

    beforeAll(async () => {
      backend = await kind.start();
      contact = (await json('contacts', 'create', '--number', '14155550731', '--name', 'Ann')).id;
      empty = (await json('groups', 'create', 'Nobody Yet')).id;
    });
    afterAll(async () => {
      if (backend !== undefined) expect(await backend.stop()).toBe(0);
    });

    it('an import: the dry run and the run refuse it alike, and nothing is sent', async () => {
      const people = backendFile(backend, 'people.csv', 'number,name\n14155550731,Ann B\n14155550732,Bob\n');
      for (const args of [['--dry-run'], ['--wait', '--interval', '0.05s']]) {
        const refused = await dryOrReal(['contacts', 'import', people, '--group', '9999'], args);
        expect([refused.code, refused.stdout, refused.stderr]).toEqual([2, '', REFUSED]);
      }
      expect(await json('imports', 'list')).toEqual([]);
      const contacts: Array<{ number: string; name: string }> = await json('contacts', 'list', '--all');
      expect(contacts.map(({ number, name }) => [number, name])).toEqual([['14155550731', 'Ann']]);
    });

    it('update --from: the dry run and the run refuse it alike, and the contact is unchanged', async () => {
      const changes = backendFile(backend, 'changes.csv', `id,name\n${contact},Ann C\n`);
      for (const args of [['--dry-run'], ['--yes']]) {
        const refused = await dryOrReal(['contacts', 'update', '--from', changes, '--group', '9999'], args);
        expect([refused.code, refused.stdout, refused.stderr]).toEqual([2, '', REFUSED]);
      }
      expect((await json('contacts', 'list', '--all'))[0].name).toBe('Ann');
    });

    it('a group no contact is in yet is planned by its name', async () => {
      const changes = backendFile(backend, 'join.csv', `id,name\n${contact},Ann\n`);
      const plan = await run('contacts', 'update', '--from', changes, '--group', String(empty), '--dry-run');
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toBe(
        `~ line 2: update contact ${contact} (14155550731)\n` +
          // The stand-in's contacts show no groups; wsm serve's do, --api-only's too.
          (kind !== BACKENDS[2]
            ? '    contact_groups: [] -> ["Nobody Yet"]\n'
            : '    note: contact_groups ["Nobody Yet"] is sent, not compared: this server\'s contacts do not show groups\n') +
          'Plan: 0 to create, 1 to update, 0 unchanged, 0 invalid.\n',
      );
    });
  });
}
