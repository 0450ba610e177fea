/**
 * A role the file gives permissions, applied on a server whose create takes the name alone and
 * which has no role update to set them with (the stand-in of the published API): the role is made
 * all the same. The apply's line says so with its id, and its change keeps the create, so `wsm
 * history show` lists it and `wsm undo` plans it; before, both said the create failed and the role
 * was in no record. Its plan says so before: `wsm diff` notes each role it creates with permissions
 * on a server without a role update, and says nothing of the kind on `wsm serve`. The built binary
 * runs the apply and the diff; wsm runs in-process (in-process.ts) otherwise.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend, withBackend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

describe('a role made without its permissions, on the stand-in for the hosted service', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  withBackend(BACKENDS[2], (started) => {
    backend = started;
  });

  it('diff notes that a role it creates with permissions may be made without them', async () => {
    const file = backendFile(backend, 'planned.yaml', 'roles:\n  - { name: Planners, permissions: [contacts.view] }\n  - { name: Bare }\n');
    const diff = await wsm(backend.env, ['diff', '-f', file]);
    expect(diff.code, diff.stderr).toBe(2);
    expect(diff.stdout).toContain(
      'Note: roles Planners: this server has no role update, and the published API creates a role by its name alone: unless its create keeps the permissions, the role is made without them, and apply says so (exit 1).\n',
    );
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

describe('a role created with permissions, on wsm serve', () => {
  let backend: Backend;
  withBackend(BACKENDS[0], (started) => {
    backend = started;
  });

  it('diff plans it with no note: the role update gives it its permissions', async () => {
    const file = backendFile(backend, 'planned.yaml', 'roles:\n  - { name: Planners, permissions: [contacts.view] }\n');
    const diff = await wsm(backend.env, ['diff', '-f', file]);
    expect(diff.code, diff.stderr).toBe(2);
    expect(diff.stdout).toContain('+ roles Planners\n');
    expect(diff.stdout).not.toContain('Note:');
  });
});
