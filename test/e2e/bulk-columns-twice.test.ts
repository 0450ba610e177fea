/**
 * An `update|delete --from` file whose header names a column twice: each row was read by the last
 * such cell alone, so `id,id` deleted the second column's contacts and `name,name` sent the second
 * name, with no word of the other. Such a file is refused before anything is read or sent (exit 2,
 * naming the columns), dry run or not, and the contacts stay. The built binary runs the delete;
 * wsm runs in-process (in-process.ts) otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

describe('a column named twice in a --from file, on wsm serve', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  const names = async () =>
    (JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Array<{ id: number; name: string }>).map((contact) => [
      contact.id,
      contact.name,
    ]);
  const ids: number[] = [];
  const expectUntouched = async () =>
    expect(await names()).toEqual([
      [ids[0], 'Ann'],
      [ids[1], 'Bob'],
    ]);

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
    for (const [number, name] of [
      ['14155550401', 'Ann'],
      ['14155550402', 'Bob'],
    ]) {
      const made = await run('contacts', 'create', '--number', number, '--name', name, '-o', 'json');
      expect(made.code, made.stderr).toBe(0);
      ids.push((JSON.parse(made.stdout) as { id: number }).id);
    }
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('delete --from an id,id file is refused and deletes nothing', async () => {
    const file = backendFile(backend, 'two-ids.csv', `id,id\n${ids[0]},${ids[1]}\n`);
    const refused = await wsm(backend.env, ['contacts', 'delete', '--from', file, '--yes']);
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([
      2,
      '',
      `error: ${file} names a column twice: nothing was sent\n  id: columns 1 and 2 are both "id": keep one.\n`,
    ]);
    await expectUntouched();
  });

  it('update --from a file naming "name" twice, one of them capitalised, is refused in its plan and its run', async () => {
    const file = backendFile(backend, 'two-names.csv', `id,Name,email,name\n${ids[0]},Ann Lee,,Annie\n`);
    for (const dryRun of [['--dry-run'], []]) {
      const refused = await run('contacts', 'update', '--from', file, ...dryRun);
      expect([refused.code, refused.stdout, refused.stderr]).toEqual([
        2,
        '',
        `error: ${file} names a column twice: nothing was sent\n  name: columns 2 and 4 are both "name": keep one.\n`,
      ]);
    }
    await expectUntouched();
  });
});
