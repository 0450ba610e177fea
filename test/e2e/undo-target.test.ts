/**
 * Where a change was made, as the journal keeps it and as `wsm undo` checks it, against `wsm serve`: a base URL carrying a password (a proxy's basic auth) is kept without it,
 * and an undo pointed elsewhere says how to point it back, whether the change was made through a
 * saved profile or through WSM_BASE_URL and WSM_WORKSPACE alone. A contact deleted, then its group
 * and field deleted too: the undo's plan says what it leaves out, and the contact is created again.
 * A request the server refuses says the server's field errors, not only "Validation error".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import { binaryFirstRunner, wsmInProcess } from './in-process.js';
import { onTerminal } from './terminal.js';

/** The first run of each command goes to the built binary, every later one in-process (in-process.ts). */
const wsm = binaryFirstRunner();

describe('where an undo goes, against wsm serve', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsm(backend.env, args);
  // The records made and deleted to set up a change, and the reads of the contacts after an undo: in-process.
  const arrange = (...args: string[]) => wsmInProcess(backend.env, args);
  const last = async () => JSON.parse((await run('history', '-o', 'json')).stdout)[0] as { id: string; base_url: string; command: string };

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
    expect((await arrange('contacts', 'create', '--number', '14155550501', '--name', 'Ann')).code).toBe(0);
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('a base URL with a password in it is kept without the password, and the undo through it still goes', async () => {
    const withPassword = backend.url.replace('http://', 'http://bob:hunter2-secret@');
    expect((await run('contacts', 'update', '1', '--name', 'Ann Two', '--base-url', withPassword)).code).toBe(0);
    const change = await last();
    expect(change.base_url).toBe(backend.url.replace('http://', 'http://bob:***@'));
    expect(change.command).toBe(`wsm contacts update 1 --name 'Ann Two' --base-url ${change.base_url}`);
    const history = join(backend.env.WSM_CONFIG_DIR!, 'history');
    for (const name of readdirSync(history))
      expect([name, readFileSync(join(history, name), 'utf8')]).not.toContainEqual(expect.stringContaining('hunter2'));
    const shown = await run('history', 'show', change.id);
    expect([shown.code, shown.stdout]).toEqual([0, expect.not.stringContaining('hunter2')]);
    const undo = await run('undo', change.id, '--yes', '--base-url', withPassword);
    expect([undo.code, undo.stderr]).toEqual([0, `✓ undid change ${change.id}: 1 set back, 0 deleted, 0 created again, 0 failed\n`]);
    const elsewhere = await run('undo', change.id, '--dry-run');
    expect([elsewhere.code, elsewhere.stderr]).toEqual([2, expect.not.stringContaining('hunter2')]);
  });

  it('an undo pointed elsewhere names the saved profile the change was made with', async () => {
    expect((await run('contacts', 'update', '1', '--name', 'Ann Three')).code).toBe(0);
    const change = await last();
    const res = await wsm({ ...backend.env, WSM_WORKSPACE: '00000000-0000-4000-8000-000000000000' }, ['undo', change.id, '--dry-run']);
    expect([res.code, res.stdout]).toEqual([2, '']);
    expect(res.stderr).toMatch(/: pass --profile local\n$/);
  });

  it('a change made through WSM_BASE_URL and WSM_WORKSPACE alone: the undo pointed elsewhere names those, not a profile that was never saved', async () => {
    const token = (await run('auth', 'token', '--profile', 'local')).stdout.trim();
    // A CI job's machine: no profile saved, the server and workspace from the environment.
    const direct = {
      ...backend.env,
      WSM_CONFIG_DIR: join(backend.dir, 'ci-config'),
      WSM_BASE_URL: backend.url,
      WSM_WORKSPACE: backend.workspace,
      WSM_TOKEN: token,
    };
    expect((await wsm(direct, ['contacts', 'update', '1', '--name', 'Ann Four'])).code).toBe(0);
    const change = JSON.parse((await wsm(direct, ['history', '-o', 'json'])).stdout)[0] as { id: string };
    const res = await wsm({ ...direct, WSM_WORKSPACE: '00000000-0000-4000-8000-000000000000' }, ['undo', change.id, '--dry-run']);
    expect([res.code, res.stdout]).toEqual([2, '']);
    expect(res.stderr).not.toContain('--profile');
    expect(res.stderr).toMatch(
      new RegExp(
        `: set WSM_BASE_URL=${backend.url.replace(/[.]/g, '\\.')} and WSM_WORKSPACE=${backend.workspace} \\(with a token for them\\)\\n$`,
      ),
    );
    expect((await wsm(direct, ['undo', change.id, '--yes'])).code).toBe(0);
  });

  it('a deleted contact whose group and field were deleted since is created again without them, the plan saying so; a group made again is found by its name', async () => {
    const made = async (...args: string[]) => JSON.parse((await arrange(...args, '-o', 'json')).stdout).id as number;
    const gone = await made('groups', 'create', 'Gone Group');
    const again = await made('groups', 'create', 'Again Group');
    const field = await made('fields', 'create', 'gone_field');
    const id = await made(
      'contacts',
      'create',
      '--number',
      '14155550502',
      '--name',
      'Bo',
      '--group',
      String(gone),
      '--group',
      String(again),
      '--field',
      'gone_field=x',
    );
    expect((await arrange('contacts', 'delete', String(id), '--yes')).code).toBe(0);
    const change = await last();
    for (const args of [
      ['groups', 'delete', String(gone), '--yes'],
      ['groups', 'delete', String(again), '--yes'],
      ['fields', 'delete', String(field), '--yes'],
    ])
      expect((await arrange(...args)).code).toBe(0);
    const madeAgain = await made('groups', 'create', 'Again Group');
    const dry = await run('undo', change.id, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('    contact_groups: ["Again Group"]\n');
    expect(dry.stdout).not.toContain('fields.gone_field');
    expect(dry.stdout).toContain(`    note: group "Again Group" was group ${again}: it is group ${madeAgain} now\n`);
    expect(dry.stdout).toContain(`    note: group "Gone Group" (group ${gone}) no longer exists: left out\n`);
    expect(dry.stdout).toContain('    note: field "gone_field" no longer exists: its value "x" left out\n');
    const undo = await run('undo', change.id, '--yes');
    expect([undo.code, undo.stderr]).toEqual([0, `✓ undid change ${change.id}: 0 set back, 0 deleted, 1 created again, 0 failed\n`]);
    const listed = JSON.parse((await arrange('contacts', 'list', '--all', '-o', 'json')).stdout) as Array<{
      number: string;
      contact_groups: Array<{ name: string }>;
    }>;
    expect(listed.find((contact) => contact.number === '14155550502')?.contact_groups.map((group) => group.name)).toEqual(['Again Group']);
  });

  it('a number taken by someone else while the undo asked: the failed line says the field error the server gave, exit 8', async () => {
    const id = JSON.parse((await arrange('contacts', 'create', '--number', '14155550503', '--name', 'Cy', '-o', 'json')).stdout)
      .id as number;
    expect((await arrange('contacts', 'delete', String(id), '--yes')).code).toBe(0);
    const change = await last();
    const res = await onTerminal(backend.env, ['undo', change.id], {
      columns: 200,
      keys: 'y\r',
      when: '(y/N)',
      beforeKeys: async () => {
        expect((await arrange('contacts', 'create', '--number', '14155550503', '--name', 'Someone')).code).toBe(0);
      },
    });
    expect(res.code).toBe(8);
    expect(res.screen).toMatch(/failed\s+422\s+number: The number has already been taken\./);
  });
});
