import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { MockAgent, type Dispatcher, type Interceptable } from 'undici';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createClient,
  MissingWorkspaceError,
  RequestValidationError,
  UnsupportedEndpointError,
  type WsmClient,
} from '../../src/api/client.js';
import { NotFoundError, InternalServerError } from '../../src/api/errors.js';
import { CrudResource } from '../../src/api/resources/crud.js';
import type { ContactGroup, Role, Single } from '../../src/api/schemas/index.js';
import { formOf } from './received-form.js';

const ORIGIN = 'http://api.test';
const WS = '2f1c9a52-8d1e-4c3b-9f10-6a7b8c9d0e1f';
const P = `/api/v3/workspaces/${WS}`;
const JSON_HEADERS = { headers: { 'content-type': 'application/json' } };
const meta = (current: number, last: number) => ({ current_page: current, per_page: 2, total: 3, last_page: last, from: 1, to: 2 });

let agent: MockAgent;
let pool: Interceptable;
let client: WsmClient;
let dir: string;
const sleeps: number[] = [];

beforeEach(async () => {
  agent = new MockAgent();
  agent.disableNetConnect();
  pool = agent.get(ORIGIN);
  sleeps.length = 0;
  client = createClient({
    baseUrl: `${ORIGIN}/api/v3`,
    token: 'tok',
    workspace: WS,
    dispatcher: agent,
    sleep: async (ms) => void sleeps.push(ms),
  });
  dir = await mkdtemp(join(tmpdir(), 'wsm-client-'));
});
afterEach(async () => {
  agent?.assertNoPendingInterceptors();
  await agent?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The user list in two pages of 100 (users 1 and 2, then 3), as a full walk asks for them. */
function interceptTwoUserPages() {
  pool
    .intercept({ path: `${P}/users?per_page=100&page=1`, method: 'GET' })
    .reply(200, { data: [{ id: 1 }, { id: 2 }], meta: meta(1, 2) }, JSON_HEADERS);
  pool
    .intercept({ path: `${P}/users?per_page=100&page=2`, method: 'GET' })
    .reply(200, { data: [{ id: 3 }], meta: meta(2, 2) }, JSON_HEADERS);
}

/** Intercepts one request and records its parsed JSON body (or its form, parsed). */
function capture(path: string, method: string, status: number, data: unknown) {
  const seen: { body?: unknown; headers?: Record<string, string> } = {};
  pool.intercept({ path, method }).reply((opts) => {
    seen.body = typeof opts.body === 'string' ? JSON.parse(opts.body) : opts.body ? formOf(opts) : undefined;
    seen.headers = opts.headers as Record<string, string>;
    return { statusCode: status, data: JSON.stringify(data), responseOptions: JSON_HEADERS };
  });
  return seen;
}

describe('paths and encoding', () => {
  it('workspace-scoped paths carry the workspace; ids are path-encoded', async () => {
    pool.intercept({ path: `${P}/contact-groups/7`, method: 'GET' }).reply(200, { data: { id: 7 } }, JSON_HEADERS);
    expect(await client.groups.get(7)).toEqual({ data: { id: 7 } });
    const odd = createClient({ baseUrl: `${ORIGIN}/api/v3`, token: 't', workspace: 'a/b?c', dispatcher: agent });
    pool.intercept({ path: '/api/v3/workspaces/a%2Fb%3Fc', method: 'GET' }).reply(200, { data: {} }, JSON_HEADERS);
    await odd.workspaces.get();
  });

  it('a workspace-scoped call without a workspace throws before sending', async () => {
    const bare = createClient({ baseUrl: `${ORIGIN}/api/v3`, token: 't', dispatcher: agent });
    await expect(bare.contacts.list()).rejects.toBeInstanceOf(MissingWorkspaceError);
    // Calls outside a workspace still work.
    pool
      .intercept({ path: '/api/v3/me', method: 'GET', headers: { authorization: 'Bearer t' } })
      .reply(200, { data: { id: 1 } }, JSON_HEADERS);
    expect(await bare.me()).toEqual({ data: { id: 1 } });
  });

  it('list queries are passed through; undefined values are left out', async () => {
    pool
      .intercept({ path: `${P}/contacts?search=ann%20lee&page=2`, method: 'GET' })
      .reply(200, { data: [], meta: meta(2, 2) }, JSON_HEADERS);
    await client.contacts.list({ search: 'ann lee', page: 2, per_page: undefined });
    pool
      .intercept({ path: `${P}/templates?status=PENDING&category=UTILITY`, method: 'GET' })
      .reply(200, { data: [], meta: meta(1, 1) }, JSON_HEADERS);
    await client.templates.list({ status: 'PENDING', category: 'UTILITY' });
  });
});

describe('resources', () => {
  // A plain collection (catalog `collection: true`) has no class or property of its own in the
  // client: the CRUD resource over its description, typed by the record and bodies it declares.
  it('a plain collection is the CRUD resource over its description, made once, typed by its record', async () => {
    expect(client.groups).toBeInstanceOf(CrudResource);
    expect(client.groups).toBe(client.groups);
    expect([client.groups.key, client.fields.key, client.roles.key]).toEqual(['groups', 'fields', 'roles']);
    expectTypeOf(client.groups.get).returns.resolves.toEqualTypeOf<Single<ContactGroup>>();
    expectTypeOf(client.roles.list).returns.resolves.toHaveProperty('data').toEqualTypeOf<Role[]>();
    expectTypeOf(client.fields.create).parameter(0).toHaveProperty('name');
    pool
      .intercept({ path: `${P}/contact-groups/4`, method: 'GET' })
      .reply(200, { data: { id: 4, name: 'VIP', contacts_count: 2 } }, JSON_HEADERS);
    expect((await client.groups.get(4)).data).toMatchObject({ id: 4, name: 'VIP' });
  });
});

describe('the page object of a list call', () => {
  it('awaited, is the page its query names: one request, nothing asked before it is awaited', async () => {
    const asked: string[] = [];
    const recording = Object.assign(Object.create(agent) as MockAgent, {
      dispatch: (opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => (
        asked.push(String(opts.path)), agent.dispatch(opts, handler)
      ),
    });
    const lister = createClient({ baseUrl: `${ORIGIN}/api/v3`, token: 'tok', workspace: WS, dispatcher: recording });
    pool
      .intercept({ path: `${P}/templates?status=PENDING&page=2&per_page=2`, method: 'GET' })
      .reply(200, { data: [{ id: 3 }], meta: meta(2, 2) }, JSON_HEADERS);
    const list = lister.templates.list({ status: 'PENDING', page: 2, per_page: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toEqual([]);
    const page = await list;
    expect(page.data).toEqual([{ id: 3 }]);
    expect(page.meta.current_page).toBe(2);
    expect(await list).toBe(page);
    expect(asked).toHaveLength(1);
  });

  it(".pages() walks every page from the first with the query's filters and page size, its own page left out", async () => {
    pool
      .intercept({ path: `${P}/contact-groups?per_page=2&page=1`, method: 'GET' })
      .reply(200, { data: [{ id: 1 }, { id: 2 }], meta: meta(1, 2) }, JSON_HEADERS);
    pool
      .intercept({ path: `${P}/contact-groups?per_page=2&page=2`, method: 'GET' })
      .reply(200, { data: [{ id: 3 }], meta: meta(2, 2) }, JSON_HEADERS);
    const pages: number[][] = [];
    for await (const page of client.groups.list({ page: 7, per_page: 2 }).pages({ concurrency: 1 }))
      pages.push(page.data.map((group) => group.id));
    expect(pages).toEqual([[1, 2], [3]]);
  });

  it('.rows() is every row of every page, as iterating the list call is', async () => {
    interceptTwoUserPages();
    const ids: number[] = [];
    for await (const user of client.users.list().rows({ concurrency: 2 })) ids.push(user.id);
    expect(ids).toEqual([1, 2, 3]);
  });

  it('walks every page in order, 100 a page, fetching lazily', async () => {
    interceptTwoUserPages();
    const ids: number[] = [];
    for await (const user of client.users.list()) ids.push(user.id);
    expect(ids).toEqual([1, 2, 3]);
  });

  it('stops early when the caller breaks: nothing past the pages asked for ahead of page 1', async () => {
    pool
      .intercept({ path: `${P}/contact-imports?per_page=100&page=1`, method: 'GET' })
      .reply(200, { data: [{ id: 1 }, { id: 2 }], meta: meta(1, 50) }, JSON_HEADERS);
    // Every request the client sends is recorded before the mock answers it.
    const asked: string[] = [];
    const recording = Object.assign(Object.create(agent) as MockAgent, {
      dispatch: (opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => (
        asked.push(opts.path), agent.dispatch(opts, handler)
      ),
    });
    const walker = createClient({ baseUrl: `${ORIGIN}/api/v3`, token: 'tok', workspace: WS, dispatcher: recording });
    const seen: unknown[] = [];
    for await (const item of walker.imports.list()) {
      seen.push(item.id);
      if (item.id === 1) break;
    }
    // Let anything the walk might still launch reach the mock before looking.
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([1]);
    // The page engine asks for later pages as soon as page 1 is in, at most two windows (2 x 8)
    // ahead of the reader; the break cancels them, and nothing is asked after it.
    const pages = asked.map((path) => Number(new URL(path, ORIGIN).searchParams.get('page')));
    expect(pages[0]).toBe(1);
    expect(Math.max(...pages)).toBeLessThanOrEqual(17);
    expect(new Set(pages).size).toBe(pages.length);
    const afterBreak = asked.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toHaveLength(afterBreak);
  });
});

describe('the one reporter', () => {
  it("a walk changing course is told to the client's trace, beside the requests, never the token", async () => {
    const lines: string[] = [];
    const traced = createClient({
      baseUrl: `${ORIGIN}/api/v3`,
      token: 'tok-secret-1',
      workspace: WS,
      dispatcher: agent,
      trace: (line) => lines.push(line),
    });
    pool.intercept({ path: `${P}/users?page=1&per_page=100`, method: 'GET' }).reply(
      422,
      {
        message: 'The per page field must not be greater than 50.',
        errors: { per_page: ['The per page field must not be greater than 50.'] },
      },
      JSON_HEADERS,
    );
    pool
      .intercept({ path: `${P}/users?page=1&per_page=50`, method: 'GET' })
      .reply(200, { data: [{ id: 1 }], meta: meta(1, 1) }, JSON_HEADERS);
    const ids: unknown[] = [];
    for await (const user of traced.users.list()) ids.push(user.id);
    expect(ids).toEqual([1]);
    expect(lines).toContain('* the server refused per_page=100; asking per_page=50');
    expect(lines.some((line) => line.startsWith('> GET ') && line.includes('per_page=50'))).toBe(true);
    expect(lines.join('\n')).not.toContain('tok-secret-1');
  });
});

describe('bodies', () => {
  it('contact create: checked and normalised, then sent as JSON', async () => {
    const seen = capture(`${P}/contacts`, 'POST', 201, { status: 201, message: 'ok', data: { id: 1 } });
    await client.contacts.create({ number: '+1 (415) 555-0100', name: ' Ann ' });
    expect(seen.body).toEqual({ number: '14155550100', name: 'Ann' });
    expect(seen.headers!['content-type']).toBe('application/json');
  });

  it('contact create with an avatar: multipart with the file part', async () => {
    const avatar = join(dir, 'a.webp');
    await writeFile(avatar, Buffer.from('RIFF0000WEBP'));
    const seen = capture(`${P}/contacts`, 'POST', 201, { status: 201, message: 'ok', data: { id: 1 } });
    await client.contacts.create({ number: '14155550100', contact_groups: [2] }, { avatar });
    const form = await (seen.body as Promise<FormData>);
    expect(form.get('number')).toBe('14155550100');
    expect(form.get('contact_groups[0]')).toBe('2');
    const file = form.get('avatar') as File;
    expect([file.name, file.type, await file.text()]).toEqual(['a.webp', 'image/webp', 'RIFF0000WEBP']);
  });

  it('an invalid body throws RequestValidationError with dotted keys and sends nothing', async () => {
    const error = await client.contacts.update(1, { name: '', contact_groups: [1, -2] as number[] }).catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(Object.keys(error.errors)).toEqual(['name', 'contact_groups.1']);
    expect(error.errors.name).toEqual(['The name field is required.']);
  });

  it('labels update is a PUT with the given fields, plus the current name when only the colour changes; partner permissions a PATCH', async () => {
    const renamed = capture(`${P}/labels/4`, 'PUT', 200, { status: 200, message: 'ok', data: { id: 4 } });
    await client.labels.update(4, { name: 'VIP' });
    expect(renamed.body).toEqual({ name: 'VIP' });
    // The published API lists name as required on PUT: the current one is read with GET and sent along.
    pool.intercept({ path: `${P}/labels/4`, method: 'GET' }).reply(200, { data: { id: 4, name: 'VIP', color: null } }, JSON_HEADERS);
    const label = capture(`${P}/labels/4`, 'PUT', 200, { status: 200, message: 'ok', data: { id: 4 } });
    await client.labels.update(4, { color: '#abc' });
    expect(label.body).toEqual({ color: '#abc', name: 'VIP' });
    const perms = capture('/api/v3/workspaces/partner/permissions', 'PATCH', 200, {
      status: 200,
      message: 'ok',
      data: { permissions: ['roles.view'] },
    });
    await client.permissions.setPartnerDefaults(['roles.view']);
    expect(perms.body).toEqual({ permissions: ['roles.view'] });
  });

  it('import create: multipart with name, group and the CSV as text/csv', async () => {
    const csv = join(dir, 'c.csv');
    await writeFile(csv, 'number\n14155550100\n');
    const seen = capture(`${P}/contact-imports`, 'POST', 201, { status: 201, message: 'ok', data: { id: 1 } });
    await client.imports.create({ name: 'Q1', contact_groups: 3, filePath: csv });
    const form = await (seen.body as Promise<FormData>);
    expect(form.get('name')).toBe('Q1');
    expect(form.get('contact_groups')).toBe('3');
    const file = form.get('file') as File;
    expect([file.name, file.type]).toEqual(['c.csv', 'text/csv']);
  });

  it('template create with a header file: bracket names, file in header[media][file]', async () => {
    const pdf = join(dir, 'menu.pdf');
    await writeFile(pdf, '%PDF-1.4');
    const seen = capture(`${P}/templates`, 'POST', 201, { success: true, message: 'ok', data: { id: 9 } });
    await client.templates.create(
      {
        name: 'menu',
        language: 'en',
        category: 'UTILITY',
        header: { type: 'media', media: { type: 'document' } },
        body: { text: 'Our menu' },
      },
      { headerFile: pdf },
    );
    const form = await (seen.body as Promise<FormData>);
    expect(form.get('header[type]')).toBe('media');
    expect(form.get('header[media][type]')).toBe('document');
    expect((form.get('header[media][file]') as File).type).toBe('application/pdf');
    expect(form.get('body[text]')).toBe('Our menu');
  });

  it('users update is always multipart, booleans as 1/0', async () => {
    const seen = capture(`${P}/users/3`, 'POST', 200, { status: 200, message: 'ok', data: { id: 3 } });
    await client.users.update(3, { status: false, client: true });
    expect([...(await (seen.body as Promise<FormData>)).entries()]).toEqual([
      ['status', '0'],
      ['client', '1'],
    ]);
  });
});

describe('retries', () => {
  it('a create (POST) is never retried on 503', async () => {
    pool.intercept({ path: `${P}/labels`, method: 'POST' }).reply(503, { message: 'Busy.' }, JSON_HEADERS);
    await expect(client.labels.create({ name: 'x' })).rejects.toMatchObject({ status: 503 });
    expect(sleeps).toEqual([]);
  });

  it('a contact update (POST that sets fields) is retried like a PUT', async () => {
    pool.intercept({ path: `${P}/contacts/1`, method: 'POST' }).reply(503, { message: 'Busy.' }, JSON_HEADERS);
    pool.intercept({ path: `${P}/contacts/1`, method: 'POST' }).reply(200, { status: 200, message: 'ok', data: { id: 1 } }, JSON_HEADERS);
    expect(await client.contacts.update(1, { name: 'Ann' })).toMatchObject({ data: { id: 1 } });
    expect(sleeps).toHaveLength(1);
  });
});

describe('extensions and sync', () => {
  it('a 405 or a router 404 on an extension is UnsupportedEndpointError naming the operation', async () => {
    pool.intercept({ path: `${P}/roles/2`, method: 'PUT' }).reply(405, { message: 'Method not allowed.', status: 405 }, JSON_HEADERS);
    await expect(client.roles.update(2, { name: 'x' })).rejects.toMatchObject({
      name: 'UnsupportedEndpointError',
      operation: 'updating a role',
    });
    pool.intercept({ path: `${P}/labels`, method: 'GET' }).reply(404, 'Not Found');
    await expect(client.labels.list()).rejects.toBeInstanceOf(UnsupportedEndpointError);
  });

  it("the token extensions are the client's to call unsupported: POST /auth/tokens and GET /me missing", async () => {
    pool.intercept({ path: '/api/v3/auth/tokens', method: 'POST' }).reply(404, 'Not Found');
    await expect(client.auth.createToken({ email: 'a@example.com', password: 'secret-pass' })).rejects.toMatchObject({
      name: 'UnsupportedEndpointError',
      message: 'this server does not support logging in with an e-mail and password: log in with a token: `wsm auth login --with-token`',
    });
    pool.intercept({ path: '/api/v3/me', method: 'GET' }).reply(405, { message: 'Method not allowed.' }, JSON_HEADERS);
    await expect(client.me()).rejects.toBeInstanceOf(UnsupportedEndpointError);
  });

  it("the API's own 404 body on an extension stays NotFoundError; core endpoints never translate", async () => {
    pool
      .intercept({ path: `${P}/contact-groups/2`, method: 'GET' })
      .reply(404, { message: 'Resource not found.', status: 404 }, JSON_HEADERS);
    await expect(client.groups.get(2)).rejects.toBeInstanceOf(NotFoundError);
    pool.intercept({ path: `${P}/labels/2`, method: 'GET' }).reply(404, 'Not Found');
    await expect(client.labels.get(2)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('templates.sync: 200 passes the message; 404 {success:false} is "nothing pending"; 500 throws', async () => {
    pool.intercept({ path: `${P}/templates/sync`, method: 'POST' }).reply(200, { success: true, message: 'Synced.' }, JSON_HEADERS);
    expect(await client.templates.sync()).toEqual({ success: true, message: 'Synced.', nothing_pending: false });
    pool
      .intercept({ path: `${P}/templates/sync`, method: 'POST' })
      .reply(404, { success: false, message: 'No pending templates.' }, JSON_HEADERS);
    expect(await client.templates.sync()).toEqual({ success: false, message: 'No pending templates.', nothing_pending: true });
    pool
      .intercept({ path: `${P}/templates/sync`, method: 'POST' })
      .reply(404, { success: false, message: 'Template not found.', status: 404 }, JSON_HEADERS);
    await expect(client.templates.sync()).rejects.toBeInstanceOf(NotFoundError);
    pool
      .intercept({ path: `${P}/templates/sync`, method: 'POST' })
      .reply(500, { success: false, message: 'Provider unavailable.' }, JSON_HEADERS);
    await expect(client.templates.sync()).rejects.toBeInstanceOf(InternalServerError);
  });

  it('raw request() sends what it is given', async () => {
    const seen = capture('/api/v3/anything?x=1', 'DELETE', 200, { ok: true });
    expect(await client.request('DELETE', '/anything', { query: { x: 1 } })).toEqual({ ok: true });
    expect(seen.headers!.authorization).toBe('Bearer tok');
  });
});
