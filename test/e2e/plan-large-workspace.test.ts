/**
 * Plan = apply where a real `contacts update --from` does not read the whole workspace: more pages
 * of contacts than the file has rows. The run reads the rows' own contacts one by one (GET one
 * contact, which wsm serve has) and plans against them, so a contact the plan shows unchanged is
 * not sent and is counted unchanged, as `--dry-run` said. Against `wsm serve`; wsm runs in-process
 * (in-process.ts: the binary's entry point, its bytes and exit code), except the real update of an
 * unchanged contact, which the built binary runs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import type { Stored } from './plan-property.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

/** Two pages of the largest size and one contact more. */
const CONTACTS = 201;

describe('a real update --from in a workspace of more pages than rows, against wsm serve', () => {
  let backend: Backend;
  let first: Stored & { updated_at: string };
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  const piped = (input: string, ...args: string[]) => wsmInProcess(backend.env, args, input);
  const firstNow = async () =>
    (JSON.parse((await run('contacts', 'list', '--per-page', '1', '-o', 'json')).stdout) as Array<typeof first>)[0];

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
    const rows = Array.from({ length: CONTACTS }, (_, at) => `1415555${String(at).padStart(4, '0')},Person ${at}`);
    const people = join(backend.dir, 'people.csv');
    writeFileSync(people, `number,name\n${rows.join('\n')}\n`);
    const imported = await run('contacts', 'import', people, '--wait', '--interval', '0.1s', '-q');
    expect(imported.code, imported.stderr).toBe(0);
    first = await firstNow();
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('an unchanged contact is planned unchanged and not sent: its updated_at stays, the summary counts it unchanged', async () => {
    const plan = await piped(`${first.id}\n`, 'contacts', 'update', '--from', '-', '--active', '--dry-run');
    expect([plan.code, plan.stdout]).toEqual([0, 'Plan: 0 to create, 0 to update, 1 unchanged, 0 invalid.\n']);
    const res = await wsm(backend.env, ['contacts', 'update', '--from', '-', '--active'], `${first.id}\n`);
    expect([res.code, res.stderr]).toEqual([
      0,
      '✓ updated 0 of the 1 contact read from standard input: 1 unchanged, 0 skipped, 0 failed\n',
    ]);
    expect(await firstNow()).toEqual(first);
  });

  it('a file naming the contact with its own values is unchanged too; a change still goes in', async () => {
    const file = join(backend.dir, 'same.csv');
    writeFileSync(file, `id,name\n${first.id},${first.name}\n`);
    const same = await run('contacts', 'update', '--from', file);
    expect([same.code, same.stderr]).toEqual([0, `✓ updated 0 of the 1 contact read from ${file}: 1 unchanged, 0 skipped, 0 failed\n`]);
    const changed = await piped(`${first.id}\n`, 'contacts', 'update', '--from', '-', '--inactive');
    expect([changed.code, changed.stderr]).toEqual([
      0,
      '✓ updated 1 of the 1 contact read from standard input: 0 unchanged, 0 skipped, 0 failed\n',
    ]);
    expect((await firstNow()).status).toBe(false);
  });
});
