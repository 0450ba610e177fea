/**
 * `--add-group` and `--remove-group` edit one contact's groups. With `--from` they were read and
 * dropped: the plan and the run changed the rows' other columns and said nothing of the groups
 * asked for. They are refused there, before anything is sent, and the contact is left as it was.
 * The built binary runs the refusal from a file; wsm runs in-process (in-process.ts) otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

describe('group edits with --from, on wsm serve', () => {
  let backend: Backend;
  const run = (args: string[], input?: string) => wsmInProcess(backend.env, args, input);
  let id: number;
  const stored = async () => {
    const listed = await run(['contacts', 'list', '--all', '-o', 'json']);
    return (JSON.parse(listed.stdout) as Array<{ id: number; name: string; contact_groups: Array<{ name: string }> }>).find(
      (contact) => contact.id === id,
    );
  };

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
    for (const name of ['Old', 'New']) expect((await run(['groups', 'create', name])).code).toBe(0);
    const made = await run(['contacts', 'create', '--number', '14155550301', '--name', 'Ann', '--group', '1', '-o', 'json']);
    expect(made.code, made.stderr).toBe(0);
    id = (JSON.parse(made.stdout) as { id: number }).id;
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('--add-group beside a file of changes is refused (exit 2), its rows not sent', async () => {
    const file = backendFile(backend, 'names.csv', `id,name\n${id},Ann Lee\n`);
    for (const dryRun of [['--dry-run'], []]) {
      const refused = await wsm(backend.env, ['contacts', 'update', '--from', file, '--add-group', '2', ...dryRun]);
      expect([refused.code, refused.stdout, refused.stderr]).toEqual([
        2,
        '',
        'error: --add-group goes with one contact id, not --from: give the groups whole, in a contact_groups column or --group\n',
      ]);
    }
    expect(await stored()).toMatchObject({ name: 'Ann', contact_groups: [{ name: 'Old' }] });
  });

  it('--remove-group with ids one a line is refused the same way', async () => {
    const refused = await run(['contacts', 'update', '--from', '-', '--remove-group', '1'], `${id}\n`);
    expect([refused.code, refused.stderr]).toEqual([
      2,
      'error: --remove-group goes with one contact id, not --from: give the groups whole, in a contact_groups column or --group\n',
    ]);
    expect(await stored()).toMatchObject({ name: 'Ann', contact_groups: [{ name: 'Old' }] });
  });

  it('one contact still takes them', async () => {
    const edited = await run(['contacts', 'update', String(id), '--add-group', '2', '--remove-group', '1']);
    expect(edited.code, edited.stderr).toBe(0);
    expect(await stored()).toMatchObject({ name: 'Ann', contact_groups: [{ name: 'New' }] });
  });
});
