/**
 * An operator's scripts: exit codes, CSV injection, the config file: wsm piped (in-process, in-process.ts) against a real `wsm serve` and small stand-in
 * servers; `wsm serve` itself as the real binary.
 */
import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup, heldPort, localProfile, testEnv, wsm } from './processes.js';
import { fakeServer, reply } from './terminal.js';

let server: Backend;
let profile: { token: string; workspace: string };
const run = (...args: string[]) => wsmInProcess(server.env, args);
const WS = '2f1c9a52-8d1e-4c3b-9f10-6a7b8c9d0e1f';

beforeAll(async () => {
  server = await serveBackend();
  profile = localProfile(server);
  await run('groups', 'create', 'VIP');
  await run('fields', 'create', 'city');
  await run(
    'contacts',
    'create',
    '--number',
    '14155550101',
    '--name',
    '=HYPERLINK("http://evil.test","x")',
    '--email',
    'ann@example.com',
    '--field',
    'city=@Lisbon',
  );
  await run('contacts', 'create', '--number', '14155550102', '--name', 'Bob', '--group', '1');
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

describe('-o json prints a JSON error object on stdout for every failure (12.5)', () => {
  const errorOf = (stdout: string) =>
    JSON.parse(stdout) as { error?: { message: string; exit_code: number; status?: number; fields?: object; server?: unknown } };

  it.each([
    ['a usage error from the parser', ['contacts', 'lst'], 2, /unknown command 'lst'/],
    ['an unknown flag', ['contacts', 'list', '--nope'], 2, /unknown option '--nope'/],
    ['a bad id', ['contacts', 'get', 'abc'], 2, /^contact id must be a positive integer, got "abc"$/],
    ['local validation', ['contacts', 'create', '--number', '12'], 2, /^the contact is invalid: nothing was sent$/],
  ])('%s', async (_name, args, code, message) => {
    const res = await run(...args, '-o', 'json');
    expect(res.code).toBe(code);
    const body = errorOf(res.stdout);
    expect(body.error?.exit_code).toBe(code);
    expect(body.error?.message).toMatch(message);
  });

  it('local validation carries its field errors', async () => {
    const res = await run('contacts', 'create', '--number', '12', '-o', 'json');
    expect(errorOf(res.stdout).error?.fields).toEqual({ number: ['The number must be a phone number of 7 to 15 digits.'] });
  });

  it("a server error is the same document, stderr's sentence first and the server's own body under server", async () => {
    const res = await run('contacts', 'get', '999', '-o', 'json');
    expect(res.code).toBe(4);
    expect(res.stderr).toBe('error: contact 999 not found\n');
    expect(errorOf(res.stdout)).toEqual({
      error: { message: 'contact 999 not found', exit_code: 4, status: 404, server: { message: 'Resource not found.', status: 404 } },
    });
  });

  it('a network failure is an error object too', async () => {
    const res = await wsmInProcess({ ...server.env, WSM_BASE_URL: 'http://127.0.0.1:9/api/v3' }, ['contacts', 'list', '-o', 'json']);
    expect(res.code).toBe(6);
    expect(errorOf(res.stdout).error).toEqual({
      message: 'cannot reach http://127.0.0.1:9/api/v3 (connection refused): no server is listening there; start one with `wsm serve`',
      exit_code: 6,
    });
  });
});

describe('--json <fields> and --jq <expr> (12.6)', () => {
  it('--json selects fields on a list and a get', async () => {
    expect(JSON.parse((await run('contacts', 'list', '--json', 'id,number')).stdout)).toEqual([
      { id: 1, number: '14155550101' },
      { id: 2, number: '14155550102' },
    ]);
    expect(JSON.parse((await run('groups', 'get', '1', '--json', 'name,contacts_count')).stdout)).toEqual({
      name: 'VIP',
      contacts_count: 1,
    });
  });

  it('an unknown field is exit 2 listing the available ones, before anything is sent', async () => {
    const res = await run('contacts', 'list', '--json', 'id,nmae');
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'error: unknown field "nmae" (did you mean "name"?) for --json; available: id, workspace_id, number, name, email, gender, status, avatar_url, contact_groups, fields, created_at, updated_at\n',
    );
    expect(res.stdout).toBe('');
  });

  it('--jq filters the JSON: strings raw, one result a line', async () => {
    expect((await run('contacts', 'list', '--jq', '.[] | select(.contact_groups | length > 0) | .name')).stdout).toBe('Bob\n');
    expect((await run('roles', 'get', '1', '--jq', '.permissions | length')).stdout).toMatch(/^\d+\n$/);
    expect((await run('labels', 'list', '--jq', 'length')).stdout).toBe('0\n');
  });

  it('a --jq that does not compile is exit 2 before anything is sent', async () => {
    const res = await wsmInProcess({ ...server.env, WSM_BASE_URL: 'http://127.0.0.1:9/api/v3' }, ['contacts', 'list', '--jq', '.[']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: --jq: syntax error/);
  });

  it('contacts export -o json and -o ndjson write records, not CSV', async () => {
    const json = JSON.parse((await run('contacts', 'export', '-o', 'json')).stdout);
    expect(json.map((c: { number: string }) => c.number)).toEqual(['14155550101', '14155550102']);
    const ndjson = (await run('contacts', 'export', '-o', 'ndjson')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(ndjson.map((c: { id: number }) => c.id)).toEqual([1, 2]);
  });
});

describe('CSV cells a spreadsheet would run are neutralised (13.13)', () => {
  it('contacts export prefixes formulas with a quote; other cells are untouched', async () => {
    const lines = (await run('contacts', 'export')).stdout.split('\n');
    expect(lines[0]).toBe('id,number,name,email,gender,status,contact_groups,created_at,updated_at,city');
    expect(lines[1]).toMatch(
      /^1,14155550101,"'=HYPERLINK\(""http:\/\/evil.test"",""x""\)",ann@example.com,,true,\[\],[^,]+,[^,]+,'@Lisbon$/,
    );
    expect(lines[2]).toMatch(/^2,14155550102,Bob,,,true,"\[""VIP""\]",/);
  });

  it('-o csv on any list does the same', async () => {
    const { stdout } = await run('contacts', 'list', '-o', 'csv');
    expect(stdout.split('\n')[1]).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    // One CSV shape for a contact (finding 16): the export's columns and cells, row for row.
    expect(stdout).toBe((await run('contacts', 'export')).stdout);
    const one = (await run('contacts', 'get', '2', '-o', 'csv')).stdout.split('\n');
    expect(one[1]).toMatch(/^2,14155550102,Bob,,,true,"\[""VIP""\]",/);
  });
});

describe('redaction masks the token only where it is a token (12.7)', () => {
  it('with --token t, "route" and "Unauthenticated." stay whole in messages and traces', async () => {
    // An API (a request without a token is its 401) without the route.
    const foreign = await fakeServer((req, res) =>
      req.headers.authorization
        ? reply(res, 404, { message: `Route ${req.method}:${req.url} not found` })
        : reply(res, 401, { message: 'Unauthenticated.' }),
    );
    try {
      const res = await wsmInProcess(server.env, ['api', 'GET', '/no-such-route', '--base-url', foreign.url, '--token', 't', '-v']);
      expect(res.code).toBe(4);
      expect(res.stderr).toContain('> authorization: Bearer ***');
      expect(res.stderr).toContain('error: Route GET:/api/v3/no-such-route not found (404 on GET /api/v3/no-such-route)');
      expect(JSON.parse(res.stdout)).toEqual({ message: 'Route GET:/api/v3/no-such-route not found' });
    } finally {
      await foreign.close();
    }
    const rejected = await run('contacts', 'list', '--token', 't', '-v');
    expect(rejected.code).toBe(3);
    expect(rejected.stderr).toContain('< {"message":"Unauthenticated."}');
  });

  it('a real token is still masked everywhere it appears', async () => {
    const res = await run('contacts', 'list', '-v', '--token', profile.token);
    expect(res.code).toBe(0);
    expect(res.stderr).not.toContain(profile.token);
    expect(res.stderr).toContain('> authorization: Bearer ***');
  });
});

describe('messages in the user’s words, version and timeouts (12.8)', () => {
  it('wsm version prints wsm and Node.js versions', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect((await run('version')).stdout).toBe(`wsm ${version} (Node.js ${process.versions.node})\n`);
    expect(JSON.parse((await run('version', '-o', 'json')).stdout)).toEqual({ version, node: process.versions.node });
  });

  it('contacts get abc and --gender robot', async () => {
    expect((await run('contacts', 'get', 'abc')).stderr).toBe('error: contact id must be a positive integer, got "abc"\n');
    const gender = await run('contacts', 'create', '--number', '14155550199', '--gender', 'robot');
    expect(gender.code).toBe(2);
    expect(gender.stderr).toContain('\n  --gender takes one of male, female, other, got "robot"\n');
  });

  it('a port in use says so', async () => {
    const { port, release } = await heldPort();
    try {
      const res = await wsm(testEnv(server.dir), ['serve', '--port', String(port), '--db', ':memory:']);
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(
        `error: port ${port} on 127.0.0.1 is already in use (another \`wsm serve\`?): stop that process or pick another port with --port\n`,
      );
    } finally {
      release();
    }
  });

  it('a refused connection names the URL; elsewhere than this machine it does not suggest wsm serve', async () => {
    const res = await wsmInProcess({ ...server.env, WSM_BASE_URL: 'http://127.0.0.1:9/api/v3' }, ['contacts', 'list']);
    expect(res.stderr).toBe(
      'error: cannot reach http://127.0.0.1:9/api/v3 (connection refused): no server is listening there; start one with `wsm serve`\n',
    );
  });

  it('--timeout and WSM_TIMEOUT limit each request; a bad value is exit 2', async () => {
    const silent = await fakeServer(() => undefined); // never answers
    try {
      const env = { ...server.env, WSM_BASE_URL: silent.url, WSM_TOKEN: 'tok_12345678', WSM_WORKSPACE: WS };
      // Each run times out, is retried and times out again: side by side, they wait once.
      const [flag, viaEnv, bad] = await Promise.all([
        wsmInProcess(env, ['labels', 'get', '1', '--timeout', '300ms']),
        wsmInProcess({ ...env, WSM_TIMEOUT: '0.2s' }, ['labels', 'get', '1']),
        wsmInProcess({ ...env, WSM_TIMEOUT: 'soon' }, ['labels', 'get', '1']),
      ]);
      expect(flag.code).toBe(6);
      expect(flag.stderr).toMatch(
        /timed out after 300 ms: the server did not answer in time \(raise the limit with --timeout or WSM_TIMEOUT\)/,
      );
      expect(viaEnv.code).toBe(6);
      expect(viaEnv.stderr).toContain('timed out after 200 ms');
      expect(bad.code).toBe(2);
      expect(bad.stderr).toBe('error: WSM_TIMEOUT takes a duration such as 10s, 2m or 500ms, got "soon"\n');
    } finally {
      await silent.close();
    }
  });

  it("a base URL that is not the API's (no /api/v3, or /api/v2) is said as such, with the URL that answers, not blamed on the workspace", async () => {
    const bare = server.url.replace(/\/api\/v3$/, '');
    const res = await wsmInProcess({ ...server.env, WSM_BASE_URL: bare }, ['labels', 'list']);
    expect(res.code).toBe(4);
    expect(res.stderr).toBe(
      `error: ${bare} (from WSM_BASE_URL) does not answer like the Workspace Messaging API: is /api/v3 the right path? ${server.url} does: set WSM_BASE_URL=${server.url}\n`,
    );
    const v2 = await wsm(server.env, ['--base-url', `${bare}/api/v2`, 'labels', 'list']);
    expect(v2.code).toBe(4);
    expect(v2.stderr).toBe(
      `error: ${bare}/api/v2 (from --base-url) does not answer like the Workspace Messaging API: is /api/v3 the right path? ${server.url} does: pass --base-url ${server.url}\n`,
    );
  });
});

describe('the config file (13.14)', () => {
  const configEnv = (name: string) => {
    const dir = join(server.dir, name);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return { dir, file: join(dir, 'config.json'), env: { ...testEnv(server.dir), WSM_CONFIG_DIR: dir } };
  };

  it.each([
    ['empty', '', /is empty: delete it and log in again/],
    ['not JSON', '{"profiles": {', /is not valid JSON \(.+\): fix it in an editor, or delete it/],
    [
      'a number where a URL goes',
      '{"current":"a","profiles":{"a":{"base_url":42}}}',
      /is not a wsm config: "base_url" of profile "a" must be a string; fix it in an editor/,
    ],
  ])('%s: names the file and says how to fix it (exit 2)', async (name, content, message) => {
    const { file, env } = configEnv(`bad-${name.replace(/\W/g, '')}`);
    writeFileSync(file, content, { mode: 0o600 });
    const res = await wsmInProcess(env, ['contacts', 'list']);
    expect(res.code).toBe(2);
    expect(res.stderr.startsWith(`error: the config file ${file} `)).toBe(true);
    expect(res.stderr).toMatch(message);
    expect(res.stderr.split('\n')).toHaveLength(2);
  });

  it('an unreadable file names it', async () => {
    // As root every file is readable: a directory in the file's place cannot be read as a file.
    const dirEnv = configEnv('dir-in-place');
    mkdirSync(dirEnv.file);
    const broken = await wsmInProcess(dirEnv.env, ['profile', 'list']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toBe(
      `error: cannot read the config file ${dirEnv.file} (EISDIR): make it readable (chmod 600 ${dirEnv.file}) or set WSM_CONFIG_DIR to another directory\n`,
    );
  });

  it('a world-writable config directory of yours is tightened to 0700', async () => {
    const { dir, env } = configEnv('loose');
    chmodSync(dir, 0o777);
    expect((await wsmInProcess(env, ['profile', 'set', 'base-url', 'http://127.0.0.1:1/api/v3'])).code).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('a world-writable config directory that is not yours is refused', async () => {
    const { dir, env } = configEnv('foreign');
    chmodSync(dir, 0o777);
    // Given away to "nobody" (this needs root, as on the development machines and CI).
    chownSync(dir, 65534, 65534);
    const res = await wsmInProcess(env, ['profile', 'list']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `error: the config directory ${dir} can be written by other users and is not yours: refusing to keep tokens there; set WSM_CONFIG_DIR to a directory of your own\n`,
    );
  });

  it('a symlinked config file is read through, never written through', async () => {
    const { file, env } = configEnv('linked');
    const real = join(server.dir, 'real-config.json');
    writeFileSync(real, JSON.stringify({ current: 'a', profiles: { a: { base_url: 'http://127.0.0.1:1/api/v3' } } }), { mode: 0o600 });
    symlinkSync(real, file);
    const list = await wsmInProcess(env, ['profile', 'list', '--json', 'name']);
    expect(JSON.parse(list.stdout)).toEqual([{ name: 'a' }]);
    const before = readFileSync(real, 'utf8');
    const write = await wsmInProcess(env, ['profile', 'set', 'workspace', WS]);
    expect(write.code).toBe(2);
    expect(write.stderr).toContain(`error: the config file ${file} is a symbolic link (to ${real}); wsm does not write through links`);
    expect(readFileSync(real, 'utf8')).toBe(before);
  });

  it('WSM_TOKEN is trimmed like a token read from stdin', async () => {
    const res = await wsmInProcess({ ...server.env, WSM_TOKEN: `  ${profile.token}\n` }, ['contacts', 'list', '-q']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('1\n2\n');
  });
});
