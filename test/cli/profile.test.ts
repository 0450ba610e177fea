import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openConfig } from '../../src/cli/config.js';
import { runCli, tempDir } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const UUID = '9b2f0c4e-5d7a-4c1e-9a8b-2f3e4d5c6b7a';
const run = (argv: string[], env: Record<string, string> = {}) => runCli(argv, { configDir: dir, env });

describe('wsm profile', () => {
  it('set creates the profile (0600), makes the first one current, and list marks it', async () => {
    expect((await run(['profile', 'set', 'base-url', 'http://127.0.0.1:8080/api/v3/'])).code).toBe(0);
    expect((await run(['profile', 'set', 'workspace', UUID])).code).toBe(0);
    expect((await run(['profile', 'set', 'base-url', 'https://prod.example.com/api/v3', '--profile', 'prod'])).code).toBe(0);
    expect((await stat(join(dir, 'config.json'))).mode & 0o777).toBe(0o600);

    const { stdout } = await run(['profile', 'list', '-o', 'json']);
    expect(JSON.parse(stdout)).toEqual([
      { name: 'default', current: true, base_url: 'http://127.0.0.1:8080/api/v3', workspace: UUID, token: null },
      { name: 'prod', current: false, base_url: 'https://prod.example.com/api/v3', workspace: null, token: null },
    ]);
    expect((await run(['profile', 'list', '-q'])).stdout).toBe('default\nprod\n');
  });

  it('set token warns about shell history and stores it; show masks it', async () => {
    const set = await run(['profile', 'set', 'token', 'wsm_abcdefghijklmnopf9']);
    expect(set.code).toBe(0);
    expect(set.stderr).toContain('warning:');
    expect(set.stderr).not.toContain('wsm_abcdefghijklmnopf9');
    const show = await run(['profile', 'show', '-o', 'json']);
    expect(JSON.parse(show.stdout)).toMatchObject({ name: 'default', token: 'wsm_ab…f9' });
    expect(show.stdout).not.toContain('wsm_abcdefghijklmnopf9');
  });

  it('set rejects unknown keys and bad values with exit 2, leaving the file alone', async () => {
    for (const argv of [
      ['profile', 'set', 'color', 'red'],
      ['profile', 'set', 'workspace', 'nope'],
      ['profile', 'set', 'base-url', 'ftp://x'],
    ]) {
      const { code, stderr } = await run(argv);
      expect(code).toBe(2);
      expect(stderr).toMatch(/^error: /);
    }
    expect((await openConfig({ dir })).listProfiles()).toEqual([]);
  });

  it('use switches the current profile; an unknown name exits 2', async () => {
    await run(['profile', 'set', 'base-url', 'http://a', '--profile', 'a']);
    await run(['profile', 'set', 'base-url', 'http://b', '--profile', 'b']);
    expect((await run(['profile', 'use', 'b'])).code).toBe(0);
    expect((await openConfig({ dir })).currentName()).toBe('b');
    const unknown = await run(['profile', 'use', 'ghost']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('error: no profile named "ghost" (see `wsm profile list`)\n');
  });

  it('show [name] prints one profile; a missing one exits 2', async () => {
    await run(['profile', 'set', 'workspace', UUID, '--profile', 'a']);
    const piped = await run(['profile', 'show', 'a']);
    expect(piped.stdout).toBe(`current\ttrue\nname\ta\nbase_url\t\nworkspace\t${UUID}\ntoken\t\n`);
    expect((await run(['profile', 'show', 'ghost'])).code).toBe(2);
  });

  it('list with no profiles prints nothing on stdout', async () => {
    const { code, stdout } = await run(['profile', 'list']);
    expect(code).toBe(0);
    expect(stdout).toBe('');
  });
});
