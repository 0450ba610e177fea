/**
 * A role the file gives permissions, applied on a server whose create takes the name alone and
 * which has no role update to set them with (the stand-in of the published API): the role is made
 * all the same. The apply's line says so with its id, and its change keeps the create, so `wsm
 * history show` lists it and `wsm undo` plans it; before, both said the create failed and the role
 * was in no record. The built binary runs the apply; wsm runs in-process (in-process.ts) otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

describe('a role made without its permissions, on the stand-in for the hosted service', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);

  beforeAll(async () => {
    backend = await BACKENDS[2].start();
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('apply names the role it made, and its change keeps it', async () => {
    const file = backendFile(backend, 'roles.yaml', 'roles:\n  - { name: Helpers, permissions: [contacts.view] }\n');
    const applied = await wsm(backend.env, ['apply', '-f', file, '--yes']);
    const roles = JSON.parse((await run('roles', 'list', '-o', 'json')).stdout) as Array<{ id: number; name: string }>;
    const made = roles.find((role) => role.name === 'Helpers');
    expect(made).toBeDefined();
    expect(applied.code, applied.stderr).toBe(1);
    expect(applied.stdout).toContain(
      `+ roles Helpers: failed: created (id ${made!.id}), but without its permissions: this server does not support updating a role\n`,
    );

    const shown = await run('history', 'show', 'last');
    expect(shown.stdout).toContain(`+ record 1: create role ${made!.id}\n    name: "Helpers"\n`);
    const undo = await run('undo', 'last', '--dry-run');
    expect([undo.code, undo.stdout]).toEqual([
      0,
      `! record 1: skipped role ${made!.id}\n` +
        '    note: cannot be undone: this server has no delete for roles (an extension of wsm serve the published API lacks)\n' +
        'Plan: 0 to create, 0 to update, 0 unchanged, 0 invalid, 1 skipped.\n',
    ]);
  });
});
