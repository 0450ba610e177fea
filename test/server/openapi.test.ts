import SwaggerParser from '@apidevtools/swagger-parser';
import { VISIBLE_PATTERN } from '../../src/api/schemas/common.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { openApiPath } from '../../src/server/openapi/document.js';
import { isPublished, PUBLISHED_OPERATIONS } from '../../src/server/openapi/published.js';

let h: Harness;
let doc: any;
beforeAll(async () => {
  h = await createHarness();
  const res = await h.call({ method: 'GET', url: '/api/v3/openapi.json', token: null });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => h?.close());

const apiRoutes = () =>
  h.app.routeTable.filter((route) => openApiPath(route.url) !== undefined).map((route) => ({ ...route, path: openApiPath(route.url)! }));

describe('GET /api/v3/openapi.json', () => {
  it('is a public OpenAPI 3.1 document with the bearer scheme and the /api/v3 server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Workspace Messaging Management API', version: '1.0.0' });
    expect(doc.servers).toEqual([{ url: '/api/v3' }]);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('has one operation for every route of the route table, and nothing else', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation.responses).toBeDefined();
      expect(operation.summary).toEqual(expect.any(String));
    }
    const documented = Object.values(doc.paths).reduce((n: number, ops: any) => n + Object.keys(ops).length, 0);
    expect(documented).toBe(new Set(routes.map((r) => `${r.method} ${r.path}`)).size);
    const ids = Object.values(doc.paths).flatMap((ops: any) => Object.values(ops).map((op: any) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('marks public operations and the errors each route can answer', () => {
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
    const create = doc.paths['/workspaces/{workspace}/templates'].post;
    expect(create.security).toBeUndefined();
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '401', '403', '404', '413', '422']));
    expect(create.parameters).toEqual([{ name: 'workspace', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }]);
    expect(create.description).toContain('templates.create');
    const getOne = doc.paths['/workspaces/{workspace}/templates/{template}'].get;
    expect(getOne.responses['404'].content['application/json'].schema.anyOf).toContainEqual({ $ref: '#/components/schemas/TemplateError' });
    expect(doc.paths['/workspaces/{workspace}/labels/{label}'].get.responses['404'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/StatusError',
    });
  });

  it('lists what the server really answers: 413 on every write, the types of a stored file, page bounds, the transport errors', () => {
    for (const [path, operations] of Object.entries(doc.paths) as Array<[string, Record<string, any>]>) {
      for (const [method, operation] of Object.entries(operations)) {
        const codes = Object.keys(operation.responses);
        const listed = { has422: codes.includes('422'), has503: codes.includes('503'), hasDefault: codes.includes('default') };
        expect({ operation: `${method} ${path}`, ...listed }).toEqual({
          operation: `${method} ${path}`,
          has422: true,
          has503: true,
          hasDefault: true,
        });
        if (method !== 'get')
          expect({ operation: `${method} ${path}`, codes }).toEqual({
            operation: `${method} ${path}`,
            codes: expect.arrayContaining(['413', '422']),
          });
      }
    }
    expect(Object.keys(doc.paths['/files/{file}'].get.responses['200'].content)).toEqual([
      'image/png',
      'image/jpeg',
      'image/gif',
      'image/webp',
    ]);
    const [page, perPage] = doc.paths['/workspaces/{workspace}/labels'].get.parameters.slice(1);
    expect(page.schema).toMatchObject({ type: 'integer', minimum: 1 });
    expect(perPage.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(doc.paths['/me'].get.responses.default.description).toContain('431');
  });

  it('takes request and response schemas from the zod contract', () => {
    const create = doc.paths['/workspaces/{workspace}/templates'].post;
    const json = create.requestBody.content['application/json'].schema;
    expect(json.required).toEqual(['name', 'language', 'category']);
    expect(json.properties.name.pattern).toBe('^[a-z_]+$');
    expect(json.properties.buttons.maxItems).toBe(3);
    expect(json.properties.codeExpirationMinutes).toMatchObject({ minimum: 1, maximum: 1440 });
    const form = create.requestBody.content['multipart/form-data'].schema;
    expect(form.properties['header[media][file]']).toMatchObject({ type: 'string' });
    const created = create.responses['201'].content['application/json'].schema;
    expect(created.properties.data.required).toEqual(
      expect.arrayContaining(['id', 'status', 'provider_id', 'rejection_reason', 'components']),
    );

    const list = doc.paths['/workspaces/{workspace}/templates'].get;
    expect(list.parameters.map((p: any) => p.name)).toEqual(['workspace', 'page', 'per_page', 'status', 'category', 'search']);
    expect(JSON.stringify(doc)).not.toContain('"$schema"');
  });

  it('is a valid OpenAPI 3.1 document for swagger-parser (schema and references)', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
  });

  it('declares multipart fields as what is sent: booleans as 1/0 (or true/false), integers as digits', () => {
    const form = doc.paths['/workspaces/{workspace}/contacts'].post.requestBody.content['multipart/form-data'];
    expect(Object.keys(form)).toEqual(['schema', 'encoding']);
    expect(form.schema.properties.status).toEqual({
      type: 'string',
      enum: ['1', '0', 'true', 'false'],
      description: 'Active (true, the default) or inactive (false).',
    });
    // An id is positive: `0` is refused, so the pattern does not allow it.
    expect(form.schema.properties.contact_groups.items).toEqual({ type: 'string', pattern: '^[1-9][0-9]*$' });
    // Objects and lists travel as bracket names, files as binary parts of the types the server takes.
    expect(form.encoding.fields).toEqual({ contentType: 'text/plain', style: 'deepObject', explode: true });
    expect(form.encoding.contact_groups).toEqual({ contentType: 'text/plain', style: 'deepObject', explode: true });
    expect(form.encoding.avatar).toEqual({ contentType: 'image/png, image/jpeg, image/gif, image/webp' });
    expect(form.schema.properties.avatar).toMatchObject({
      type: 'string',
      format: 'binary',
      description: expect.stringContaining('PNG, JPEG, GIF or WebP'),
    });
    const upload = doc.paths['/workspaces/{workspace}/contact-imports'].post.requestBody.content['multipart/form-data'];
    expect(upload.schema.properties.file).toMatchObject({ type: 'string', format: 'binary', contentMediaType: 'text/csv' });
    expect(upload.schema.properties.file.description).toContain('a header row naming a `number` column, UTF-8');
    const json = doc.paths['/workspaces/{workspace}/contacts'].post.requestBody.content['application/json'];
    expect(json.schema.properties.status.type).toBe('boolean');
    const user = doc.paths['/workspaces/{workspace}/users/{user}'].post.requestBody.content['multipart/form-data'];
    expect(user.schema.properties.client.enum).toEqual(['1', '0', 'true', 'false']);
  });

  it('marks exactly the operations outside the published API as extensions', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) =>
      Object.entries(ops).map(([method, op]: [string, any]) => ({ method, path, op })),
    );
    const marked = operations
      .filter(({ op }) => String(op.description ?? '').includes('Extension of the embedded server'))
      .map(({ method, path }) => `${method} ${path}`);
    const published = operations.filter(({ method, path }) => isPublished(method, path));
    expect(published).toHaveLength(PUBLISHED_OPERATIONS.length);
    expect(marked).toHaveLength(operations.length - published.length);
    expect(marked).toContain('get /me');
    expect(marked).toContain('get /workspaces/{workspace}/labels');
    expect(marked).not.toContain('put /workspaces/{workspace}/labels/{label}');
  });

  it('describes every route of the API contract in its schema', () => {
    const undescribed = apiRoutes()
      .filter((route) => !route.schema?.summary)
      .map((r) => `${r.method} ${r.path}`);
    expect(undescribed).toEqual([]);
  });
});

describe('/docs', () => {
  it('serves the interactive reference without a token, from local assets', async () => {
    const page = await h.call({ method: 'GET', url: '/docs', token: null });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger-ui');
    const bundle = await h.call({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js', token: null });
    expect(bundle.statusCode).toBe(200);
    const served = await h.call({ method: 'GET', url: '/docs/json', token: null });
    expect(served.json()).toEqual(doc);
  });

  it('is recorded as public in the route table', () => {
    const docs = h.app.routeTable.filter((route) => route.url.startsWith('/docs'));
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.every((route) => route.public)).toBe(true);
  });
});

describe('the token extensions in the document', () => {
  it('states expires_at, the 429 of POST /auth/tokens, and DELETE /auth/tokens/current', () => {
    const issue = doc.paths['/auth/tokens'].post;
    const data = issue.responses['201'].content['application/json'].schema.properties.data;
    expect(data.required).toEqual(expect.arrayContaining(['token', 'user_id', 'expires_at']));
    expect(issue.responses['429']).toMatchObject({ description: expect.stringContaining('Retry-After') });
    const revoke = doc.paths['/auth/tokens/current'].delete;
    expect(revoke).toMatchObject({ summary: 'Revoke the calling token', tags: ['Auth'] });
    expect(revoke.security).toBeUndefined();
    expect(Object.keys(revoke.responses)).toEqual(['200', '401', '413', '422', '503', 'default']);
    expect(revoke.responses['200'].content['application/json'].schema.required).toEqual(['message', 'status']);
  });
});

describe('wsm serve --api-only', () => {
  let api: Harness;
  beforeAll(async () => {
    api = await createHarness({ apiOnly: true });
  });
  afterAll(async () => api?.close());

  const concrete = (path: string) => path.replace('{workspace}', api.ws).replace(/\{[^}]+\}/g, '1');

  it('answers every extension as a router without it (404, no status) and every published operation as usual', async () => {
    const routes = api.app.routeTable
      .filter((route) => openApiPath(route.url) !== undefined)
      .map((route) => ({ ...route, path: openApiPath(route.url)! }));
    let extensions = 0;
    for (const route of routes) {
      const url = `/api/v3${concrete(route.path)}`;
      const res = await api.call({
        method: route.method as 'GET',
        url,
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      const routeMissing = res.statusCode === 404 && /could not be found/.test(res.json().message);
      // The document itself answers (the index points at it), describing the published API alone (route-contracts.test.ts).
      if (isPublished(route.method, route.path) || route.path === '/openapi.json') {
        expect(routeMissing, `${route.method} ${route.path} is published: ${res.body}`).toBe(false);
      } else {
        extensions += 1;
        expect(res.statusCode, `${route.method} ${route.path}`).toBe(404);
        expect(res.json(), `${route.method} ${route.path}`).toEqual({ message: `The route ${url.slice(1)} could not be found.` });
      }
    }
    expect(extensions).toBeGreaterThanOrEqual(20);
  });

  it('keeps the published operations working, before any token check for the others', async () => {
    const contacts = await api.call({ method: 'GET', url: `/api/v3/workspaces/${api.ws}/contacts` });
    expect(contacts.statusCode).toBe(200);
    const me = await api.call({ method: 'GET', url: '/api/v3/me', token: null });
    expect(me.statusCode).toBe(404);
  });
});

describe('what the document states of the rules the server enforces', () => {
  const body = (path: string, method: string, type = 'application/json') => doc.paths[path][method].requestBody.content[type].schema;
  const ws = '/workspaces/{workspace}';

  it('links every create to the get, update and delete of what it made, the id from data.id', () => {
    const linked = (path: string) => doc.paths[path].post.responses['201'].links;
    const ids = (path: string) =>
      Object.values(linked(path))
        .map((link: any) => link.operationId)
        .sort();
    expect(ids(`${ws}/labels`)).toEqual([
      'deleteWorkspacesWorkspaceLabelsLabel',
      'getWorkspacesWorkspaceLabelsLabel',
      'putWorkspacesWorkspaceLabelsLabel',
    ]);
    expect(ids(`${ws}/contact-imports`)).toEqual([
      'deleteWorkspacesWorkspaceContactImportsImport',
      'getWorkspacesWorkspaceContactImportsImport',
    ]);
    expect(ids(`${ws}/templates`)).toEqual(['deleteWorkspacesWorkspaceTemplatesTemplate', 'getWorkspacesWorkspaceTemplatesTemplate']);
    expect(linked(`${ws}/contacts`).getWorkspacesWorkspaceContactsContact.parameters).toEqual({
      workspace: '$request.path.workspace',
      contact: '$response.body#/data/id',
    });
    expect(linked('/workspaces').getWorkspacesWorkspace.parameters).toEqual({ workspace: '$response.body#/data/id' });
    // Every link names an operation of the document.
    const operationIds = new Set(Object.values(doc.paths).flatMap((ops: any) => Object.values(ops).map((op: any) => op.operationId)));
    const creates = Object.entries(doc.paths).filter(([, ops]: [string, any]) => ops.post?.responses['201']);
    expect(creates.filter(([, ops]: [string, any]) => !ops.post.responses['201'].links).map(([path]) => path)).toEqual(['/auth/tokens']);
    for (const [, ops] of creates as Array<[string, any]>)
      for (const link of Object.values(ops.post.responses['201'].links ?? {}) as any[])
        expect(operationIds.has(link.operationId)).toBe(true);
  });

  it('states the patterns and lengths of numbers, time zones and names, and the permission names', () => {
    expect(body(`${ws}/contacts`, 'post').properties.number).toMatchObject({ type: 'string', minLength: 7, pattern: expect.any(String) });
    // A time zone is an IANA name, said in words: a pattern would let through text the server refuses.
    const timezone = body(`${ws}/users`, 'post').properties.timezone;
    expect(timezone).toMatchObject({ type: 'string', minLength: 1, description: expect.stringContaining('IANA time zone name') });
    expect(timezone.pattern).toBeUndefined();
    expect(body(`${ws}/labels`, 'post').properties.name).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: VISIBLE_PATTERN,
    });
    expect(body('/workspaces/partner/permissions', 'patch').properties.permissions.uniqueItems).toBe(true);
    expect(body(`${ws}/roles`, 'post').properties.permissions.items.enum).toContain('contacts.view');
    expect(body('/workspaces/partner/permissions', 'patch').properties.permissions.items.enum).toContain('labels.delete');
  });

  it('states "name or colour", "name or permissions", the template body and the import file as required', () => {
    expect(body(`${ws}/labels/{label}`, 'put').anyOf).toEqual([{ required: ['name'] }, { required: ['color'] }]);
    expect(body(`${ws}/roles/{role}`, 'put').anyOf).toEqual([{ required: ['name'] }, { required: ['permissions'] }]);
    expect(body(`${ws}/templates`, 'post').allOf[0].anyOf[1].required).toEqual(['body']);
    expect(body(`${ws}/contact-imports`, 'post', 'multipart/form-data').required).toEqual(['file']);
  });

  it('states how many file parts a form may carry (413 beyond)', () => {
    for (const [path, method, parts] of [
      [`${ws}/contacts`, 'post', 4],
      [`${ws}/users/{user}`, 'post', 3],
      [`${ws}/contact-imports`, 'post', 1],
      [`${ws}/templates`, 'post', 1],
    ] as const) {
      expect(doc.paths[path][method].responses['413'].description, path).toContain(`more than ${parts} file part`);
    }
  });
});
