/**
 * A full operator session against each backend of backends.ts (a real `wsm serve` on a temp
 * database, the same with --api-only, and the stand-in for the hosted service). Workflows of the
 * published API work on all three; those that need an extension work on `wsm serve` and, elsewhere,
 * end in one line saying the server does not support them. The first run of each command is the
 * built binary's, the rest run in-process (in-process.ts binaryFirstRunner).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, NOT_SUPPORTED, type Backend } from './backends.js';
import { binaryFirstRunner } from './in-process.js';
import { createTemplateArgs, createUserArgs } from './processes.js';

const wsm = binaryFirstRunner();

describe.each(BACKENDS)('operator session against $name', (kind) => {
  let backend: Backend;
  const run = (...args: string[]) => wsm(backend.env, args);
  const json = async (...args: string[]) => {
    const res = await run(...args, '-o', 'json');
    expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
    return JSON.parse(res.stdout);
  };
  /** On a backend without the extension: exit 1 and one line saying so. */
  const needsExtension = async (...args: string[]) => {
    const res = await run(...args);
    expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(1);
    expect(res.stderr).toMatch(NOT_SUPPORTED);
  };

  beforeAll(async () => {
    backend = await kind.start();
  });
  afterAll(async () => {
    if (backend) expect(await backend.stop()).toBe(0);
  });

  it('checks the token and shows the connection', async () => {
    const status = await run('auth', 'status');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(backend.url);
  });

  it('creates, lists, updates and deletes contacts', async () => {
    const made = await json('contacts', 'create', '--number', '14155550100', '--name', 'Ann', '--email', 'ann@example.com');
    expect(made).toMatchObject({ number: '14155550100', name: 'Ann', email: 'ann@example.com', status: true });
    const listed = await json('contacts', 'list', '--search', 'ann');
    expect(listed.map((c: { id: number }) => c.id)).toEqual([made.id]);
    const updated = await json('contacts', 'update', String(made.id), '--name', 'Annie');
    expect(updated.name).toBe('Annie');
    if (backend.extensions) expect((await json('contacts', 'get', String(made.id))).name).toBe('Annie');
    else await needsExtension('contacts', 'get', String(made.id));

    const duplicate = await run('contacts', 'create', '--number', '14155550100');
    expect(duplicate.code).toBe(5);
    expect(duplicate.stderr).toContain('number: The number has already been taken.');
    const bad = await run('contacts', 'create', '--number', '12');
    expect(bad.code).toBe(2);

    const unconfirmed = await run('contacts', 'delete', String(made.id));
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toMatch(/--yes/);
    expect((await run('contacts', 'delete', String(made.id), '--yes')).code).toBe(0);
    expect(await json('contacts', 'list', '--search', 'ann')).toEqual([]);
  });

  it('imports a CSV with a bad row and waits for it', async () => {
    const file = join(backend.dir, 'people.csv');
    writeFileSync(file, 'number,name,email\n5550001001,Bea,bea@example.com\nnot-a-number,Bad,\n5550001002,Cid,cid@example.com\n');
    const res = await run('contacts', 'import', file, '--name', 'people', '--wait', '--interval', '0.2s', '-o', 'json');
    // Done, but a row failed: exit 8, whether the server counts it (wsm serve) or only skips it (the published API).
    expect(res.code, res.stderr).toBe(8);
    expect(res.stderr).toMatch(/row 3/i);
    const record = JSON.parse(res.stdout);
    expect(record).toMatchObject({ name: 'people', status: 'completed' });
    // The published API shows no import counters: only wsm serve reports them.
    if (kind.name.startsWith('wsm serve')) {
      expect(record).toMatchObject({ created_count: 2, failed_count: 1 });
      expect(record.errors).toEqual([{ row: 3, line: 3, message: expect.any(String), failed: true }]);
    }
    expect((await json('contacts', 'list', '--all')).map((c: { name: string }) => c.name).sort()).toEqual(['Bea', 'Cid']);
  });

  it('manages labels, roles and users', async () => {
    const label = await json('labels', 'create', 'VIP', '--color', '#ff0000');
    expect(label).toMatchObject({ name: 'VIP', color: '#ff0000' });
    expect(await json('labels', 'update', String(label.id), '--color', '#00ff00')).toMatchObject({ name: 'VIP', color: '#00ff00' });
    expect(await json('labels', 'get', String(label.id))).toMatchObject({ name: 'VIP', color: '#00ff00' });
    if (backend.extensions) expect((await run('labels', 'list', '-q')).stdout.trim()).toBe(String(label.id));
    else await needsExtension('labels', 'list');

    const role = await json('roles', 'create', 'Agent');
    expect((await json('roles', 'list')).map((r: { name: string }) => r.name)).toContain('Agent');
    if (backend.extensions) {
      const user = await json(...createUserArgs(String(role.id), 'longpassword'));
      expect(user).toMatchObject({ name: 'Dee', role: { id: role.id, name: 'Agent' } });
    } else {
      await needsExtension(...createUserArgs(String(role.id), 'longpassword'));
    }
    const users = await json('users', 'list');
    const someone = users[users.length - 1];
    expect(await json('users', 'update', String(someone.id), '--timezone', 'Europe/Lisbon')).toMatchObject({
      id: someone.id,
      timezone: 'Europe/Lisbon',
    });
  });

  it('creates templates, syncs them to APPROVED, and exits 7 on a rejection', async () => {
    const good = await json(...createTemplateArgs('order_update'));
    expect(good.status).toBe('PENDING');
    const synced = await run('templates', 'sync', '--wait', '--interval', '0.2s');
    expect(synced.code, synced.stderr).toBe(0);
    expect((await json('templates', 'get', String(good.id))).status).toBe('APPROVED');

    const nothing = await run('templates', 'sync');
    expect(nothing.code).toBe(0);
    expect(nothing.stdout + nothing.stderr).toMatch(/nothing|no pending/i);

    const bad = await json(
      'templates',
      'create',
      '--name',
      'promo_reject',
      '--language',
      'en',
      '--category',
      'MARKETING',
      '--body',
      'Big sale today.',
    );
    const rejected = await run('templates', 'sync', '--wait', '--interval', '0.2s', '--fail-on-rejected', '--template', String(bad.id));
    expect(rejected.code).toBe(7);
    expect(rejected.stderr).toMatch(/promo_reject/);
    if (backend.extensions) {
      expect(rejected.stderr).toMatch(/promo_reject.*PROMOTIONAL/);
      // Where templates can be listed, the templates PENDING before the sync are tracked by themselves.
      await json(
        'templates',
        'create',
        '--name',
        'second_reject',
        '--language',
        'en',
        '--category',
        'MARKETING',
        '--body',
        'Another sale.',
      );
      expect((await run('templates', 'sync', '--wait', '--fail-on-rejected')).code).toBe(7);
    } else {
      // Without a template list, --fail-on-rejected needs to be told which templates to check.
      const untold = await run('templates', 'sync', '--wait', '--fail-on-rejected');
      expect(untold.code).toBe(2);
      expect(untold.stderr).toMatch(/^error: this server cannot list templates.*--template <id>.*\n$/);
    }
  });

  it('exports every contact as CSV', async () => {
    const res = await run('contacts', 'export');
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^id,number,name,email,gender,status,contact_groups,created_at,updated_at/);
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[1])
        .sort(),
    ).toEqual(['5550001001', '5550001002']);
  });
});
