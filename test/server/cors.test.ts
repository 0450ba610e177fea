/**
 * CORS (`wsm serve --cors <origin>`): preflights answered on every route for the origins
 * named, CORS headers on every answer to them, errors included; nothing for other origins, and
 * nothing at all when no origin is named. The real browser's view is test/e2e/browser-cors.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { normalizeOrigin } from '../../src/cli/values.js';

const APP = 'http://127.0.0.1:5173';
const OTHER = 'http://127.0.0.1:6000';
let plain: Harness;
let listed: Harness;
let any: Harness;
beforeAll(async () => {
  [plain, listed, any] = await Promise.all([createHarness(), createHarness({ corsOrigins: [APP] }), createHarness({ corsOrigins: ['*'] })]);
});
afterAll(async () => Promise.all([plain?.close(), listed?.close(), any?.close()]));

const preflight = (h: Harness, url: string, origin: string, method = 'POST') =>
  h.call({
    method: 'OPTIONS',
    url,
    token: null,
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' },
  });
const corsHeaders = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-')));

describe('with --cors <origin>', () => {
  it('answers the preflight of every route for that origin: methods, Authorization, Content-Type, Accept, a max age', async () => {
    const routes = listed.app.routeTable.filter((route) => route.url.startsWith('/api/v3/'));
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      const url = route.url.replace(':workspace', listed.ws).replace(/:[a-z]+/g, '1');
      const res = await preflight(listed, url, APP, route.method);
      expect({ status: res.statusCode, cors: corsHeaders(res.headers) }, `${route.method} ${url}`).toEqual({
        status: 204,
        cors: {
          'access-control-allow-origin': APP,
          'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
          'access-control-allow-headers': 'Authorization, Content-Type, Accept',
          'access-control-expose-headers': 'Retry-After, Server-Timing, Allow',
          'access-control-max-age': '600',
        },
      });
      expect(res.headers.vary).toContain('Origin');
    }
  });

  it('adds Access-Control-Allow-Origin to every answer to that origin, errors included', async () => {
    const ws = `/api/v3/workspaces/${listed.ws}`;
    const answers = [
      await listed.call({ method: 'GET', url: `${ws}/contacts`, headers: { origin: APP } }),
      await listed.call({ method: 'POST', url: `${ws}/labels`, payload: { name: '' }, headers: { origin: APP } }),
      await listed.call({ method: 'GET', url: `${ws}/contacts`, token: null, headers: { origin: APP } }),
      await listed.call({ method: 'GET', url: `${ws}/labels/999999`, headers: { origin: APP } }),
      await listed.call({ method: 'DELETE', url: `${ws}/labels`, headers: { origin: APP } }),
      await listed.call({ method: 'GET', url: '/api/v3/nowhere', headers: { origin: APP } }),
    ];
    expect(
      answers.map((res) => [res.statusCode, res.headers['access-control-allow-origin'], res.headers['access-control-expose-headers']]),
    ).toEqual([200, 422, 401, 404, 405, 404].map((status) => [status, APP, 'Retry-After, Server-Timing, Allow']));
  });

  it('gives another origin no CORS header, so its browser blocks the page; a plain OPTIONS still answers Allow', async () => {
    const refused = await preflight(listed, `/api/v3/workspaces/${listed.ws}/labels`, OTHER);
    expect(corsHeaders(refused.headers)).toEqual({});
    const read = await listed.call({ method: 'GET', url: `/api/v3/workspaces/${listed.ws}/contacts`, headers: { origin: OTHER } });
    expect({ status: read.statusCode, cors: corsHeaders(read.headers) }).toEqual({ status: 200, cors: {} });
    const noOrigin = await listed.call({ method: 'GET', url: `/api/v3/workspaces/${listed.ws}/contacts` });
    expect({ status: noOrigin.statusCode, cors: corsHeaders(noOrigin.headers) }).toEqual({ status: 200, cors: {} });
    const options = await listed.call({ method: 'OPTIONS', url: `/api/v3/workspaces/${listed.ws}/labels`, token: null });
    expect({ status: options.statusCode, allow: options.headers.allow, cors: corsHeaders(options.headers) }).toEqual({
      status: 204,
      allow: 'GET, HEAD, POST, OPTIONS',
      cors: {},
    });
  });

  it('with *, allows any origin', async () => {
    const res = await any.call({ method: 'GET', url: `/api/v3/workspaces/${any.ws}/contacts`, headers: { origin: OTHER } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('without --cors', () => {
  it('answers no CORS header at all: a preflight is an OPTIONS like any other (204 with Allow)', async () => {
    const res = await preflight(plain, `/api/v3/workspaces/${plain.ws}/labels`, APP);
    expect({ status: res.statusCode, allow: res.headers.allow, cors: corsHeaders(res.headers) }).toEqual({
      status: 204,
      allow: 'GET, HEAD, POST, OPTIONS',
      cors: {},
    });
    const read = await plain.call({ method: 'GET', url: `/api/v3/workspaces/${plain.ws}/contacts`, headers: { origin: APP } });
    expect(corsHeaders(read.headers)).toEqual({});
  });
});

describe('an origin as --cors takes it', () => {
  it('is scheme, host and port, compared as a browser sends it; anything more is refused', () => {
    expect(['http://localhost:5173', 'HTTP://LocalHost:5173/', 'https://app.example.com:443', '*'].map(normalizeOrigin)).toEqual([
      'http://localhost:5173',
      'http://localhost:5173',
      'https://app.example.com',
      '*',
    ]);
    for (const bad of ['localhost:5173', 'http://localhost:5173/app', 'http://a@localhost', 'ftp://x', 'http://x?y', 'null', ''])
      expect(normalizeOrigin(bad), bad).toBeUndefined();
  });
});
