/**
 * A browser app against `wsm serve --cors`, in a real headless Chromium (Debian's
 * `chromium`; .ci/run installs it): a page served from another loopback origin that is listed
 * lists contacts and creates a label, with a bearer token, through the browser's own CORS checks;
 * the same page from an origin not listed is blocked by the browser, and its label never reaches
 * the server. Without chromium this test fails, saying how to install it.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, localProfile, serve, type Served } from './processes.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** The app: lists contacts and creates a label through the API named in its query, and says what happened. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>app</title><script>
const q = new URLSearchParams(location.search);
const api = q.get('api');
const headers = { Authorization: 'Bearer ' + q.get('token'), Accept: 'application/json' };
window.result = (async () => {
  const out = {};
  try {
    const list = await fetch(api + '/workspaces/' + q.get('ws') + '/contacts', { headers });
    out.list = { status: list.status, total: (await list.json()).meta.total };
  } catch (error) { out.list = { error: String(error) }; }
  try {
    const made = await fetch(api + '/workspaces/' + q.get('ws') + '/labels', {
      method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: q.get('label'), color: '#00aa00' }),
    });
    out.create = { status: made.status, name: (await made.json()).data.name };
  } catch (error) { out.create = { error: String(error) }; }
  return out;
})();
</script>`;

function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

let api: Served | undefined;
let listed: Awaited<ReturnType<typeof pageServer>>;
let unlisted: Awaited<ReturnType<typeof pageServer>>;
let profile: { token: string; workspace: string };
const dirs: string[] = [];

beforeAll(async () => {
  [listed, unlisted] = await Promise.all([pageServer(), pageServer()]);
  api = await serve(['--cors', listed.origin]);
  dirs.push(api.dir);
  profile = localProfile(api);
  const made = await fetch(`${api.url}/workspaces/${profile.workspace}/contacts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${profile.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ number: '5550101000', name: 'Browser Friend' }),
  });
  expect(made.status).toBe(201);
});
afterAll(async () => {
  await api?.stop();
  listed?.server.close();
  unlisted?.server.close();
  for (const dir of dirs) cleanup(dir);
});

/** What the page reports when opened from `origin` in a fresh headless Chromium. */
async function openApp(origin: string, label: string): Promise<{ list: Record<string, unknown>; create: Record<string, unknown> }> {
  // Never a skip: a machine without chromium cannot say that browsers can use the server.
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM to a Chromium binary`);
  const { chromium } = await import('playwright-core');
  const profileDir = mkdtempSync(join(tmpdir(), 'wsm-chromium-'));
  dirs.push(profileDir);
  // Chromium makes its singleton socket in its temp folder and a socket's path holds at most 107
  // bytes: it gets the system's default temp folder, whatever the length of the suite's TMPDIR.
  const { TMPDIR: _suiteTmp, ...env } = process.env;
  const browser = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    env,
  });
  try {
    const page = await browser.newPage();
    const query = new URLSearchParams({ api: api!.url, token: profile.token, ws: profile.workspace, label });
    await page.goto(`${origin}/app.html?${query}`);
    return await page.evaluate(
      () => (globalThis as unknown as { result: Promise<{ list: Record<string, unknown>; create: Record<string, unknown> }> }).result,
    );
  } finally {
    await browser.close();
  }
}

const labelNames = async () => {
  const res = await fetch(`${api!.url}/workspaces/${profile.workspace}/labels?per_page=100`, {
    headers: { authorization: `Bearer ${profile.token}` },
  });
  return ((await res.json()) as { data: Array<{ name: string }> }).data.map((label) => label.name);
};

describe('a browser app on another loopback origin', () => {
  it('listed in --cors: lists contacts and creates a label with its bearer token', async () => {
    expect(await openApp(listed.origin, 'Made in a browser')).toEqual({
      list: { status: 200, total: 1 },
      create: { status: 201, name: 'Made in a browser' },
    });
    expect(await labelNames()).toContain('Made in a browser');
  });

  it('not listed: the browser blocks both calls, and the label is never sent', async () => {
    expect(await openApp(unlisted.origin, 'Blocked label')).toEqual({
      list: { error: 'TypeError: Failed to fetch' },
      create: { error: 'TypeError: Failed to fetch' },
    });
    expect(await labelNames()).not.toContain('Blocked label');
  });
});

describe('--cors *', () => {
  it('lets any origin in, and says so on stderr as a warning', async () => {
    const open = await serve(['--cors', '*']);
    dirs.push(open.dir);
    const res = await fetch(`${open.url}/openapi.json`, { headers: { origin: 'http://anywhere.test' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await open.stop()).toBe(0);
    expect(open.stderr()).toContain(
      'warning: --cors *: a page from any site may call this API with a token it holds; name the origins of your app instead',
    );
  });
});
