/**
 * Secrets, with the real binaries: the config file is 0600 and tightened back when found looser;
 * the token is masked by `wsm auth status`, absent from `-v` traces, error messages and the
 * server's request log; passwords are stored as scrypt and tokens as SHA-256 only (the raw
 * strings are nowhere in the database files); a token given on the command line draws a warning.
 * Requires `npm run build`.
 */
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, serve, wsm, type Served } from '../e2e/processes.js';

let server: Served;
let stdoutAfterStart = '';
let token: string;
let workspace: string;
const PASSWORD = 'Correct-Horse-Battery-9';
const SECOND_PASSWORD = 'Another-Secret-Phrase-7';

const configFile = () => join(server.dir, 'config', 'config.json');
const modeOf = (path: string) => statSync(path).mode & 0o777;
const api = async (method: string, path: string, body?: unknown, bearer = token) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // Response bodies are read field by field in the assertions below.
  return { status: res.status, json: (await res.json()) as { data: Record<string, any> } & Record<string, any> };
};
/** The database as it is on disk right now: main file, WAL and shared memory. */
const dbBytes = () =>
  Buffer.concat(
    ['wsm.db', 'wsm.db-wal', 'wsm.db-shm']
      .map((f) => join(server.dir, f))
      .filter(existsSync)
      .map((f) => readFileSync(f)),
  );

beforeAll(async () => {
  // --log: every request is logged to stderr, which must not carry the bearer token either.
  server = await serve(['--approval-delay', '0', '--log']);
  server.process.stdout!.on('data', (chunk) => (stdoutAfterStart += chunk));
  const local = JSON.parse(readFileSync(configFile(), 'utf8')).profiles.local;
  token = local.token;
  workspace = local.workspace;
});
afterAll(async () => {
  if (server && server.process.exitCode === null) await server?.kill();
  if (server) cleanup(server.dir);
});

describe('the config file', () => {
  it('is created 0600 in a 0700 directory', () => {
    expect(modeOf(configFile())).toBe(0o600);
    expect(modeOf(join(server.dir, 'config'))).toBe(0o700);
  });

  for (const loose of [0o644, 0o666]) {
    it(`is tightened back to 0600 by any command when found ${loose.toString(8)}`, async () => {
      chmodSync(configFile(), loose);
      const res = await wsm(server.env, ['profile', 'list']);
      expect(res.code).toBe(0);
      expect(modeOf(configFile())).toBe(0o600);
    });
  }
});

describe('the token in the CLI', () => {
  it('is masked by `wsm auth status`, in a table and in JSON', async () => {
    const [table, json] = await Promise.all([wsm(server.env, ['auth', 'status']), wsm(server.env, ['auth', 'status', '-o', 'json'])]);
    expect(table.code).toBe(0);
    expect(table.stdout).not.toContain(token);
    expect(table.stdout).toContain(`${token.slice(0, 6)}…${token.slice(-2)}`);
    expect(json.code).toBe(0);
    expect(json.stdout + json.stderr).not.toContain(token);
  });

  it('is absent from -v traces of a successful call, which redact the header', async () => {
    const res = await wsm(server.env, ['contacts', 'list', '-v']);
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/^> GET /m);
    expect(res.stderr).toMatch(/authorization: Bearer \*\*\*/);
    expect(res.stdout + res.stderr).not.toContain(token);
  });

  it('is absent from -v traces and messages of failures: 404, 422, and 401 with a wrong token from the flag or the environment', async () => {
    const wrong = 'wsm_this_token_is_wrong_but_secret_0123456789';
    expect((await api('POST', `/workspaces/${workspace}/labels`, { name: 'Taken' })).status).toBe(201);
    const runs = [
      { args: ['contacts', 'get', '999999', '-v'], env: server.env, code: 4, secret: token },
      { args: ['labels', 'create', 'Taken', '-v', '-o', 'json'], env: server.env, code: 5, secret: token },
      { args: ['api', 'POST', '/workspaces/{workspace}/labels', '-f', 'color=bad', '-v'], env: server.env, code: 5, secret: token },
      { args: ['contacts', 'list', '-v', '--token', wrong], env: server.env, code: 3, secret: wrong },
      { args: ['contacts', 'list', '-v', '-o', 'json'], env: { ...server.env, WSM_TOKEN: wrong }, code: 3, secret: wrong },
    ];
    const results = await Promise.all(runs.map((run) => wsm(run.env, run.args)));
    for (const [index, run] of runs.entries()) {
      const res = results[index];
      expect(`${run.args.join(' ')} -> ${res.code}`).toBe(`${run.args.join(' ')} -> ${run.code}`);
      expect(res.stderr).toMatch(/^error: /m);
      expect(res.stdout + res.stderr, run.args.join(' ')).not.toContain(run.secret);
      expect(res.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('keeps a password out of the -v trace of `wsm users create`', async () => {
    const role = await api('POST', `/workspaces/${workspace}/roles`, { name: 'Trace role' });
    const res = await wsm(server.env, [
      'users',
      'create',
      '--name',
      'Traced',
      '--email',
      'traced@example.com',
      '--password',
      SECOND_PASSWORD,
      '--role',
      String(role.json.data.id),
      '-v',
    ]);
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/^> POST /m);
    expect(res.stdout + res.stderr).not.toContain(SECOND_PASSWORD);
    expect(res.stdout + res.stderr).not.toContain(token);
  });

  it('draws a warning when given on the command line to `wsm auth login`, and none from stdin', async () => {
    const onArgv = await wsm(server.env, ['auth', 'login', '--base-url', server.url, '--token', token, '--profile', 'argv']);
    expect(onArgv.code).toBe(0);
    expect(onArgv.stderr).toMatch(/warning/i);
    expect(onArgv.stderr).toMatch(/history|process list/i);
    expect(onArgv.stdout + onArgv.stderr).not.toContain(token);
    const fromStdin = await wsm(
      server.env,
      ['auth', 'login', '--base-url', server.url, '--with-token', '--profile', 'stdin'],
      `${token}\n`,
    );
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stderr).not.toMatch(/warning/i);
    expect(modeOf(configFile())).toBe(0o600);
  });
});

describe('secrets in the database', () => {
  it('stores passwords as scrypt only, never the password itself', async () => {
    const role = await api('POST', `/workspaces/${workspace}/roles`, { name: 'Secret keepers' });
    const created = await api('POST', `/workspaces/${workspace}/users`, {
      name: 'Keeper',
      email: 'keeper@example.com',
      password: PASSWORD,
      role_id: role.json.data.id,
    });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.json)).not.toMatch(/password|scrypt/i);
    // The password changed through the multipart update is hashed the same way.
    const form = new FormData();
    form.append('password', `${PASSWORD}-2`);
    form.append('confirm_password', `${PASSWORD}-2`);
    const updated = await fetch(`${server.url}/workspaces/${workspace}/users/${created.json.data.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(updated.status).toBe(200);

    const db = new Database(join(server.dir, 'wsm.db'), { readonly: true });
    try {
      const hashes = db.prepare('SELECT password_hash FROM users WHERE password_hash IS NOT NULL').pluck().all() as string[];
      expect(hashes.length).toBeGreaterThanOrEqual(2);
      for (const hash of hashes) expect(hash).toMatch(/^scrypt\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    } finally {
      db.close();
    }
    const bytes = dbBytes();
    for (const secret of [PASSWORD, `${PASSWORD}-2`, SECOND_PASSWORD]) expect(bytes.includes(Buffer.from(secret))).toBe(false);
  });

  it('stores tokens as SHA-256 hex only: no raw token anywhere in the database files', async () => {
    // A second token, issued through the extension, is stored the same way.
    const issued = await fetch(`${server.url}/auth/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'keeper@example.com', password: `${PASSWORD}-2` }),
    });
    expect(issued.status).toBe(201);
    const second = ((await issued.json()) as { data: { token: string } }).data.token;
    expect((await api('GET', '/me', undefined, second)).status).toBe(200);

    const db = new Database(join(server.dir, 'wsm.db'), { readonly: true });
    try {
      const hashes = db.prepare('SELECT token_hash FROM tokens').pluck().all() as string[];
      expect(hashes.length).toBeGreaterThanOrEqual(2);
      for (const hash of hashes) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      db.close();
    }
    // While running (WAL) and after a clean stop (checkpointed into the main file).
    for (const secret of [token, second]) expect(dbBytes().includes(Buffer.from(secret))).toBe(false);
    expect(await server.stop()).toBe(0);
    for (const secret of [token, second]) expect(dbBytes().includes(Buffer.from(secret))).toBe(false);
    // The request log of --log (JSON lines on stderr; the one other line is the start-up note that
    // prints a newly minted admin token, by design) saw every call above and never a bearer token.
    const log = server
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    expect(log.some((line) => line.includes('"url":"/api/v3/'))).toBe(true);
    for (const secret of [token, second]) expect(log.filter((line) => line.includes(secret))).toEqual([]);
    // ... and stdout stayed the one "Listening on" line that scripts read.
    expect(stdoutAfterStart).toBe('');
  });
});
