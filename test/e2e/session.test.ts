/**
 * A full operator session: the real `wsm` binary against a real `wsm serve`
 * (temp database, temp config directory), logged in by the saved `local` profile.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, serve, wsm, type Served } from './processes.js';

let server: Served;
const run = (...args: string[]) => wsm(server.env, args);
const json = async (...args: string[]) => {
  const res = await run(...args, '-o', 'json');
  expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
  return JSON.parse(res.stdout);
};

beforeAll(async () => {
  server = await serve(['--approval-delay', '0']);
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
  cleanup(server.dir);
});

describe('operator session with the real binary', () => {
  it('is logged in by the profile that wsm serve saved', async () => {
    const status = await run('auth', 'status');
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('local');
    expect(status.stdout).toContain(server.url);
  });

  it('creates, lists, gets, updates and deletes contacts', async () => {
    const made = await json('contacts', 'create', '--number', '+1 415 555 0100', '--name', 'Ann', '--email', 'ann@example.com');
    expect(made).toMatchObject({ number: '14155550100', name: 'Ann', email: 'ann@example.com', status: true });
    const listed = await json('contacts', 'list', '--search', 'ann');
    expect(listed.map((c: { id: number }) => c.id)).toEqual([made.id]);
    const updated = await json('contacts', 'update', String(made.id), '--name', 'Annie');
    expect(updated.name).toBe('Annie');
    expect((await json('contacts', 'get', String(made.id))).name).toBe('Annie');

    const duplicate = await run('contacts', 'create', '--number', '14155550100');
    expect(duplicate.code).toBe(5);
    expect(duplicate.stderr).toContain('number: The number has already been taken.');
    const bad = await run('contacts', 'create', '--number', '12');
    expect(bad.code).toBe(2);

    const unconfirmed = await run('contacts', 'delete', String(made.id));
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toMatch(/--yes/);
    expect((await run('contacts', 'delete', String(made.id), '--yes')).code).toBe(0);
    const gone = await run('contacts', 'get', String(made.id));
    expect(gone.code).toBe(4);
  });

  it('imports a CSV with a bad row, waits, and reports it', async () => {
    const file = join(server.dir, 'people.csv');
    writeFileSync(file, 'number,name,email\n5550001001,Bea,bea@example.com\nnot-a-number,Bad,\n5550001002,Cid,cid@example.com\n');
    const res = await run('contacts', 'import', file, '--name', 'people', '--wait', '-o', 'json');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/line 3/i);
    const record = JSON.parse(res.stdout);
    expect(record).toMatchObject({ status: 'completed', created_count: 2, failed_count: 1 });
    expect(record.errors).toEqual([{ row: 3, message: expect.any(String) }]);
  });

  it('manages labels, roles and users', async () => {
    const label = await json('labels', 'create', 'VIP', '--color', '#ff0000');
    expect(label).toMatchObject({ name: 'VIP', color: '#ff0000' });
    expect((await run('labels', 'list', '-q')).stdout.trim()).toBe(String(label.id));
    const role = await json('roles', 'create', 'Agent');
    const user = await json('users', 'create', '--name', 'Dee', '--email', 'dee@example.com', '--password', 'longpassword', '--role', String(role.id));
    expect(user).toMatchObject({ name: 'Dee', role: { id: role.id, name: 'Agent' } });
    const users = await json('users', 'list');
    expect(users.map((u: { email: string }) => u.email)).toContain('dee@example.com');
  });

  it('creates templates, syncs them to APPROVED, and exits 7 on a rejection', async () => {
    const good = await json('templates', 'create', '--name', 'order_update', '--language', 'en', '--category', 'UTILITY', '--body', 'Your order {{1}} is on its way.', '--variable', 'A-1');
    expect(good.status).toBe('PENDING');
    const synced = await run('templates', 'sync', '--wait');
    expect(synced.code, synced.stderr).toBe(0);
    expect((await json('templates', 'get', String(good.id))).status).toBe('APPROVED');

    const nothing = await run('templates', 'sync');
    expect(nothing.code).toBe(0);
    expect(nothing.stdout + nothing.stderr).toMatch(/nothing|no pending/i);

    await json('templates', 'create', '--name', 'promo_reject', '--language', 'en', '--category', 'MARKETING', '--body', 'Big sale today.');
    const rejected = await run('templates', 'sync', '--wait', '--fail-on-rejected');
    expect(rejected.code).toBe(7);
    expect(rejected.stderr).toMatch(/promo_reject.*PROMOTIONAL/);
  });

  it('exports every contact as CSV', async () => {
    const res = await run('contacts', 'export');
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^id,number,name,email,gender,status,contact_groups,created_at,updated_at/);
    expect(lines.slice(1).map((l) => l.split(',')[1]).sort()).toEqual(['5550001001', '5550001002']);
  });
});
