/**
 * What `wsm undo` trusts of an import since the journal stopped reading the workspace after it: the
 * values each contact's rows predict. Against `wsm serve` and the stand-in for
 * the hosted service: a contact edited since the import is flagged and left (`--force` takes it
 * back too), a cell the run held is not in the prediction, groups and fields are compared only
 * where the server's contacts show them, and, on `wsm serve`, whose errors say
 * which rows failed, a contact named by a refused row is recorded as not changed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend, serveBackend } from './backends.js';
import { cleanup } from './processes.js';
import { binaryFirstRunner } from './in-process.js';
import { loginWithRole } from './role-login.js';

/** The first run of each command goes to the built binary, every later one in-process (in-process.ts). */
const wsm = binaryFirstRunner();

type Listed = { id: number; number: string; name: string; created_at: string; updated_at: string } & Record<string, unknown>;

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`an import's predicted outcome, undone, on ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsm(backend.env, args);
    const listed = async () => JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Listed[];
    /** Every contact's values but what the server makes itself (id, times), by number. */
    const workspace = async () =>
      (await listed())
        .map(({ id: _id, created_at: _created, updated_at: _updated, ...values }) => values)
        .sort((a, b) => String(a.number).localeCompare(String(b.number)));

    beforeAll(async () => {
      backend = await kind.start();
      const seed = backendFile(backend, 'seed.csv', 'number,name\n14155550301,Old Ann\n14155550302,Old Ben\n');
      expect((await wsm({ ...backend.env, WSM_HISTORY: 'off' }, ['contacts', 'import', seed, '--wait', '-q'])).code).toBe(0);
    });
    afterAll(async () => {
      if (backend) await backend.stop();
    });

    it('a contact edited since the import is flagged and kept, the rest undone; --force takes it back too', async () => {
      const before = await workspace();
      const file = backendFile(backend, 'edited.csv', 'number,name\n14155550301,New Ann\n14155550801,Made One\n14155550802,Made Two\n');
      expect((await run('contacts', 'import', file, '--wait')).code).toBe(0);
      const change = (JSON.parse((await run('history', '-o', 'json')).stdout) as Array<{ id: string }>)[0].id;
      const made = (await listed()).find((contact) => contact.number === '14155550802')!;
      expect((await run('contacts', 'update', String(made.id), '--name', 'Edited Since')).code).toBe(0);
      const plan = await run('undo', change, '--dry-run');
      expect(plan.code).toBe(0);
      expect(plan.stdout).toContain(`! record 3: skipped contact ${made.id} (14155550802)\n`);
      expect(plan.stdout).toContain(
        'note: changed since: name is "Edited Since" now, not "Made Two" as the change made it; kept (--force deletes it)',
      );
      const forced = await run('undo', change, '--yes', '--force');
      expect(forced.stderr).toMatch(/✓ undid change \S+: 1 set back, 2 deleted, 0 created again, 0 failed\n$/);
      expect(await workspace()).toEqual(before);
    });

    it("groups and a custom field sent: undo deletes what the import made (the group too, where the server made it), whether or not the server's contacts show them", async () => {
      expect((await run('fields', 'create', 'city')).code).toBe(0);
      const before = await workspace();
      const file = backendFile(backend, 'grouped.csv', 'number,name,contact_groups,city\n14155550811,Grouped,"[""VIP""]",Oslo\n');
      const imported = await run('contacts', 'import', file, '--wait');
      expect(imported.code, imported.stderr).toBe(0);
      const undone = await run('undo', 'last', '--yes');
      // wsm serve's import made the group VIP; the stand-in's, reading the published format, made none.
      const deleted = backend.extensions ? 2 : 1;
      expect(undone.stderr).toMatch(new RegExp(`✓ undid change \\S+: 0 set back, ${deleted} deleted, 0 created again, 0 failed\n$`));
      expect(await workspace()).toEqual(before);
      expect((await run('groups', 'list', '-o', 'json')).stdout).not.toContain('VIP');
    });

    it('a cell the run held (scientific notation) is not in the prediction: the contact is not flagged, and undo sets back only what was sent', async () => {
      const before = await workspace();
      const file = backendFile(backend, 'held.csv', 'number,name,email\n14155550302,3.51E+12,ben@example.com\n14155550803,Made Three,\n');
      const imported = await run('contacts', 'import', file, '--wait');
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toContain('name: "Old Ben" kept, not "3.51E+12"');
      const shown = (await run('history', 'show', 'last')).stdout;
      expect(shown).toMatch(/~ record 1: update contact \d+ \(14155550302\)\n {4}email: null -> "ben@example\.com"\n\+ record 2/);
      const undone = await run('undo', 'last', '--yes');
      expect(undone.stderr).toMatch(/✓ undid change \S+: 1 set back, 1 deleted, 0 created again, 0 failed\n$/);
      expect(await workspace()).toEqual(before);
    });
  });
}

describe('an import whose rows the server refused, on wsm serve (its errors name them)', () => {
  let server: Backend;
  let owner: NodeJS.ProcessEnv;
  let importer: NodeJS.ProcessEnv;

  beforeAll(async () => {
    server = await serveBackend();
    owner = { ...server.env, WSM_PROFILE: 'local' };
    // Dee may import contacts, but not create contact groups: a row naming a group that does not exist fails on the server.
    importer = await loginWithRole(server, 'Importer', [
      'contacts.view',
      'contacts.create',
      'contacts.update',
      'contacts.delete',
      'contact_imports.create',
      'contact_imports.view',
      'contact_groups.view',
    ]);
  });
  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
    if (server) cleanup(server.dir);
  });

  it('the refused row is recorded as not changed: the change says so, and undo deletes only what the import made', async () => {
    const file = join(server.dir, 'refused.csv');
    writeFileSync(file, 'number,name,contact_groups\n14155550901,Made Here,\n14155550902,Never Made,"[""Nowhere""]"\n');
    const imported = await wsm(importer, ['contacts', 'import', file, '--wait', '--max-failures', '1']);
    expect(imported.code, imported.stderr).toBe(0);
    const shown = (await wsm(importer, ['history', 'show', 'last'])).stdout;
    expect(shown).toContain('note: the server says rows naming 1 contact failed: it is kept as not changed, and undo leaves it as it is\n');
    expect(shown).not.toContain('14155550902');
    expect(shown).toContain('Plan: 1 to create, 0 to update, 0 unchanged, 0 invalid.');
    const undone = await wsm(importer, ['undo', 'last', '--yes']);
    expect(undone.stderr).toMatch(/✓ undid change \S+: 0 set back, 1 deleted, 0 created again, 0 failed\n$/);
    expect(JSON.parse((await wsm(owner, ['contacts', 'list', '--all', '-o', 'json'])).stdout)).toEqual([]);
  });
});
