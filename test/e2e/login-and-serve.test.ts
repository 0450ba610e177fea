/**
 * Logging in from scripts and running more than one `wsm serve`: the real `wsm` binary against a
 * real `wsm serve`, with nothing on a terminal (as CI runs them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, serve, wsm, type Served } from './processes.js';

let server: Served;
let token: string;
beforeAll(async () => {
  server = await serve();
  token = savedProfiles(server).local.token;
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
  cleanup(server.dir);
});

function savedProfiles(served: Served): Record<string, { base_url: string; token: string; workspace?: string }> {
  return JSON.parse(readFileSync(join(served.dir, 'config', 'config.json'), 'utf8')).profiles;
}

describe('auth login in a script', () => {
  it('a token reaching two workspaces: saved without one and made current, and stderr says so although piped', async () => {
    expect((await wsm(server.env, ['workspace', 'create', 'Second'])).code).toBe(0);
    const login = await wsm(server.env, ['auth', 'login', '--profile', 'ci', '--with-token', '--base-url', server.url], token + '\n');
    expect(login.code).toBe(0);
    expect(login.stdout).toBe('');
    expect(login.stderr).toBe('warning: no workspace chosen: this token reaches 2 workspaces and none is picked without a terminal; profile "ci" is now current without one: pass -w <uuid> or run `wsm workspace use`\n');
    const profiles = await wsm(server.env, ['profile', 'list', '-o', 'json']);
    expect(JSON.parse(profiles.stdout)).toContainEqual(expect.objectContaining({ name: 'ci', current: true }));
    const after = await wsm(server.env, ['contacts', 'list']);
    expect(after.code).toBe(2);
    expect(after.stderr).toMatch(/^error: no workspace/);
    expect((await wsm(server.env, ['profile', 'use', 'local'])).code).toBe(0);
  });
});
