/**
 * A contact field named like one of the export's own columns (`status`, `name`, `id`) cannot be a
 * column of the export: an import reads that column as the contact's own. `contacts export` says
 * so on stderr, naming each such field, where it dropped them unsaid; the file it writes imports
 * back into wsm serve leaving every contact as it was, the field's values included. wsm runs
 * in-process (in-process.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveBackend, backendFile, type Backend } from './backends.js';
import { wsmInProcess as wsm } from './in-process.js';

describe('contact fields named like the export columns, on wsm serve', () => {
  let backend: Backend;
  const run = (args: string[], input?: string) => wsm(backend.env, args, input);

  beforeAll(async () => {
    backend = await serveBackend();
    for (const name of ['status', 'city']) expect((await run(['fields', 'create', name])).code).toBe(0);
    const made = await run([
      'contacts',
      'create',
      '--number',
      '14155550901',
      '--name',
      'Ann',
      '--field',
      'status=gold',
      '--field',
      'city=Oslo',
    ]);
    expect(made.code, made.stderr).toBe(0);
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('the export names the field it leaves out, and imports back leaving the contact as it was', async () => {
    const before = JSON.parse((await run(['contacts', 'list', '-o', 'json'])).stdout);
    const exported = await run(['contacts', 'export']);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toBe(
      'warning: contact field "status" is left out of the export: its name is the contact\'s own column, which an import reads as the contact\'s; rename the field to export its values\n',
    );
    expect(exported.stdout.split('\n')[0]).toBe('id,number,name,email,gender,status,contact_groups,created_at,updated_at,city');
    const file = backendFile(backend, 'exported.csv', exported.stdout);
    const imported = await run(['contacts', 'import', file, '--wait', '--yes']);
    expect(imported.code, imported.stderr).toBe(0);
    const after = JSON.parse((await run(['contacts', 'list', '-o', 'json'])).stdout);
    const values = (contacts: Array<Record<string, unknown>>) => contacts.map(({ updated_at, ...rest }) => rest);
    expect(values(after)).toEqual(values(before));
    expect(after[0].fields).toMatchObject({ status: 'gold', city: 'Oslo' });
  });
});
