/**
 * An `update|delete --from` file whose ids are no contact ids is refused before anything is sent
 * (exit 2), in a few lines however large it is: each value quoted at most 40 characters long, and
 * the first 20 places named with how many there are. Before, every bad line had its own line of
 * stderr and each value was quoted whole (a file of one 50 MB line printed 50 MB). The built binary
 * runs the delete; wsm runs in-process (in-process.ts) otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

describe('ids that are no contact ids, on wsm serve', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  let id: number;
  const stillThere = async () => {
    const listed = await run('contacts', 'list', '--all', '-q');
    expect(listed.stdout).toBe(`${id}\n`);
  };

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
    const made = await run('contacts', 'create', '--number', '14155550501', '--name', 'Ann', '-o', 'json');
    expect(made.code, made.stderr).toBe(0);
    id = (JSON.parse(made.stdout) as { id: number }).id;
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('a delete list of 25 bad lines names the first 20 and says how many', async () => {
    const file = backendFile(backend, 'ids.txt', `${id}\n${'x1\n'.repeat(25)}`);
    const refused = await wsm(backend.env, ['contacts', 'delete', '--from', file, '--yes']);
    const lines = Array.from({ length: 20 }, (_, at) => `  line ${at + 2}: "x1" is not a contact id (a positive whole number).\n`);
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([
      2,
      '',
      `error: ${file} has lines that are not contact ids (25 lines; the first 20 below): nothing was sent\n${lines.join('')}`,
    ]);
    await stillThere();
  });

  it('an id of 5,000 digits is quoted by its first 40', async () => {
    const digits = '9'.repeat(5000);
    const file = backendFile(backend, 'long.csv', `id,name\n${digits},Bob\n`);
    const refused = await run('contacts', 'update', '--from', file, '--dry-run');
    expect([refused.code, refused.stderr]).toEqual([
      2,
      `error: ${file} has rows without a contact id: nothing was sent\n` +
        `  line 2 id: "${'9'.repeat(40)}…" (5,000 characters) is not a contact id (at most 9007199254740991).\n`,
    ]);
    await stillThere();
  });
});
