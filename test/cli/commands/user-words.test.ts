// Errors in the user's words (new-user findings #5 #7 #9 #11 #17 #18 #19 #21): what reaches
// stderr, and the exit code, for the mistakes a new user makes first.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JSON_HEADERS, WS, WSP, setupApi, type Api } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api.close());

describe('profiles and login (#5)', () => {
  it('a --profile or WSM_PROFILE that does not exist is named, exit 2, nothing sent', async () => {
    for (const [argv, env] of [
      [['--profile', 'nosuch', 'contacts', 'list'], {}],
      [['contacts', 'list'], { WSM_PROFILE: 'nosuch' }],
      [['--profile', 'nosuch', '-w', WS, 'contacts', 'list'], {}],
    ] as const) {
      const { code, stderr } = await api.run([...argv], { env });
      expect(stderr, argv.join(' ')).toBe('error: no profile named "nosuch" (see `wsm profile list`)\n');
      expect(code).toBe(2);
    }
  });

  it('a fresh install is told to log in before being told to pick a workspace', async () => {
    const { code, stderr } = await api.run(['contacts', 'list'], { env: { WSM_BASE_URL: undefined, WSM_TOKEN: undefined, WSM_WORKSPACE: undefined } });
    expect(stderr).toBe('error: not logged in: run `wsm auth login` or `wsm serve`\n');
    expect(code).toBe(2);
  });

  it('`profile set --profile new` still creates that profile', async () => {
    const { code } = await api.run(['profile', 'set', 'workspace', WS, '--profile', 'fresh']);
    expect(code).toBe(0);
    expect((await api.run(['profile', 'show', 'fresh', '--json', 'name'])).stdout).toContain('"fresh"');
  });
});

describe('base URL checked before any request (#7)', () => {
  it('--base-url without a scheme: one line naming the flag and an example, exit 2', async () => {
    const { code, stdout, stderr } = await api.run(['--base-url', '127.0.0.1:18101/api/v3', 'contacts', 'list']);
    expect(stderr).toBe('error: --base-url must be an http(s) URL such as https://api.example.com/api/v3, got "127.0.0.1:18101/api/v3"\n');
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
  });

  it('WSM_BASE_URL with another scheme names the variable; -o json gets the error object', async () => {
    const { code, stdout, stderr } = await api.run(['-o', 'json', 'contacts', 'list'], { env: { WSM_BASE_URL: 'ftp://api.example.com/api/v3' } });
    expect(stderr).toBe('error: WSM_BASE_URL must be an http(s) URL such as https://api.example.com/api/v3, got "ftp://api.example.com/api/v3"\n');
    expect(code).toBe(2);
    expect(JSON.parse(stdout).error).toMatchObject({ exit_code: 2 });
  });

  it("a profile's bad base URL names the profile and the fix", async () => {
    const { writeFile, mkdir } = await import('node:fs/promises');
    const { join } = await import('node:path');
    await mkdir(join(api.dir, 'config'), { recursive: true });
    await writeFile(join(api.dir, 'config', 'config.json'), JSON.stringify({ current: 'p', profiles: { p: { base_url: 'notaurl', token: 't' } } }));
    const { code, stderr } = await api.run(['contacts', 'list'], { env: { WSM_BASE_URL: undefined } });
    expect(stderr).toBe(
      'error: the base URL of profile "p" must be an http(s) URL such as https://api.example.com/api/v3, got "notaurl" (fix it with `wsm profile set base-url <url>`)\n',
    );
    expect(code).toBe(2);
  });
});
