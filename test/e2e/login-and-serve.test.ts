/**
 * Logging in from scripts and running more than one `wsm serve`: wsm (in-process, in-process.ts)
 * against real `wsm serve` processes, with nothing on a terminal (as CI runs them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { cleanup, createUserArgs, serve, type Served } from './processes.js';
import { waitFor } from '../wait-for.js';

let server: Served;
let token: string;
beforeAll(async () => {
  server = await serve();
  token = savedProfiles(server).local.token;
});
afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

function savedProfiles(served: Served): Record<string, { base_url: string; token: string; workspace?: string }> {
  return JSON.parse(readFileSync(join(served.dir, 'config', 'config.json'), 'utf8')).profiles;
}

describe('auth login in a script', () => {
  it('a token reaching two workspaces: saved without one and made current, and stderr says so although piped', async () => {
    expect((await wsmInProcess(server.env, ['workspace', 'create', 'Second'])).code).toBe(0);
    const login = await wsmInProcess(
      server.env,
      ['auth', 'login', '--profile', 'ci', '--with-token', '--base-url', server.url],
      token + '\n',
    );
    expect(login.code).toBe(0);
    expect(login.stdout).toBe('');
    expect(login.stderr).toBe(
      `✓ logged in to ${server.url} as Owner <owner@wsm.local> (profile "ci", now current)\n` +
        `warning: no workspace chosen: this token reaches 2 workspaces and none is picked without a terminal; profile "ci" is now current without one: pass -w <uuid> or run \`wsm workspace use --profile ci --base-url ${server.url}\`\n`,
    );
    const profiles = await wsmInProcess(server.env, ['profile', 'list', '-o', 'json']);
    expect(JSON.parse(profiles.stdout)).toContainEqual(expect.objectContaining({ name: 'ci', current: true }));
    const after = await wsmInProcess(server.env, ['contacts', 'list']);
    expect(after.code).toBe(2);
    expect(after.stderr).toMatch(/^error: no workspace/);
    expect((await wsmInProcess(server.env, ['profile', 'use', 'local'])).code).toBe(0);
  });
});

/** The server's stderr once it shows `last` (start-up lines follow "Listening on" on stdout). */
async function stderrUntil(served: Served, last: string): Promise<string> {
  await waitFor(() => served.stderr().includes(last));
  return served.stderr();
}

describe('auth login --email: a user made with users create --password signs in', () => {
  it('the password piped with --password-stdin gets a token (POST /auth/tokens), saved in the profile like a token login', async () => {
    const role = await wsmInProcess(server.env, ['roles', 'create', 'Agent', '--permission', 'contacts.view', '-q']);
    expect(role.code, role.stderr).toBe(0);
    const made = await wsmInProcess(server.env, createUserArgs(role.stdout.trim()));
    expect(made.code, made.stderr).toBe(0);

    const wrong = await wsmInProcess(
      server.env,
      ['auth', 'login', '--profile', 'dee', '--email', 'dee@example.com', '--password-stdin', '--base-url', server.url],
      'not the password\n',
    );
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toBe(
      'error: the server refused dee@example.com with that password: These credentials do not match our records. (nothing was saved)\n',
    );
    expect(savedProfiles(server).dee).toBeUndefined();

    const login = await wsmInProcess(
      server.env,
      ['auth', 'login', '--profile', 'dee', '--email', 'dee@example.com', '--password-stdin', '--base-url', server.url],
      'long password\n',
    );
    expect(login).toEqual({
      code: 0,
      stdout: '',
      stderr: `✓ logged in to ${server.url} as Dee <dee@example.com> (profile "dee", now current)\n`,
    });
    const dee = savedProfiles(server).dee;
    expect(dee).toMatchObject({ base_url: server.url, workspace: savedProfiles(server).local.workspace });
    expect(dee.token).not.toBe(token);
    const status = await wsmInProcess(server.env, ['auth', 'status', '-o', 'json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'dee' });
    expect(status.stdout).toContain('dee@example.com');
    expect((await wsmInProcess(server.env, ['profile', 'use', 'local'])).code).toBe(0);
  });
});

describe('a second wsm serve beside a running one', () => {
  it('--profile saves it under another name, leaving "local" to the first; without it, the replaced profile is named on stderr', async () => {
    const check = await serve(['--api-only', '--db', join(server.dir, 'check.db'), '--profile', 'check'], server.dir);
    try {
      expect(check.url).not.toBe(server.url);
      expect(await stderrUntil(check, 'answers 404\n')).toMatch(
        /^Workspace \S+; profile "check" saved; admin token: `wsm auth token --profile check` prints it\nPublished API only: every extension answers 404\n$/,
      );
      const profiles = savedProfiles(server);
      expect(profiles.local.base_url).toBe(server.url);
      expect(profiles.check.base_url).toBe(check.url);
      // Both reachable by name; the first stays the current profile.
      expect((await wsmInProcess(server.env, ['labels', 'list', '-q'])).code).toBe(0);
      const onCheck = await wsmInProcess({ ...server.env, WSM_PROFILE: 'check' }, ['labels', 'list']);
      expect(onCheck.code).toBe(1);
      expect(onCheck.stderr).toMatch(/^error: this server does not support /);
    } finally {
      expect(await check.stop()).toBe(0);
    }

    const other = await serve(['--db', join(server.dir, 'other.db')], server.dir);
    try {
      expect(await stderrUntil(other, ' saved')).toMatch(
        new RegExp(
          `^warning: replacing profile "local" \\(was ${server.url.replace(/[.]/g, '\\.')}, where a server still answers\\): pass --profile <name> to save this server under another name\\nWorkspace \\S+; profile "local" saved; admin token: \`wsm auth token --profile local\` prints it\\n$`,
        ),
      );
      expect(savedProfiles(server).local.base_url).toBe(other.url);
    } finally {
      expect(await other.stop()).toBe(0);
    }
  });
});

describe('wsm serve flags', () => {
  it('each bad flag is one line naming the flag as typed, exit 2, and nothing starts', async () => {
    const cases: Array<[string[], string]> = [
      [['--port', 'abc'], 'error: --port takes a whole number from 0 to 65535, got "abc"\n'],
      [['--port', '70000'], 'error: --port takes a whole number from 0 to 65535, got "70000"\n'],
      [['--provider-fault', 'bogus'], 'error: --provider-fault takes one of unavailable, credentials, timeout, got "bogus"\n'],
      [['--approval-delay', 'forever'], 'error: --approval-delay takes a duration such as 10s, 2m or 500ms, got "forever"\n'],
      [['--admin-token', 'short'], 'error: --admin-token must be at least 8 characters long\n'],
      [['-w', 'nope'], 'error: -w/--workspace takes the UUID of the workspace to seed, got "nope"\n'],
      [
        ['--cors', 'localhost:5173'],
        'error: --cors takes an origin such as http://localhost:5173 (scheme, host and port, no path) or *, got "localhost:5173"\n',
      ],
      [
        ['--cors', 'http://127.0.0.1:5173', '--cors', 'http://127.0.0.1:5173/app'],
        'error: --cors takes an origin such as http://localhost:5173 (scheme, host and port, no path) or *, got "http://127.0.0.1:5173/app"\n',
      ],
    ];
    for (const [args, line] of cases) {
      expect(await wsmInProcess(server.env, ['serve', '--db', ':memory:', ...args])).toEqual({ code: 2, stdout: '', stderr: line });
    }
  });

  it('reads WSM_CORS when no --cors is given, naming it in its error', async () => {
    expect(await wsmInProcess({ ...server.env, WSM_CORS: 'http://ok.test, nope' }, ['serve', '--db', ':memory:'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: WSM_CORS takes an origin such as http://localhost:5173 (scheme, host and port, no path) or *, got "nope"\n',
    });
  });
});
