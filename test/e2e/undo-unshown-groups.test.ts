/**
 * `update --from` on a server whose contacts show no groups (the stand-in of the published API)
 * sends a row's contact_groups uncompared. Neither image the change keeps holds them, so its
 * undo cannot take them back: the change says so at the time, `wsm history show` prints it, and
 * the undo says it beside its plan. Before, the change read as one unchanged contact and the undo
 * planned nothing, without a word. The built binary runs the update; wsm runs in-process
 * (in-process.ts) otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const NOTE = "contact_groups of 1 contact sent uncompared (this server's contacts do not show it): undo cannot set it back";

describe('groups sent where contacts do not show them, on the stand-in for the hosted service', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);

  beforeAll(async () => {
    backend = await BACKENDS[2].start();
    expect((await run('groups', 'create', 'VIP')).code).toBe(0);
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('the change and its undo say the groups cannot be set back', async () => {
    const made = await run('contacts', 'create', '--number', '14155550601', '--name', 'Ann', '-o', 'json');
    expect(made.code, made.stderr).toBe(0);
    const id = (JSON.parse(made.stdout) as { id: number }).id;
    const file = backendFile(backend, 'groups.csv', `id,contact_groups\n${id},"[""VIP""]"\n`);
    const updated = await wsm(backend.env, ['contacts', 'update', '--from', file]);
    expect(updated.code, updated.stderr).toBe(0);

    const shown = await run('history', 'show', 'last');
    expect(shown.stdout).toContain(`  note: ${NOTE}\n`);
    const undo = await run('undo', 'last', '--dry-run');
    expect(undo.code).toBe(0);
    expect(undo.stderr).toContain(NOTE);
  });
});
