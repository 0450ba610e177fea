/**
 * `wsm serve` as a real process, where the safety of the server depends on the process itself:
 * one server per database file, a file it cannot use, a database deleted under it, a shutdown that a stalled client
 * cannot hold up, the warning for a server reachable from the network. Requires `npm run build`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { cleanup, localProfile, serve, testEnv, wsm, type Served } from './processes.js';
import { openDatabase } from '../../src/server/db.js';
import { seed } from '../../src/server/seed.js';
import { migrations } from '../../src/server/migrations/index.js';
import { waitFor } from '../wait-for.js';

const started: Served[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) if (server.process.exitCode === null && server.process.signalCode === null) await server.kill();
  for (const dir of dirs.splice(0)) cleanup(dir);
});

async function start(args: string[] = [], dir?: string): Promise<Served> {
  const server = await serve(args, dir);
  started.push(server);
  if (!dir) dirs.push(server.dir);
  return server;
}

// One server for the tests that leave it as they found it (a label more): started by the first
// that asks, stopped cleanly after the last. Tests that stop, kill, break or log it out start their own.
let shared: Promise<Served> | undefined;
const sharedServer = () => (shared ??= serve());
afterAll(async () => {
  if (!shared) return;
  const server = await shared;
  expect(await server.stop()).toBe(0);
  cleanup(server.dir);
});

async function createLabel(server: Served, name: string): Promise<{ status: number; body: any }> {
  const { token, workspace } = localProfile(server);
  const res = await fetch(`${server.url}/workspaces/${workspace}/labels`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return { status: res.status, body: await res.json() };
}

describe('one server per database file', () => {
  it('refuses a second `wsm serve` on the same file with one line and exit 1; the first keeps serving', async () => {
    const first = await sharedServer();
    const dbFile = join(first.dir, 'wsm.db');
    // Another config directory, so the refusal cannot come from the profile.
    const other = mkdtempSync(join(tmpdir(), 'wsm-e2e-'));
    dirs.push(other);
    const second = await wsm(testEnv(other), ['serve', '--port', '0', '--db', dbFile]);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe(`error: another wsm serve is using ${dbFile}: stop it first, or pass another --db\n`);
    expect((await createLabel(first, 'Still here')).status).toBe(201);
  });

  it('frees the file when the server stops, and when it is killed', async () => {
    const first = await start();
    expect(await first.stop()).toBe(0);
    const second = await start([], first.dir);
    await second.kill(); // SIGKILL: no clean-up runs, the operating system drops the lock
    const third = await start([], first.dir);
    expect((await createLabel(third, 'After a kill')).status).toBe(201);
  });
});

describe('a database file wsm serve cannot use', () => {
  it('refuses each with one line naming the file, what was found and what to do, exit 1, and leaves the file as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wsm-e2e-'));
    dirs.push(dir);
    const at = (name: string) => join(dir, name);
    // A real wsm database, then copies of it damaged the ways disks and people damage files.
    const good = openDatabase(at('good.db'));
    await seed(good);
    good.pragma('wal_checkpoint(TRUNCATE)');
    const pageSize = good.pragma('page_size', { simple: true }) as number;
    const usersPage = good.prepare<[], number>("SELECT pageno FROM dbstat WHERE name = 'users'").pluck().get()!;
    good.close();
    const bytes = readFileSync(at('good.db'));
    const damaged = Buffer.from(bytes);
    damaged.fill(0xa5, (usersPage - 1) * pageSize, usersPage * pageSize);
    writeFileSync(at('damaged.db'), damaged);
    writeFileSync(at('contacts.db'), 'number,name\n5550001,Ann\n');
    const foreign = new Database(at('foreign.db'));
    foreign.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); CREATE TABLE tags (name TEXT)');
    foreign.close();
    const newer = new Database(at('newer.db'));
    newer.exec('CREATE TABLE users (id INTEGER PRIMARY KEY)');
    newer.pragma('user_version = 99');
    newer.close();
    mkdirSync(at('folder.db'));

    const restore = 'restore it from a backup, or pass --db another path to start a new database';
    const cases: Array<[string, string]> = [
      ['damaged.db', `is a damaged SQLite database (SQLite reports: database disk image is malformed): ${restore}`],
      ['contacts.db', `is not a SQLite database (it starts with "number,name.5550001,Ann."): ${restore}`],
      [
        'foreign.db',
        'is a SQLite database of another application (tables notes, tags), left as it is: pass --db the path of a wsm database, or of a new file',
      ],
      [
        'newer.db',
        `was written by a newer wsm (schema version 99; this wsm knows up to ${migrations.at(-1)!.version}): upgrade wsm, or pass --db another path`,
      ],
      ['folder.db', 'is a directory: pass --db the path of a database file'],
    ];
    const fingerprint = (name: string) => (statSync(at(name)).isDirectory() ? 'a directory' : readFileSync(at(name)).toString('base64'));
    const before = cases.map(([name]) => fingerprint(name));
    const results = await Promise.all(cases.map(([name]) => wsm(testEnv(dir), ['serve', '--port', '0', '--db', at(name)])));
    expect(results.map((res, i) => ({ file: cases[i][0], code: res.code, stdout: res.stdout, stderr: res.stderr }))).toEqual(
      cases.map(([name, found]) => ({ file: name, code: 1, stdout: '', stderr: `error: ${at(name)} ${found}\n` })),
    );
    expect(cases.map(([name]) => fingerprint(name))).toEqual(before);
  });
});

describe('the database file deleted while serving', () => {
  it('answers writes 503 naming the cause instead of 201, and says so on stderr', async () => {
    const server = await start();
    expect((await createLabel(server, 'Kept')).status).toBe(201);
    const dbFile = join(server.dir, 'wsm.db');
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbFile}${suffix}`, { force: true });
    const refused = await createLabel(server, 'Lost');
    expect(refused).toEqual({
      status: 503,
      body: {
        message:
          'The database file was deleted or replaced while the server was running: nothing can be saved until the server is restarted.',
        status: 503,
      },
    });
    // stderr is another pipe than the answer's socket: its line may be read a moment later.
    const warning = `warning: the database file ${dbFile} was deleted or replaced: writes are refused until the server is restarted\n`;
    await waitFor(() => server.stderr().includes(warning));
  });
});

describe('wsm auth logout against wsm serve', () => {
  it('only forgets the token: another profile holding the admin token keeps working; auth token prints it', async () => {
    const server = await start();
    const { token } = localProfile(server);
    const printed = await wsm(server.env, ['auth', 'token', '--profile', 'local']);
    expect(printed).toEqual({ code: 0, stdout: `${token}\n`, stderr: '' });
    expect((await wsm(server.env, ['auth', 'login', '--profile', 'copy', '--base-url', server.url, '--with-token'], token)).code).toBe(0);
    const res = await wsm(server.env, ['auth', 'logout', '--profile', 'copy']);
    expect(res).toEqual({
      code: 0,
      stdout: '',
      stderr:
        '✓ logged out: removed the token from profile "copy"; it still works on the server (`wsm auth logout --revoke --profile copy` revokes it there)\n',
    });
    expect((await wsm(server.env, ['labels', 'list', '--profile', 'local'])).code).toBe(0);
  });

  it('--revoke revokes the token on the server: the same token is refused afterwards, and the other profiles holding it are named', async () => {
    const server = await start();
    const { token, workspace } = localProfile(server);
    expect(
      (await wsmInProcess(server.env, ['auth', 'login', '--profile', 'copy', '--base-url', server.url, '--with-token'], token)).code,
    ).toBe(0);
    const res = await wsmInProcess(server.env, ['auth', 'logout', '--profile', 'local', '--revoke']);
    expect({ code: res.code, stdout: res.stdout, stderr: res.stderr }).toEqual({
      code: 0,
      stdout: '',
      stderr:
        '✓ logged out: revoked the token on the server and removed it from profile "local"\n' +
        'warning: profile "copy" held the same token: it will be refused until logged in again (`wsm auth login --profile copy`)\n',
    });
    const after = await fetch(`${server.url}/workspaces/${workspace}`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
    expect(localProfile(server).token).toBeUndefined();
  });
});

describe('another process holding the write lock', () => {
  it('a write answers 503 with Retry-After instead of freezing the server; it goes through once the lock is gone', async () => {
    const server = await sharedServer();
    const other = new Database(join(server.dir, 'wsm.db'));
    try {
      other.exec('BEGIN IMMEDIATE');
      const refused = await createLabel(server, 'Blocked');
      expect(refused).toEqual({ status: 503, body: { message: 'The database is busy: try again in a moment.', status: 503 } });
      other.exec('ROLLBACK');
      expect((await createLabel(server, 'Blocked')).status).toBe(201);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
  });
});

describe('shutdown', () => {
  // Five start-ups in a row: on a shared, loaded machine that takes a while.
  it('SIGTERM sent the moment "Listening on" is read stops the server cleanly (exit 0), every time', async () => {
    for (let i = 0; i < 5; i++) {
      const server = await start();
      expect(await server.stop()).toBe(0);
    }
  });

  it('SIGTERM finishes (exit 0) even while a client stalls mid-body, within the shutdown deadline', async () => {
    const server = await start();
    const { token, workspace } = localProfile(server);
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `POST /api/v3/workspaces/${workspace}/labels HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"half',
    );
    await new Promise((r) => setTimeout(r, 300));
    // Ends at the 8 s shutdown deadline; without it, this waited for ever.
    expect(await server.stop()).toBe(0);
    await closed;
  });
});

describe('what wsm serve leaves on disk and says', () => {
  it('creates the database, its WAL and shared memory, its lock and the uploads folder owner-only', async () => {
    const server = await sharedServer();
    expect((await createLabel(server, 'Written')).status).toBe(201);
    const modes = Object.fromEntries(
      ['wsm.db', 'wsm.db-wal', 'wsm.db-shm', 'wsm.db.lock', 'wsm.db.uploads'].map((name) => [
        name,
        (statSync(join(server.dir, name)).mode & 0o777).toString(8),
      ]),
    );
    expect(modes).toEqual({ 'wsm.db': '600', 'wsm.db-wal': '600', 'wsm.db-shm': '600', 'wsm.db.lock': '600', 'wsm.db.uploads': '700' });
  });

  it('warns on stderr when --host is not a loopback address', async () => {
    // 203.0.113.1 (TEST-NET-3) is no address of this machine: the warning comes, then the listen
    // fails, so the test never opens a port to the network.
    const dir = mkdtempSync(join(tmpdir(), 'wsm-e2e-'));
    dirs.push(dir);
    const res = await wsm(testEnv(dir), ['serve', '--host', '203.0.113.1', '--port', '0', '--db', join(dir, 'wsm.db')]);
    expect(res.stderr.split('\n')[0]).toBe(
      'warning: listening on 203.0.113.1: the API is reachable from the network, by anyone who can reach this port; use --host 127.0.0.1 to keep it on this machine',
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: .*203\.0\.113\.1/m);
    // On loopback, nothing of the kind.
    const local = await sharedServer();
    expect(local.stderr()).not.toContain('reachable from the network');
  });
});
