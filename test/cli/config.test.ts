import { chmod, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openConfig, saveLocalProfile } from '../../src/cli/config.js';
import { resolveSettings } from '../../src/cli/context.js';
import { globals, runCli, tempDir } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('config file', () => {
  it('is created with mode 0600', async () => {
    const config = await openConfig({ dir });
    config.setProfile('default', { base_url: 'http://x/api/v3', token: 'secret-token-1234' });
    expect(config.path).toBe(join(dir, 'config.json'));
    expect(await modeOf(config.path)).toBe(0o600);
  });

  it('is tightened back to 0600 when found looser', async () => {
    const config = await openConfig({ dir });
    config.setProfile('default', { token: 'secret-token-1234' });
    await chmod(config.path, 0o644);
    await openConfig({ dir });
    expect(await modeOf(config.path)).toBe(0o600);
  });

  it('takes WSM_CONFIG_DIR when no directory is given', async () => {
    const config = await openConfig({ env: { WSM_CONFIG_DIR: dir } });
    expect(config.path).toBe(join(dir, 'config.json'));
  });

  it('keeps dotted profile names whole and removes keys set to undefined', async () => {
    const config = await openConfig({ dir });
    config.setProfile('eu.prod', { base_url: 'http://eu/api/v3', token: 't0ken-value-xyz' });
    config.setProfile('eu.prod', { token: undefined });
    expect(config.getProfile('eu.prod')).toEqual({ base_url: 'http://eu/api/v3' });
    expect(config.listProfiles().map((p) => p.name)).toEqual(['eu.prod']);
  });

  it('useProfile refuses unknown names; deleteProfile clears current', async () => {
    const config = await openConfig({ dir });
    expect(config.useProfile('ghost')).toBe(false);
    config.setProfile('a', { base_url: 'http://a' });
    expect(config.useProfile('a')).toBe(true);
    expect(config.currentName()).toBe('a');
    expect(config.deleteProfile('a')).toBe(true);
    expect(config.currentName()).toBeUndefined();
  });
});

describe('saveLocalProfile (wsm serve)', () => {
  it('becomes current when no profile is current', async () => {
    await saveLocalProfile({ baseUrl: 'http://127.0.0.1:8080/api/v3', token: 'local-token-123456' }, { dir });
    const config = await openConfig({ dir });
    expect(config.currentName()).toBe('local');
    expect(config.getProfile('local')?.token).toBe('local-token-123456');
  });

  it('writes into a ConfigStore it is given (the CLI context one)', async () => {
    const config = await openConfig({ dir });
    await saveLocalProfile({ baseUrl: 'http://127.0.0.1:8080/api/v3', token: 'local-token-123456', workspace: 'ws' }, { config });
    expect(config.getProfile('local')).toEqual({ base_url: 'http://127.0.0.1:8080/api/v3', token: 'local-token-123456', workspace: 'ws' });
  });

  it('never displaces another current profile', async () => {
    const config = await openConfig({ dir });
    config.setProfile('prod', { base_url: 'https://prod/api/v3' });
    config.useProfile('prod');
    await saveLocalProfile({ baseUrl: 'http://127.0.0.1:8080/api/v3', token: 'local-token-123456' }, { dir });
    expect((await openConfig({ dir })).currentName()).toBe('prod');
  });
});

describe('settings precedence: flag > env > profile', () => {
  const env = { WSM_BASE_URL: 'http://env/api/v3', WSM_TOKEN: 'env-token', WSM_WORKSPACE: 'env-ws' };

  it('uses the profile when nothing else is given', async () => {
    const config = await openConfig({ dir });
    config.setProfile('default', { base_url: 'http://profile/api/v3/', token: 'profile-token', workspace: 'profile-ws' });
    const s = resolveSettings(globals(), {}, config);
    expect(s).toMatchObject({ profileName: 'default', baseUrl: 'http://profile/api/v3', token: 'profile-token', workspace: 'profile-ws' });
    expect(s.sources).toEqual({ baseUrl: 'profile', token: 'profile', workspace: 'profile' });
  });

  it('env beats profile, flag beats env', async () => {
    const config = await openConfig({ dir });
    config.setProfile('default', { base_url: 'http://profile', token: 'profile-token', workspace: 'profile-ws' });
    expect(resolveSettings(globals(), env, config)).toMatchObject({
      baseUrl: 'http://env/api/v3',
      token: 'env-token',
      workspace: 'env-ws',
    });
    const s = resolveSettings(globals({ baseUrl: 'http://flag', token: 'flag-token', workspace: 'flag-ws' }), env, config);
    expect(s).toMatchObject({ baseUrl: 'http://flag', token: 'flag-token', workspace: 'flag-ws' });
    expect(s.sources).toEqual({ baseUrl: 'flag', token: 'flag', workspace: 'flag' });
  });

  it('picks the profile by --profile, then WSM_PROFILE, then current, then "default"', async () => {
    const config = await openConfig({ dir });
    for (const name of ['a', 'b', 'c']) config.setProfile(name, { token: `token-${name}` });
    config.useProfile('c');
    expect(resolveSettings(globals({ profile: 'a' }), { WSM_PROFILE: 'b' }, config).token).toBe('token-a');
    expect(resolveSettings(globals(), { WSM_PROFILE: 'b' }, config).token).toBe('token-b');
    expect(resolveSettings(globals(), {}, config).token).toBe('token-c');
    config.deleteProfile('c');
    expect(resolveSettings(globals(), {}, config).profileName).toBe('default');
  });

  it('applies end to end: `profile show` follows WSM_PROFILE and --profile', async () => {
    const config = await openConfig({ dir });
    config.setProfile('a', { base_url: 'http://a' });
    config.setProfile('b', { base_url: 'http://b' });
    const viaEnv = await runCli(['profile', 'show', '-o', 'json'], { configDir: dir, env: { WSM_PROFILE: 'b' } });
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({ name: 'b', base_url: 'http://b' });
    const viaFlag = await runCli(['profile', 'show', '-o', 'json', '--profile', 'a'], { configDir: dir, env: { WSM_PROFILE: 'b' } });
    expect(JSON.parse(viaFlag.stdout)).toMatchObject({ name: 'a', base_url: 'http://a' });
  });
});
