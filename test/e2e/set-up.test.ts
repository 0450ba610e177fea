/**
 * The first hour's set-up snags: a profile can be deleted (asked on a terminal, --yes otherwise);
 * a throwaway `wsm serve --db :memory:` leaves no profile behind; `profile list` marks what
 * WSM_PROFILE selects; a token without a base URL is named as such; `wsm serve` piped into a log
 * never prints the token and says which origins --cors allows; `validate --strict` exits as the
 * exit table says. The real binary and `wsm serve`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../wait-for.js';
import { wsmInProcess } from './in-process.js';
import { cleanup, listening, localProfile, serve, testEnv, type Served } from './processes.js';
import { onTerminal } from './terminal.js';

let server: Served;
const run = (args: string[], env: NodeJS.ProcessEnv = server.env) => wsmInProcess(env, args);
const profiles = (dir: string): Record<string, unknown> => {
  const file = join(dir, 'config', 'config.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).profiles : {};
};

beforeAll(async () => {
  server = await serve(['--approval-delay', '0', '--cors', 'http://localhost:5173', '--cors', 'http://127.0.0.1:3000']);
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

describe('wsm serve piped into a log', () => {
  it('never prints the admin token, only the command that does; lists the origins --cors allows', async () => {
    const { token } = localProfile(server);
    // Its start-up lines follow "Listening on", on another pipe.
    await waitFor(() => server.stderr().includes('Browsers may call'));
    expect(server.stderr()).not.toContain(token);
    expect(server.stderr()).toContain('admin token: `wsm auth token --profile local` prints it\n');
    expect(server.stderr()).toContain('Browsers may call it from http://localhost:5173, http://127.0.0.1:3000\n');
    expect((await run(['auth', 'token'])).stdout).toBe(`${token}\n`);
  });

  it('--db :memory: saves no profile unless --profile names one', async () => {
    for (const [extra, saved] of [
      [[], []],
      [['--profile', 'scratch'], ['scratch']],
    ] as const) {
      const env = { ...server.env, WSM_CONFIG_DIR: join(server.dir, `memory-${saved.length}`) };
      const started = await listening(['serve', '--port', '0', '--db', ':memory:', ...extra], env);
      const said = saved.length === 0 ? 'no profile saved (--db :memory:; --profile <name> saves one)' : 'profile "scratch" saved';
      await waitFor(() => started.stderr().includes(said));
      started.child.kill('SIGTERM');
      expect(await started.exited).toBe(0);
      const file = join(env.WSM_CONFIG_DIR!, 'config.json');
      expect(existsSync(file) ? Object.keys(JSON.parse(readFileSync(file, 'utf8')).profiles) : []).toEqual(saved);
    }
  });
});

describe('profiles', () => {
  it('profile list marks the profile WSM_PROFILE selects, not the saved current one', async () => {
    const env = { ...server.env, WSM_CONFIG_DIR: join(server.dir, 'marks') };
    for (const name of ['ci', 'dev']) expect((await run(['profile', 'set', 'base-url', server.url, '--profile', name], env)).code).toBe(0);
    expect((await run(['profile', 'use', 'dev'], env)).code).toBe(0);
    const marked = async (extra: NodeJS.ProcessEnv) =>
      (JSON.parse((await run(['profile', 'list', '-o', 'json'], { ...env, ...extra })).stdout) as Array<{ name: string; current: boolean }>)
        .filter((p) => p.current)
        .map((p) => p.name);
    expect(await marked({})).toEqual(['dev']);
    expect(await marked({ WSM_PROFILE: 'ci' })).toEqual(['ci']);
  });

  it('profile delete: --yes without a terminal; says when it was the current one; an unknown name is exit 2', async () => {
    const env = { ...server.env, WSM_CONFIG_DIR: join(server.dir, 'deletes') };
    for (const name of ['old', 'keep'])
      expect((await run(['profile', 'set', 'base-url', server.url, '--profile', name], env)).code).toBe(0);
    expect((await run(['profile', 'use', 'old'], env)).code).toBe(0);
    expect(await run(['profile', 'delete', 'old'], env)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: deleting profile "old" needs --yes when not on a terminal\n',
    });
    expect(await run(['profile', 'delete', 'old', '--yes'], env)).toEqual({
      code: 0,
      stdout: '',
      stderr: '✓ deleted profile "old"; it was the current profile, so none is now: `wsm profile use <name>` picks one\n',
    });
    expect(await run(['profile', 'delete', 'keep', '--yes'], env)).toMatchObject({ code: 0, stderr: '✓ deleted profile "keep"\n' });
    expect(profiles(join(server.dir, 'deletes'))).toEqual({});
    expect(await run(['profile', 'delete', 'nope', '--yes'], env)).toMatchObject({
      code: 2,
      stderr: 'error: no profile named "nope" (see `wsm profile list`)\n',
    });
  });

  it('profile delete on a terminal asks, naming the current one', async () => {
    const env = { ...server.env, WSM_CONFIG_DIR: join(server.dir, 'asked') };
    expect((await run(['profile', 'set', 'base-url', server.url, '--profile', 'gone'], env)).code).toBe(0);
    expect((await run(['profile', 'use', 'gone'], env)).code).toBe(0);
    const { code, screen } = await onTerminal(env, ['profile', 'delete', 'gone'], { columns: 120, keys: 'y\r', when: '(y/N)' });
    expect(code).toBe(0);
    expect(screen).toContain('Delete profile "gone", the current one? Its token is forgotten here, not revoked');
    expect(profiles(join(server.dir, 'asked'))).toEqual({});
  });

  it('a token without a base URL names the missing base URL, not a missing login', async () => {
    const env = { ...testEnv(join(server.dir, 'bare')), WSM_TOKEN: 'tok_without_a_server' };
    expect(await run(['contacts', 'list'], env)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: no base URL for the token (from WSM_TOKEN): pass --base-url <url>, set WSM_BASE_URL, or run `wsm profile set base-url <url>`\n',
    });
    expect((await run(['contacts', 'list'], testEnv(join(server.dir, 'bare')))).stderr).toBe(
      'error: not logged in: run `wsm auth login` or `wsm serve`\n',
    );
  });
});

describe('the exit table holds for templates validate --strict', () => {
  it("a template the provider's review would reject is a local validation failure: exit 2", async () => {
    const file = join(server.dir, 'sale.yaml');
    writeFileSync(file, 'name: sale\nlanguage: en\ncategory: MARKETING\nbody:\n  text: "{{1}} sale today"\n  variables: [Big]\n');
    const res = await run(['templates', 'validate', '--strict', file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`error: the provider's review would reject ${file} (--strict)\n`);
    const table = readFileSync(join(import.meta.dirname, '../../docs/output.md'), 'utf8');
    expect(table).toMatch(/^\| 2 +\| usage error or local validation failure/m);
  });
});
