import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openConfig } from '../../src/cli/config.js';
import { runCli, scriptedPrompter, tempDir, type RunOptions } from './helpers.js';

const ORIGIN = 'http://wsm.test';
const BASE_URL = `${ORIGIN}/api/v3`;
const TOKEN = 'wsm_abcdefghijklmnopqrstuvwxyzf9';
const WS = '9b2f0c4e-5d7a-4c1e-9a8b-2f3e4d5c6b7a';
const ME = { data: { id: 1, name: 'Ada Owner', email: 'ada@example.com', workspaces: [{ id: WS, name: 'Acme' }] } };

let dir: string;
let cleanup: () => Promise<void>;
let agent: MockAgent;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  agent = new MockAgent();
  agent.disableNetConnect();
});
afterEach(async () => {
  await agent?.close();
  await cleanup();
});

const run = (argv: string[], options: RunOptions = {}) => runCli(argv, { configDir: dir, dispatcher: agent, ...options });

function replyToMe(status: number, body: object, token = TOKEN) {
  agent
    .get(ORIGIN)
    .intercept({ path: '/api/v3/me', method: 'GET', headers: { authorization: `Bearer ${token}` } })
    .reply(status, body, { headers: { 'content-type': 'application/json' } });
}

function replyToWorkspace(status: number, body: object, token = TOKEN) {
  agent
    .get(ORIGIN)
    .intercept({ path: `/api/v3/workspaces/${WS}`, method: 'GET', headers: { authorization: `Bearer ${token}` } })
    .reply(status, body, { headers: { 'content-type': 'application/json' } });
}

async function savedProfile(name = 'default') {
  return (await openConfig({ dir })).getProfile(name);
}

describe('wsm auth login', () => {
  it('--with-token reads the token from stdin, verifies it, saves a 0600 profile and makes it current', async () => {
    replyToMe(200, ME);
    const { code, stdout, stderr } = await run(['auth', 'login', '--base-url', `${BASE_URL}/`, '--with-token'], { stdin: `${TOKEN}\n` });
    // Piped, the one line a mutating command says (gh's ✓), so a script's log shows what happened.
    expect({ code, stderr }).toEqual({
      code: 0,
      stderr: `✓ logged in to ${BASE_URL} as Ada Owner <ada@example.com> (profile "default", now current)\n`,
    });
    expect(stdout).toBe('');
    // The only workspace of the user becomes the profile's default.
    expect(await savedProfile()).toEqual({ base_url: BASE_URL, token: TOKEN, workspace: WS });
    const config = await openConfig({ dir });
    expect(config.currentName()).toBe('default');
    expect((await stat(join(dir, 'config.json'))).mode & 0o777).toBe(0o600);
  });

  it('saves under --profile, with -w given after the verb (a workspace /me does not list is read first)', async () => {
    replyToMe(200, { data: { ...ME.data, workspaces: [] } });
    const other = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
    agent
      .get(ORIGIN)
      .intercept({ path: `/api/v3/workspaces/${other}`, method: 'GET' })
      .reply(200, { data: { id: other } }, { headers: { 'content-type': 'application/json' } });
    const { code } = await run(['auth', 'login', '--with-token', '--profile', 'staging', '--base-url', BASE_URL, '-w', other], {
      stdin: TOKEN,
    });
    expect(code).toBe(0);
    expect(await savedProfile('staging')).toEqual({ base_url: BASE_URL, token: TOKEN, workspace: other });
  });

  it('piped, a token reaching several workspaces: the profile is saved without one, becomes current, and stderr says so', async () => {
    const OTHER = '0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f';
    replyToMe(200, {
      data: {
        ...ME.data,
        workspaces: [
          { id: WS, name: 'Acme' },
          { id: OTHER, name: 'Beta' },
        ],
      },
    });
    const { code, stdout, stderr } = await run(['auth', 'login', '--profile', 'ci', '--base-url', BASE_URL, '--with-token'], {
      stdin: TOKEN,
    });
    expect({ code, stdout }).toEqual({ code: 0, stdout: '' });
    expect(stderr).toBe(
      `✓ logged in to ${BASE_URL} as Ada Owner <ada@example.com> (profile "ci", now current)\n` +
        'warning: no workspace chosen: this token reaches 2 workspaces and none is picked without a terminal; profile "ci" is now current without one: pass -w <uuid> or run `wsm workspace use --profile ci --base-url http://wsm.test/api/v3`\n',
    );
    expect(await savedProfile('ci')).toEqual({ base_url: BASE_URL, token: TOKEN });
    expect((await openConfig({ dir })).currentName()).toBe('ci');
  });

  it('-w naming a workspace the token does not reach: exit 4, nothing saved', async () => {
    replyToMe(200, ME);
    const other = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
    agent
      .get(ORIGIN)
      .intercept({ path: `/api/v3/workspaces/${other}`, method: 'GET' })
      .reply(404, { message: 'Resource not found.', status: 404 }, { headers: { 'content-type': 'application/json' } });
    const { code, stderr } = await run(['auth', 'login', '--with-token', '--base-url', BASE_URL, '-w', other], { stdin: TOKEN });
    expect(code).toBe(4);
    expect(stderr).toBe(`error: workspace ${other} is not found with this token (404 on GET /workspaces/${other})\n`);
    expect(await savedProfile()).toBeUndefined();
  });

  it('WSM_TOKEN and a piped token are trimmed alike; a token with a line inside is refused (exit 2)', async () => {
    replyToMe(200, ME);
    expect((await run(['auth', 'login', '--base-url', BASE_URL], { env: { WSM_TOKEN: ` ${TOKEN}\r\n` } })).code).toBe(0);
    expect((await savedProfile())?.token).toBe(TOKEN);
    const twoLines = await run(['auth', 'login', '--base-url', BASE_URL, '--with-token', '--profile', 'other'], {
      stdin: `${TOKEN}\nsecond\n`,
    });
    expect(twoLines.code).toBe(2);
    expect(twoLines.stderr).toBe('error: standard input holds more than one line or word: a token is one word (nothing was saved)\n');
    expect(await savedProfile('other')).toBeUndefined();
  });

  it('warns when the token came with --token, and never prints it', async () => {
    replyToMe(200, ME);
    const { code, stderr, stdout } = await run(['auth', 'login', '--base-url', BASE_URL, '--token', TOKEN]);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^warning: .*--with-token/);
    expect(stderr + stdout).not.toContain(TOKEN);
  });

  it('never prompts without a terminal: a missing base URL or token is exit 2', async () => {
    const prompter = scriptedPrompter({});
    const noUrl = await run(['auth', 'login', '--with-token'], { stdin: TOKEN, prompter });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('--base-url');
    const noToken = await run(['auth', 'login', '--base-url', BASE_URL], { prompter });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('--with-token');
    const emptyStdin = await run(['auth', 'login', '--base-url', BASE_URL, '--with-token'], { stdin: '\n', prompter });
    expect(emptyStdin.code).toBe(2);
    expect(prompter.asked).toEqual([]);
    expect(await savedProfile()).toBeUndefined();
  });

  it('on a terminal asks for the base URL and the token', async () => {
    replyToMe(200, ME);
    const prompter = scriptedPrompter({ input: [BASE_URL], password: [TOKEN] });
    const { code, stderr } = await run(['auth', 'login'], { stdinTTY: true, stdoutTTY: true, prompter });
    expect(code).toBe(0);
    expect(prompter.asked).toEqual(['API base URL', 'API token']);
    expect(stderr).toContain('\x1b[32m✓\x1b[39m logged in to http://wsm.test/api/v3 as Ada Owner <ada@example.com>');
    expect(await savedProfile()).toMatchObject({ token: TOKEN });
  });

  it('a rejected token exits 3 and saves nothing', async () => {
    replyToMe(401, { message: 'Unauthenticated.' });
    const { code, stderr } = await run(['auth', 'login', '--base-url', BASE_URL, '--with-token'], { stdin: TOKEN });
    expect(code).toBe(3);
    // Not the usual "run `wsm auth login`": that is what failed.
    expect(stderr).toBe(`error: ${BASE_URL} rejected this token (401): check it; nothing was saved\n`);
    expect(await savedProfile()).toBeUndefined();
  });

  it('a server without /me: the token is checked with GET /workspaces/{workspace}, then saved', async () => {
    replyToMe(404, { message: 'The route api/v3/me could not be found.' });
    replyToWorkspace(200, { data: { id: WS } });
    const { code, stderr } = await run(['auth', 'login', '--base-url', BASE_URL, '--with-token', '-w', WS], { stdin: TOKEN });
    expect({ code, stderr }).toEqual({
      code: 0,
      stderr: `✓ logged in to ${BASE_URL} as not named by this server (no /me); token accepted for the workspace (profile "default", now current)\n`,
    });
    expect(await savedProfile()).toEqual({ base_url: BASE_URL, token: TOKEN, workspace: WS });
  });

  it('a server without /me rejecting the token for the workspace: exit 3, nothing saved', async () => {
    replyToMe(404, { message: 'The route api/v3/me could not be found.' });
    replyToWorkspace(401, { message: 'Unauthenticated.' });
    const { code } = await run(['auth', 'login', '--base-url', BASE_URL, '--with-token', '-w', WS], { stdin: TOKEN });
    expect(code).toBe(3);
    expect(await savedProfile()).toBeUndefined();
  });

  it('a server without /me and no workspace to check against: exit 2, nothing saved', async () => {
    replyToMe(404, { message: 'The route api/v3/me could not be found.' });
    const { code, stderr } = await run(['auth', 'login', '--base-url', BASE_URL, '--with-token'], { stdin: TOKEN });
    expect(code).toBe(2);
    expect(stderr).toBe('error: this server has no /me, so the token can only be checked against a workspace: pass -w <workspace uuid>\n');
    expect(await savedProfile()).toBeUndefined();
  });
});

describe('wsm auth login --email', () => {
  const ISSUED = 'wsm_issuedtokenabcdefghijklmnop12';
  function replyToTokens(status: number, body: object) {
    const bodies: unknown[] = [];
    agent
      .get(ORIGIN)
      .intercept({ path: '/api/v3/auth/tokens', method: 'POST' })
      .reply((opts) => {
        bodies.push({ body: JSON.parse(String(opts.body)), authorization: (opts.headers as Record<string, string>).authorization });
        return { statusCode: status, data: JSON.stringify(body), responseOptions: { headers: { 'content-type': 'application/json' } } };
      });
    return bodies;
  }
  const issued = {
    status: 201,
    message: 'Token created successfully.',
    data: { token: ISSUED, user_id: 1, expires_at: '2026-12-23T00:00:00.000Z' },
  };

  it('--password-stdin: POST /auth/tokens (no bearer), then the issued token is verified and saved like a token login', async () => {
    const sent = replyToTokens(201, issued);
    replyToMe(200, ME, ISSUED);
    const { code, stdout, stderr } = await run(
      ['auth', 'login', '--base-url', BASE_URL, '--email', 'ada@example.com', '--password-stdin'],
      { stdin: 'long pass word\n' },
    );
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stdout: '',
      stderr: `✓ logged in to ${BASE_URL} as Ada Owner <ada@example.com> (profile "default", now current)\n`,
    });
    expect(sent).toEqual([{ body: { email: 'ada@example.com', password: 'long pass word' }, authorization: undefined }]);
    expect(await savedProfile()).toEqual({ base_url: BASE_URL, token: ISSUED, workspace: WS });
  });

  it("without --base-url takes the current profile's server (after wsm serve) and saves the login as its own profile", async () => {
    const config = await openConfig({ dir });
    config.setProfile('local', { base_url: BASE_URL, token: TOKEN, workspace: WS });
    config.useProfile('local');
    replyToTokens(201, issued);
    replyToMe(200, ME, ISSUED);
    const { code, stderr } = await run(['auth', 'login', '--profile', 'ada', '--email', 'ada@example.com', '--password-stdin'], {
      stdin: 'long pass word\n',
    });
    expect({ code, stderr }).toEqual({
      code: 0,
      stderr: `✓ logged in to ${BASE_URL} as Ada Owner <ada@example.com> (profile "ada", now current)\n`,
    });
    expect(await savedProfile('ada')).toEqual({ base_url: BASE_URL, token: ISSUED, workspace: WS });
    expect(await savedProfile('local')).toEqual({ base_url: BASE_URL, token: TOKEN, workspace: WS });
  });

  it('on a terminal asks for the password, hidden', async () => {
    replyToTokens(201, issued);
    replyToMe(200, ME, ISSUED);
    const prompter = scriptedPrompter({ password: ['long pass word'] });
    const { code } = await run(['auth', 'login', '--base-url', BASE_URL, '--email', 'ada@example.com'], {
      stdinTTY: true,
      stderrTTY: true,
      prompter,
    });
    expect(code).toBe(0);
    expect(prompter.asked).toEqual(['Password for ada@example.com']);
    expect((await savedProfile())?.token).toBe(ISSUED);
  });

  it('a wrong password is exit 3 and saves nothing; piped without --password-stdin is exit 2', async () => {
    replyToTokens(422, { message: 'Validation error', errors: { email: ['These credentials do not match our records.'] } });
    const refused = await run(['auth', 'login', '--base-url', BASE_URL, '--email', 'ada@example.com', '--password-stdin'], {
      stdin: 'wrong',
    });
    expect(refused).toMatchObject({
      code: 3,
      stderr:
        'error: the server refused ada@example.com with that password: These credentials do not match our records. (nothing was saved)\n',
    });
    expect(await savedProfile()).toBeUndefined();
    const unasked = await run(['auth', 'login', '--base-url', BASE_URL, '--email', 'ada@example.com']);
    expect(unasked).toMatchObject({
      code: 2,
      stderr: 'error: no password: pipe it in with `--password-stdin` (standard input is not a terminal)\n',
    });
    const both = await run(['auth', 'login', '--base-url', BASE_URL, '--email', 'ada@example.com', '--with-token'], { stdin: TOKEN });
    expect(both).toMatchObject({ code: 2, stderr: 'error: log in with --email (and a password) or with a token, not both\n' });
  });

  it('a server without POST /auth/tokens (an extension): exit 1, saying to log in with a token', async () => {
    replyToTokens(404, { message: 'The route api/v3/auth/tokens could not be found.' });
    const { code, stderr } = await run(['auth', 'login', '--base-url', BASE_URL, '--email', 'ada@example.com', '--password-stdin'], {
      stdin: 'long pass word',
    });
    expect(code).toBe(1);
    expect(stderr).toBe(
      'error: this server does not support logging in with an e-mail and password: log in with a token: `wsm auth login --with-token --base-url http://wsm.test/api/v3`\n',
    );
    expect(await savedProfile()).toBeUndefined();
  });
});

/** A default profile holding the token and workspace, as `auth login` leaves it. */
async function loggedIn(): Promise<void> {
  const config = await openConfig({ dir });
  config.setProfile('default', { base_url: BASE_URL, token: TOKEN, workspace: WS });
  config.useProfile('default');
}

describe('wsm auth status', () => {
  beforeEach(loggedIn);

  it('shows profile, server, workspace, user and the masked token', async () => {
    replyToMe(200, ME);
    const { code, stdout } = await run(['auth', 'status', '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      profile: 'default',
      base_url: BASE_URL,
      workspace: WS,
      user: 'Ada Owner <ada@example.com>',
      token: 'wsm_ab…f9',
      token_source: 'profile',
    });
    expect(stdout).not.toContain(TOKEN);
  });

  it('on a terminal prints labelled lines', async () => {
    replyToMe(200, ME);
    const { stdout } = await run(['auth', 'status', '--no-color'], { stdoutTTY: true });
    expect(stdout).toContain('Token       wsm_ab…f9\n');
    expect(stdout).toContain('User        Ada Owner <ada@example.com>\n');
  });

  it('on a server without /me checks the token with GET /workspaces/{workspace}', async () => {
    replyToMe(404, { message: 'The route api/v3/me could not be found.' });
    replyToWorkspace(200, { data: { id: WS } });
    const { code, stdout } = await run(['auth', 'status']);
    expect(code).toBe(0);
    expect(stdout).toContain('user\tnot named by this server (no /me); token accepted for the workspace\n');
    replyToMe(404, { message: 'The route api/v3/me could not be found.' });
    replyToWorkspace(401, { message: 'Unauthenticated.' });
    expect((await run(['auth', 'status'])).code).toBe(3);
  });

  it('exits 3 when the token is rejected', async () => {
    replyToMe(401, { message: 'Unauthenticated.' });
    const { code, stderr } = await run(['auth', 'status']);
    expect(code).toBe(3);
    expect(stderr).not.toContain(TOKEN);
  });

  it('WSM_TOKEN beats the profile token', async () => {
    const envToken = 'wsm_fromtheenvironment00000042';
    replyToMe(200, ME, envToken);
    const { code, stdout } = await run(['auth', 'status', '-o', 'json'], { env: { WSM_TOKEN: envToken } });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ token: 'wsm_fr…42', token_source: 'WSM_TOKEN' });
  });

  it('--verbose traces to stderr without the token', async () => {
    replyToMe(200, ME);
    const { code, stderr } = await run(['auth', 'status', '-v']);
    expect(code).toBe(0);
    expect(stderr).toContain('/api/v3/me');
    expect(stderr).not.toContain(TOKEN);
  });
});

describe('wsm auth logout', () => {
  const REVOKE = { path: '/api/v3/auth/tokens/current', method: 'DELETE' } as const;
  beforeEach(loggedIn);
  /** Chatter on a terminal may wrap at its width: compare the words. */
  const unwrapped = (text: string) => text.replace(/\s+/g, ' ').trim();
  const revokeReplies = (status: number, body: object) =>
    agent
      .get(ORIGIN)
      .intercept({ ...REVOKE, headers: { authorization: `Bearer ${TOKEN}` } })
      .reply(status, body, { headers: { 'content-type': 'application/json' } });

  it('without --revoke only forgets the token: no request, and it says the token still works there', async () => {
    const { code, stdout, stderr } = await run(['auth', 'logout']);
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stdout: '',
      stderr:
        '✓ logged out: removed the token from profile "default"; it still works on the server (`wsm auth logout --revoke` revokes it there)\n',
    });
    expect(await savedProfile()).toEqual({ base_url: BASE_URL, workspace: WS });
  });

  it('--revoke names every other profile that held the same token', async () => {
    const config = await openConfig({ dir });
    config.setProfile('local', { base_url: BASE_URL, token: TOKEN });
    config.setProfile('ci', { base_url: BASE_URL, token: TOKEN });
    config.setProfile('other', { base_url: BASE_URL, token: 'wsm_anothertoken000000000000001' });
    revokeReplies(200, { message: 'Token deleted successfully.', status: 200 });
    const { code, stderr } = await run(['auth', 'logout', '--revoke']);
    expect(code).toBe(0);
    expect(stderr).toBe(
      '✓ logged out: revoked the token on the server and removed it from profile "default"\n' +
        'warning: profiles "ci", "local" held the same token: they will be refused until logged in again (`wsm auth login --profile ci`)\n',
    );
    expect((await openConfig({ dir })).getProfile('local')?.token).toBe(TOKEN);
  });

  it('--revoke revokes the token on the server, then forgets it; base URL and workspace stay, and status names the missing token', async () => {
    revokeReplies(200, { message: 'Token deleted successfully.', status: 200 });
    const { code, stderr } = await run(['auth', 'logout', '--revoke'], { stderrTTY: true });
    expect({ code, stderr: unwrapped(stderr) }).toEqual({
      code: 0,
      stderr: '\x1b[32m✓\x1b[39m logged out: revoked the token on the server and removed it from profile "default"',
    });
    expect(await savedProfile()).toEqual({ base_url: BASE_URL, workspace: WS });
    agent.assertNoPendingInterceptors();
    const status = await run(['auth', 'status']);
    expect(status.code).toBe(2);
    expect(status.stderr).toMatch(
      /^error: no token for http:\/\/wsm\.test\/api\/v3 \(from profile "default" in \S+config\.json\): run `wsm auth login`, or set WSM_TOKEN\n$/,
    );
  });

  it('against a server without the extension (404 without a status, or 405) says so in one line and only forgets the token: exit 0', async () => {
    for (const [status, body] of [
      [404, { message: 'Not Found' }],
      [405, { message: 'Method Not Allowed' }],
    ] as const) {
      const config = await openConfig({ dir });
      config.setProfile('default', { token: TOKEN });
      revokeReplies(status, body);
      const { code, stdout, stderr } = await run(['auth', 'logout', '--revoke']);
      expect({ status, code, stdout, stderr }).toEqual({
        status,
        code: 0,
        stdout: '',
        stderr: 'warning: this server does not support revoking tokens: the token was only removed from profile "default"\n',
      });
      expect(await savedProfile()).toEqual({ base_url: BASE_URL, workspace: WS });
    }
  });

  it('forgets a token the server no longer accepts (401): exit 0', async () => {
    revokeReplies(401, { message: 'Unauthenticated.' });
    const { code, stderr } = await run(['auth', 'logout', '--revoke'], { stderrTTY: true });
    expect({ code, stderr: unwrapped(stderr) }).toEqual({
      code: 0,
      stderr: '\x1b[32m✓\x1b[39m logged out: the server no longer accepted the token; removed it from profile "default"',
    });
    expect(await savedProfile()).toEqual({ base_url: BASE_URL, workspace: WS });
  });

  it('keeps the token when the server fails otherwise, so that logout can be retried: exit 6, one line', async () => {
    revokeReplies(500, { message: 'Server error.', status: 500 });
    const { code, stderr } = await run(['auth', 'logout', '--revoke']);
    expect(code).toBe(6);
    expect(stderr).toBe(
      'error: could not revoke the token on the server (Server error.): it is kept in profile "default"; run `wsm auth logout --revoke` again when the server answers\n',
    );
    expect(await savedProfile()).toEqual({ base_url: BASE_URL, token: TOKEN, workspace: WS });
  });

  it("revokes the profile's own token even when WSM_TOKEN is set, and warns that WSM_TOKEN stays in use", async () => {
    revokeReplies(200, { message: 'Token deleted successfully.', status: 200 });
    const { code, stderr } = await run(['auth', 'logout', '--revoke'], { env: { WSM_TOKEN: 'wsm_fromtheenvironment00000042' } });
    expect(code).toBe(0);
    expect(stderr).toBe(
      '✓ logged out: revoked the token on the server and removed it from profile "default"\nwarning: WSM_TOKEN is still set in the environment and will keep being used\n',
    );
    agent.assertNoPendingInterceptors();
  });

  it('is idempotent: no token, no request', async () => {
    const config = await openConfig({ dir });
    config.setProfile('default', { token: undefined });
    const { code, stderr } = await run(['auth', 'logout'], { stderrTTY: true });
    expect(code).toBe(0);
    expect(stderr).toContain('holds no token');
  });
});

describe('wsm auth token', () => {
  beforeEach(loggedIn);

  it('piped: prints the token alone, sends nothing', async () => {
    expect(await run(['auth', 'token'])).toMatchObject({ code: 0, stdout: `${TOKEN}\n`, stderr: '' });
  });

  it('on a terminal: prints it with a warning on stderr naming where it came from', async () => {
    const { code, stdout, stderr } = await run(['auth', 'token'], { stdoutTTY: true });
    expect(code).toBe(0);
    expect(stdout).toBe(`${TOKEN}\n`);
    expect(stderr.replace(/\s+/g, ' ')).toBe(
      `warning: this is the token (from profile "default" in ${join(dir, 'config.json')}) in clear: whoever sees it can act as you `,
    );
  });

  it('--profile and WSM_TOKEN choose the token as every command does; no token is exit 2', async () => {
    const config = await openConfig({ dir });
    config.setProfile('local', { base_url: BASE_URL, token: 'wsm_localadmintoken0000000000001' });
    config.setProfile('empty', { base_url: BASE_URL });
    expect((await run(['auth', 'token', '--profile', 'local'])).stdout).toBe('wsm_localadmintoken0000000000001\n');
    expect((await run(['auth', 'token'], { env: { WSM_TOKEN: 'wsm_fromtheenvironment00000042' } })).stdout).toBe(
      'wsm_fromtheenvironment00000042\n',
    );
    expect(await run(['auth', 'token', '--profile', 'empty'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: profile "empty" holds no token: run `wsm auth login --profile empty` or `wsm serve`\n',
    });
  });
});
