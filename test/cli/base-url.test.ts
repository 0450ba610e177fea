// A wrong base URL is said as such: the CLI in-process against a real app listening on
// 127.0.0.1 (real HTTP, real SQLite), whose router answers a path outside /api/v3 with the API's
// own 404 body, so only asking the server tells a wrong base from a missing workspace.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConfig } from '../../src/cli/config.js';
import { createHarness, type Harness } from '../server/harness.js';
import { runCli, tempDir } from './helpers.js';

let h: Harness;
let origin: string;
let config: { dir: string; cleanup: () => Promise<void> };
/** Requests the server saw, in order: `GET /api/v3/workspaces/… 401`. */
const seen: string[] = [];

beforeAll(async () => {
  h = await createHarness();
  // The node server under fastify: every request it answers, whatever route (or none) took it.
  h.app.server.on('request', (req, res) => res.on('finish', () => seen.push(`${req.method} ${req.url!.split('?')[0]} ${res.statusCode}`)));
  origin = (await h.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  config = await tempDir();
});
afterAll(async () => {
  await h?.close();
  await config?.cleanup();
});

function run(argv: string[], env: Record<string, string> = {}) {
  seen.length = 0;
  return runCli(argv, { configDir: config.dir, env: { WSM_TOKEN: h.token, WSM_WORKSPACE: h.ws, ...env } });
}

describe('a base URL that does not answer like the API', () => {
  it('from --base-url: /api/v2 is named as the wrong path, with the URL that answers (exit 4), not blamed on the workspace', async () => {
    const { code, stdout, stderr } = await run(['--base-url', `${origin}/api/v2`, 'labels', 'list']);
    expect({ code, stdout }).toEqual({ code: 4, stdout: '' });
    expect(stderr).toBe(
      `error: ${origin}/api/v2 (from --base-url) does not answer like the Workspace Messaging API: is /api/v3 the right path? ${origin}/api/v3 does: pass --base-url ${origin}/api/v3\n`,
    );
    // The failed request, then the probes without a token, side by side.
    expect(seen[0]).toBe(`GET /api/v2/workspaces/${h.ws}/labels 404`);
    expect(seen.slice(1).sort()).toEqual([
      'GET /api/v2/workspaces/00000000-0000-0000-0000-000000000000 404',
      'GET /api/v3/workspaces/00000000-0000-0000-0000-000000000000 401',
    ]);
  });

  it("from WSM_BASE_URL: the docs page is no base, and the fix is the host's /api/v3, not /docs/api/v3", async () => {
    const { code, stderr } = await run(['contacts', 'get', '4'], { WSM_BASE_URL: `${origin}/docs` });
    expect(code).toBe(4);
    expect(stderr).toBe(
      `error: ${origin}/docs (from WSM_BASE_URL) does not answer like the Workspace Messaging API: is /api/v3 the right path? ${origin}/api/v3 does: set WSM_BASE_URL=${origin}/api/v3\n`,
    );
  });

  it('from a profile: names the profile, and the command that fixes it keeps the --profile given', async () => {
    const store = await openConfig({ dir: config.dir });
    store.setProfile('broken', { base_url: origin, token: h.token, workspace: h.ws });
    const { code, stderr } = await runCli(['--profile', 'broken', 'groups', 'list'], { configDir: config.dir, env: {} });
    expect(code).toBe(4);
    expect(stderr).toBe(
      `error: ${origin}, the base URL of profile "broken" in ${join(config.dir, 'config.json')}, does not answer like the Workspace Messaging API: is /api/v3 the right path? ${origin}/api/v3 does: run \`wsm profile set base-url ${origin}/api/v3 --profile broken\`\n`,
    );
  });

  it('a path under the API that is not its base: -o json gets the sentence and exit code; -v adds the request that failed', async () => {
    const { code, stdout, stderr } = await run(['--base-url', `${origin}/api/v3/files`, '-o', 'json', '-v', 'roles', 'list']);
    expect(code).toBe(4);
    expect(stderr.trim().split('\n').at(-1)).toBe(
      `error: ${origin}/api/v3/files (from --base-url) does not answer like the Workspace Messaging API (404 on GET /api/v3/files/workspaces/${h.ws}/roles): is /api/v3 the right path? ${origin}/api/v3 does: pass --base-url ${origin}/api/v3`,
    );
    expect(JSON.parse(stdout).error).toMatchObject({
      exit_code: 4,
      message: expect.stringContaining('does not answer like the Workspace Messaging API'),
    });
  });

  it('a server that is not the API at all (another web server on /api/v3): asks whether it is the right server', async () => {
    const other = createServer((_, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(other.address() as AddressInfo).port}/api/v3`;
    try {
      const { code, stderr } = await run(['labels', 'list'], { WSM_BASE_URL: base });
      expect({ code, stderr }).toEqual({
        code: 4,
        stderr: `error: ${base} (from WSM_BASE_URL) does not answer like the Workspace Messaging API: is it the right server?\n`,
      });
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('auth login says so before saving anything, and the fix is logging in with the URL that answers', async () => {
    const { code, stderr } = await runCli(['auth', 'login', '--profile', 'typo', '--base-url', `${origin}/api/v2`, '--with-token'], {
      configDir: config.dir,
      env: {},
      stdin: h.token,
    });
    expect(code).toBe(4);
    expect(stderr).toBe(
      `error: ${origin}/api/v2 (from --base-url) does not answer like the Workspace Messaging API: is /api/v3 the right path? ${origin}/api/v3 does: run \`wsm auth login --base-url ${origin}/api/v3 --profile typo\` (nothing was saved)\n`,
    );
    expect((await openConfig({ dir: config.dir })).getProfile('typo')).toBeUndefined();
  });
});

describe('a base URL that answers like the API', () => {
  it('a working command costs no extra request: exactly the one it makes', async () => {
    const { code } = await run(['groups', 'list'], { WSM_BASE_URL: `${origin}/api/v3` });
    expect(code).toBe(0);
    expect(seen).toEqual([`GET /api/v3/workspaces/${h.ws}/contact-groups 200`]);
  });

  it('a 404 that means what it says is said as before, after one probe that the server answered 401', async () => {
    const missing = await run(['contacts', 'get', '999'], { WSM_BASE_URL: `${origin}/api/v3` });
    expect({ code: missing.code, stderr: missing.stderr }).toEqual({ code: 4, stderr: 'error: contact 999 not found\n' });
    expect(seen).toEqual([
      `GET /api/v3/workspaces/${h.ws}/contacts/999 404`,
      'GET /api/v3/workspaces/00000000-0000-0000-0000-000000000000 401',
    ]);
    const other = randomUUID();
    const notMine = await run(['labels', 'list'], { WSM_BASE_URL: `${origin}/api/v3`, WSM_WORKSPACE: other });
    expect({ code: notMine.code, stderr: notMine.stderr }).toEqual({
      code: 4,
      stderr: `error: workspace ${other} (from WSM_WORKSPACE) not found or not yours\n`,
    });
  });
});

describe('wsm serve answers its root and its base path with an index', () => {
  it('GET / and GET /api/v3 (no token needed) point to the docs page and the OpenAPI document', async () => {
    for (const path of ['/', '/api/v3', '/api/v3/']) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(await res.json()).toEqual({
        data: {
          name: 'Workspace Messaging Management API',
          version: '1.0.0',
          base_url: `${origin}/api/v3`,
          docs: `${origin}/docs`,
          openapi: `${origin}/api/v3/openapi.json`,
        },
      });
    }
    expect((await fetch(`${origin}/api/v3/openapi.json`)).status).toBe(200);
    expect((await fetch(`${origin}/docs`)).status).toBe(200);
  });
});
