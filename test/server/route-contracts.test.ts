// The server's routes are the operations of the resource descriptions (src/api/descriptions):
// method, path, access and published-or-extension come from there, and a route whose handler
// names a schema other than its description's cannot be built.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESCRIPTIONS, OPERATIONS } from '../../src/api/descriptions/index.js';
import * as s from '../../src/api/schemas/index.js';
import Fastify from 'fastify';
import multipart from '@fastify/multipart';
import { described, useContracts, type RouteContract } from '../../src/server/http/contract.js';
import { registerErrorHandling } from '../../src/server/http/errors.js';
import { openApiPath } from '../../src/server/openapi/document.js';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
let api: Harness;
beforeAll(async () => {
  [h, api] = await Promise.all([createHarness(), createHarness({ apiOnly: true })]);
});
afterAll(async () => Promise.all([h.close(), api.close()]));

const accessOf = (route: { public?: boolean; partnerOnly?: boolean; permission?: string }) =>
  route.public ? 'public' : route.partnerOnly ? 'partner' : (route.permission ?? 'authenticated');

describe('the route table', () => {
  it('has one route per described operation, with its access, its schemas and its published flag', () => {
    const routes = h.app.routeTable.filter((route) => openApiPath(route.url) !== undefined && route.url !== '/api/v3/openapi.json');
    expect(routes).toHaveLength(OPERATIONS.length);
    for (const operation of OPERATIONS) {
      const where = `${operation.method} ${operation.path}`;
      const route = routes.find((r) => r.method === operation.method && openApiPath(r.url) === operation.path);
      expect(route, where).toBeDefined();
      expect(accessOf(route!), where).toBe(typeof operation.access === 'object' ? operation.access.permission : operation.access);
      const contract = route!.schema as RouteContract;
      expect(contract.published, where).toBe(operation.published);
      expect(contract.querystring, where).toBe(operation.query);
      expect(contract.body, where).toBe(operation.body);
      expect(contract.summary, where).toBe(operation.summary);
    }
  });

  it('refuses, as the app is built, a route that reads a schema other than its description', () => {
    expect(() => described(DESCRIPTIONS.labels.operations.update, { body: s.labelCreateBody })).toThrow(
      'PUT /workspaces/{workspace}/labels/{label}: the route reads a body schema other than its description',
    );
    expect(() => described(DESCRIPTIONS.labels.operations.list, { querystring: s.labelListQuery })).not.toThrow();
  });
});

describe('validation', () => {
  it("checks every route's query and JSON body in one hook, with the declared schemas, whatever its handler reads", async () => {
    const app = Fastify();
    registerErrorHandling(app);
    await app.register(multipart);
    const { list, create } = DESCRIPTIONS.labels.operations;
    await app.register(async (api) => {
      useContracts(api);
      // Handlers that ask for nothing: what they see is what the hook made of the request.
      api.route({ ...described(list), handler: async (request) => ({ got: request.query }) });
      api.route({ ...described(create), handler: async (request) => ({ got: request.body }) });
    });
    const url = '/workspaces/w/labels';
    const refused = await app.inject({ method: 'POST', url, payload: { name: ' ', color: 'red' } });
    expect({ status: refused.statusCode, body: refused.json() }).toEqual({
      status: 422,
      body: {
        message: 'Validation error',
        errors: { name: ['The name field is required.'], color: ['The color field must be a hex colour such as #1a2b3c.'] },
      },
    });
    expect((await app.inject({ method: 'POST', url, payload: { name: '  Hot  ' } })).json()).toEqual({ got: { name: 'Hot' } });
    const badPage = await app.inject({ method: 'GET', url: `${url}?per_page=0` });
    expect({ status: badPage.statusCode, body: badPage.json() }).toEqual({
      status: 422,
      body: { message: 'Validation error', errors: { per_page: ['The per page field must be at least 1.'] } },
    });
    expect((await app.inject({ method: 'GET', url })).json()).toEqual({ got: { page: 1, per_page: 10 } });
    await app.close();
  });

  it('a route whose path names a record and whose input is checked cannot be built without a way to find that record', async () => {
    const app = Fastify();
    const built = async () => {
      await app.register(async (api) => {
        useContracts(api);
        api.route({ ...described(DESCRIPTIONS.labels.operations.update), handler: async () => ({}) });
      });
      await app.ready();
    };
    await expect(built()).rejects.toThrow('PUT /workspaces/:workspace/labels/:label: no way to find the labels record its path names');
    await app.close();
  });

  it('runs after authorisation: a stranger gets 404 and a member without the permission 403, never the 422', async () => {
    const url = `/api/v3/workspaces/${h.ws}/labels`;
    const stranger = await h.call({ method: 'POST', url, payload: { name: '' }, token: await h.outsider() });
    expect(stranger.statusCode).toBe(404);
    const member = await h.call({
      method: 'POST',
      url: `${url}?per_page=0`,
      payload: { name: '' },
      token: await h.memberWith(['labels.view']),
    });
    expect(member.statusCode).toBe(403);
  });
});

describe('wsm serve --api-only, from the descriptions', () => {
  it('answers HEAD of an extension 404 like its GET, and HEAD of a published GET as usual', async () => {
    const extension = await api.call({ method: 'HEAD', url: `/api/v3/workspaces/${api.ws}/labels` });
    expect(extension.statusCode).toBe(404);
    const published = await api.call({ method: 'HEAD', url: `/api/v3/workspaces/${api.ws}/contacts` });
    expect(published.statusCode).toBe(200);
  });

  it('points its index only at what answers, and describes the published API alone in /api/v3/openapi.json and /docs', async () => {
    const index = (await api.call({ method: 'GET', url: '/', token: null })).json().data;
    for (const link of [index.base_url, index.docs, index.openapi]) {
      const res = await api.call({ method: 'GET', url: new URL(link).pathname, token: null });
      expect(res.statusCode, link).toBe(200);
    }
    const published = OPERATIONS.filter((operation) => operation.published).map((operation) => `${operation.method} ${operation.path}`);
    const operationsOf = (document: { paths: Record<string, Record<string, unknown>> }) =>
      Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    const served = (await api.call({ method: 'GET', url: '/api/v3/openapi.json', token: null })).json();
    expect(operationsOf(served).sort()).toEqual([...published, 'GET /openapi.json'].sort());
    const shownByDocs = (await api.call({ method: 'GET', url: '/docs/json', token: null })).json();
    expect(operationsOf(shownByDocs).sort()).toEqual(operationsOf(served).sort());
    // The full server still documents every operation.
    expect(operationsOf((await h.call({ method: 'GET', url: '/api/v3/openapi.json', token: null })).json())).toHaveLength(
      OPERATIONS.length + 1,
    );
  });

  it('names in Allow only the published methods of a path', async () => {
    // POST /users (create) is an extension; GET /users is published.
    const res = await api.call({ method: 'DELETE', url: `/api/v3/workspaces/${api.ws}/users` });
    expect({ status: res.statusCode, allow: res.headers.allow }).toEqual({ status: 405, allow: 'GET, HEAD, OPTIONS' });
  });
});
