/**
 * `contacts update --from --dry-run` counts what is invalid as its run counts what failed: by
 * contact, the rows naming one contact being one, and says so in that word (a file of 3 rows
 * naming 2 contacts is "1 of the 2 contacts", never "1 of 2 rows"). The real binary on wsm serve.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { wsm } from './processes.js';

describe('update --from: the dry run and the run count failures by contact', () => {
  let backend: Backend;
  let id: number;
  const run = (...args: string[]) => wsm(backend.env, args);

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
    const made = await run('contacts', 'create', '--number', '14155550177', '--name', 'Ann', '-o', 'json');
    expect(made.code, made.stderr).toBe(0);
    id = JSON.parse(made.stdout).id;
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('two rows of one contact and an id the workspace lacks: 1 of the 2 contacts, in the plan and the run', async () => {
    const path = backendFile(backend, 'twice.csv', `id,name\n${id},Ann B\n${id},Ann C\n999999,Ghost\n`);
    const dry = await run('contacts', 'update', '--from', path, '--dry-run');
    expect(dry.code, dry.stderr).toBe(8);
    expect(dry.stderr.split('\n').slice(-2)).toEqual([`error: 1 of the 2 contacts in ${path} is invalid`, '']);
    const real = await run('contacts', 'update', '--from', path, '--yes');
    expect(real.code, real.stderr).toBe(8);
    expect(real.stderr).toContain(`✓ updated 1 of the 2 contacts read from ${path}: 0 unchanged, 0 skipped, 1 failed\n`);
  });
});
