import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, serve, type Served } from './processes.js';

let server: Served | undefined;
const dirs: string[] = [];
afterEach(async () => {
  if (server && server.process.exitCode === null) await server.kill();
  server = undefined;
  for (const dir of dirs.splice(0)) cleanup(dir);
});

function localProfile(dir: string) {
  const file = join(dir, 'config', 'config.json');
  const config = JSON.parse(readFileSync(file, 'utf8'));
  return { mode: statSync(file).mode & 0o777, current: config.current, profile: config.profiles.local };
}

describe('wsm serve (real process)', () => {
  it('seeds, listens on 127.0.0.1, saves the local profile, and serves the API over HTTP', async () => {
    server = await serve(['--approval-delay', '0']);
    dirs.push(server.dir);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);
    const { mode, current, profile } = localProfile(server.dir);
    expect(mode).toBe(0o600);
    expect(current).toBe('local');
    expect(profile.base_url).toBe(server.url);
    const auth = { authorization: `Bearer ${profile.token}`, 'content-type': 'application/json' };

    const made = await fetch(`${server.url}/workspaces/${profile.workspace}/labels`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'VIP', color: '#ff0000' }),
    });
    expect(made.status).toBe(201);
    expect(await made.json()).toMatchObject({
      status: 201,
      message: 'Label created successfully.',
      data: { name: 'VIP', color: '#ff0000' },
    });
    const denied = await fetch(`${server.url}/workspaces/${profile.workspace}/labels`);
    expect(denied.status).toBe(401);
    expect(await denied.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('stops gracefully on SIGTERM with exit 0 and keeps data and token across a restart', async () => {
    server = await serve();
    dirs.push(server.dir);
    const first = localProfile(server.dir).profile;
    const auth = { authorization: `Bearer ${first.token}`, 'content-type': 'application/json' };
    await fetch(`${server.url}/workspaces/${first.workspace}/roles`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Agent' }),
    });
    expect(await server.stop()).toBe(0);
    // better-sqlite3 12 aborted here on Node 24 (a native assertion in a statement's destructor).
    expect(server.stderr()).not.toMatch(/Assertion failed|SIGABRT|node::/);

    server = await serve([], server.dir);
    const second = localProfile(server.dir).profile;
    expect(second.token).toBe(first.token);
    expect(second.workspace).toBe(first.workspace);
    const roles = await fetch(`${server.url}/workspaces/${second.workspace}/roles`, {
      headers: { authorization: `Bearer ${second.token}` },
    });
    expect(((await roles.json()) as { data: Array<{ name: string }> }).data.map((r: { name: string }) => r.name)).toEqual([
      'Owner',
      'Agent',
    ]);
    expect(await server.stop()).toBe(0);
    // The token is not printed again, but how to read it is, on every start.
    expect(server.stderr()).toMatch(/^Workspace \S+; profile "local" saved; admin token: `wsm auth token --profile local` prints it\n$/);
  });

  it('refuses a bad flag with exit 2 and one clear line', async () => {
    const { wsm, testEnv } = await import('./processes.js');
    const res = await wsm(testEnv('/tmp/wsm-e2e-none'), ['serve', '--port', 'abc']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/port/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});
