/**
 * `wsm history show` names what a change did that no record holds: a request that failed (a
 * contact's, or a record of the workspace file's for an apply, each by its own kind) and a contact
 * a delete found already gone. Before, the text showed neither (the failure was only in `-o
 * json`'s "failed", the already-gone contact nowhere, its summary `0 already gone` where the run
 * had said 1). The first run of each command is the built binary's, the later ones in-process
 * (in-process.ts binaryFirstRunner).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, serveBackend, type Backend } from './backends.js';
import { type Listed, withThreePeople } from './people.js';
import { binaryFirstRunner } from './in-process.js';

const wsm = binaryFirstRunner();
const MISSING = 99_999;

/** `history show last` without its head (when, command line, profile): the records as a plan. */
async function shownRecords(backend: Backend): Promise<string> {
  const shown = await wsm(backend.env, ['history', 'show', 'last']);
  expect([shown.code, shown.stderr]).toEqual([0, '']);
  return shown.stdout.split('\n').slice(3).join('\n');
}

describe.each(BACKENDS)('records a change does not hold, on $name', (kind) => {
  let backend: Backend;
  let named: Listed;
  withThreePeople(kind, (started, first) => {
    backend = started;
    named = first;
  });

  it('update --from: the contact that failed is an x line, counted failed', async () => {
    const file = backendFile(backend, 'update.csv', `id,name\n${named.id},Renamed\n${MISSING},Nobody\n`);
    const run = await wsm(backend.env, ['contacts', 'update', '--from', file]);
    expect(run.code, run.stderr).toBe(8);
    expect(await shownRecords(backend)).toBe(
      `~ record 1: update contact ${named.id} (${named.number})\n` +
        `    name: "${named.name}" -> "Renamed"\n` +
        `x contact ${MISSING}: its request failed, nothing was changed\n` +
        'Plan: 0 to create, 1 to update, 0 unchanged, 0 invalid, 1 failed.\n',
    );
    const json = JSON.parse((await wsm(backend.env, ['history', 'show', 'last', '-o', 'json'])).stdout);
    expect(json).toMatchObject({ failed: [MISSING], failed_resources: { contacts: [MISSING] } });
  });

  it('delete --from: the contact already gone is shown and counted as the run said it', async () => {
    const run = await wsm(backend.env, ['contacts', 'delete', '--from', '-', '--yes'], `${named.id}\n${MISSING}\n`);
    expect([run.code, run.stderr]).toEqual([0, '✓ deleted 1 of the 2 contacts read from standard input: 1 already gone, 0 failed\n']);
    expect(await shownRecords(backend)).toBe(
      `- record 1: delete contact ${named.id} (${named.number})\n` +
        `· contact ${MISSING}: not in the workspace (already gone)\n` +
        'Plan: 1 to delete, 1 already gone.\n',
    );
    const json = JSON.parse((await wsm(backend.env, ['history', 'show', 'last', '-o', 'json'])).stdout);
    expect(json).toMatchObject({ gone: [MISSING] });
    expect(json.failed).toBeUndefined();
  });
});

describe('failures of an apply, and of a change an earlier wsm kept, on wsm serve', () => {
  let backend: Backend;

  beforeAll(async () => {
    backend = await serveBackend();
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('the role the server refused to delete is an x line naming the role, not a contact', async () => {
    const role = JSON.parse((await wsm(backend.env, ['roles', 'create', 'Temps', '--permission', 'contacts.view', '-o', 'json'])).stdout);
    const user = await wsm(backend.env, [
      'users',
      'create',
      '--name',
      'Tem',
      '--email',
      'tem@example.com',
      '--password',
      'long enough',
      '--role',
      String(role.id),
    ]);
    expect(user.code, user.stderr).toBe(0);
    const file = backendFile(backend, 'roles.yaml', 'roles: []\n');
    const applied = await wsm(backend.env, ['apply', '-f', file, '--prune', '--yes']);
    expect(applied.stdout).toContain('- roles Temps: failed: Validation error (422)');
    const json = JSON.parse((await wsm(backend.env, ['history', 'show', 'last', '-o', 'json'])).stdout);
    expect(json).toMatchObject({ failed: [role.id], failed_resources: { roles: [role.id] } });
    expect(await shownRecords(backend)).toContain(`x role ${role.id}: its request failed, nothing was changed\n`);
  });

  it('a change an earlier wsm kept names its failed ids without their kind: shown as ids, said so', async () => {
    const run = await wsm(backend.env, ['contacts', 'update', '--from', '-'], `id,name\n${MISSING},Nobody\n`);
    expect(run.code, run.stderr).toBe(8);
    const history = join(backend.env.WSM_CONFIG_DIR!, 'history');
    const meta = join(
      history,
      readdirSync(history)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .at(-1)!,
    );
    const { failed_resources, ...earlier } = JSON.parse(readFileSync(meta, 'utf8'));
    expect(failed_resources).toEqual({ contacts: [MISSING] });
    writeFileSync(meta, JSON.stringify(earlier));
    expect(await shownRecords(backend)).toBe(
      `x id ${MISSING}: its request failed, nothing was changed\n` +
        '    note: the change (kept by an earlier wsm) does not say what this id names\n' +
        'Plan: 0 to create, 0 to update, 0 unchanged, 0 invalid, 1 failed.\n',
    );
  });
});
