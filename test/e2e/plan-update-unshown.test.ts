/**
 * `contacts update --from` with group and custom field columns on a server whose contacts show
 * neither (the stand-in for the hosted service, as the published API leaves them unshown): a value
 * a row gives cannot be compared, so it is sent and said, never called unchanged; a value a row
 * empties is not sent, since an exported file cannot fill what the server does not show, and the
 * plan says that too. What was sent is read in the `--verbose` trace. wsm runs in-process
 * (in-process.ts: the binary's entry point, its bytes and exit code), except the real update,
 * which the built binary runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend } from './backends.js';
import { importPeople, jsonSentTo, person, sentTo, type Listed } from './people.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const STANDIN = BACKENDS.find((kind) => kind.name.startsWith('the stand-in'))!;
const EMPTIED = (key: string, what: string) =>
  `? ${key} emptied in 2 rows, not sent: this server's contacts do not show ${what}, so an empty cell may be one it could not fill\n`;

describe('update --from with group and field columns, on the stand-in for the hosted service', () => {
  let backend: Backend;
  let given: Listed;
  let emptied: Listed;
  let renamed: Listed;

  beforeAll(async () => {
    backend = await STANDIN.start();
    await importPeople(backend, 3);
    for (const args of [
      ['fields', 'create', 'city'],
      ['groups', 'create', 'VIP'],
    ])
      expect((await wsmInProcess(backend.env, args)).code).toBe(0);
    [given, emptied, renamed] = [await person(backend, 0), await person(backend, 1), await person(backend, 2)];
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('values given are sent and said, values emptied are left out and said: plan and run alike', async () => {
    const file = backendFile(
      backend,
      'columns.csv',
      `id,name,city,contact_groups\n${given.id},${given.name},Oslo,"[""VIP""]"\n${emptied.id},${emptied.name},,[]\n${renamed.id},New Name,,[]\n`,
    );
    const plan = await wsmInProcess(backend.env, ['contacts', 'update', '--from', file, '--dry-run']);
    expect([plan.code, plan.stderr]).toEqual([0, '']);
    expect(plan.stdout).toBe(
      `${EMPTIED('contact_groups', 'groups')}${EMPTIED('fields.city', 'custom fields')}` +
        `~ line 2: update contact ${given.id} (${given.number})\n` +
        `    note: contact_groups ["VIP"] is sent, not compared: this server's contacts do not show groups\n` +
        `    note: fields.city "Oslo" is sent, not compared: this server's contacts do not show custom fields\n` +
        `~ line 4: update contact ${renamed.id} (${renamed.number})\n    name: "${renamed.name}" -> "New Name"\n` +
        'Plan: 0 to create, 2 to update, 1 unchanged, 0 invalid.\n',
    );
    const run = await wsm(backend.env, ['contacts', 'update', '--from', file, '-v']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`✓ updated 2 of the 3 contacts read from ${file}: 1 unchanged, 0 skipped, 0 failed\n`);
    expect(sentTo(run.stderr)).toEqual([given.id, renamed.id]);
    expect(jsonSentTo(run.stderr, renamed.id)).toEqual({ name: 'New Name' });
    expect(await person(backend, 1)).toEqual(emptied);
  });
});
