/**
 * The stand-in itself: independent of src/, the 26 operations of the published API and nothing else, Laravel's
 * answers, and each quirk doing what it says. Plain fetch, no wsm code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from './index.js';

let standin: Standin;
beforeEach(async () => {
  standin = await startStandin();
});
afterEach(async () => standin?.close());

async function api(method: string, path: string, body?: unknown, token: string | null = standin.token) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${standin.url}${path.replace('{ws}', standin.workspace)}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe('the stand-in for the hosted service', () => {
  it('imports nothing of src/ (it is written from the published API alone)', () => {
    const dir = import.meta.dirname;
    let checked = 0;
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts'))) {
      const imports = [...readFileSync(join(dir, file), 'utf8').matchAll(/^import [^;]*?from '([^']+)'/gm)].map((m) => m[1]);
      expect(
        imports.filter((target) => !target.startsWith('./') && !target.startsWith('node:') && target !== 'vitest'),
        file,
      ).toEqual([]);
      checked += imports.length;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('answers a route it lacks with a 404 without status, before the token check; a known path with another method is a 405', async () => {
    expect(await api('GET', '/me', undefined, null)).toEqual({ status: 404, body: { message: 'The route api/v3/me could not be found.' } });
    expect((await api('GET', '/workspaces/{ws}/contact-imports/1')).status).toBe(405);
    expect((await api('GET', '/workspaces/{ws}/contact-groups/1')).status).toBe(404);
    expect((await api('GET', '/workspaces/{ws}/templates')).status).toBe(405);
    expect((await api('GET', '/workspaces/{ws}/labels')).status).toBe(405);
    expect(await api('GET', '/workspaces/{ws}/contacts', undefined, 'wrong')).toEqual({
      status: 401,
      body: { message: 'Unauthenticated.' },
    });
    expect(await api('GET', '/workspaces/00000000-0000-4000-8000-000000000000')).toEqual({
      status: 404,
      body: { message: 'Resource not found.', status: 404 },
    });
  });

  it('has exactly the 26 operations of the published API', () => {
    const routes =
      readFileSync(join(import.meta.dirname, 'routes.ts'), 'utf8') + readFileSync(join(import.meta.dirname, 'templates.ts'), 'utf8');
    expect([...routes.matchAll(/router\.add\(\s*'(GET|POST|PUT|PATCH|DELETE)'/g)]).toHaveLength(26);
  });

  it('pages like Laravel: meta with path and links[], links with only the page; 15 a page by default, 10 for contacts', async () => {
    for (let i = 0; i < 20; i++) await api('POST', '/workspaces/{ws}/contact-groups', { name: `Group ${i}` });
    const groups = await api('GET', '/workspaces/{ws}/contact-groups');
    expect(groups.body.data).toHaveLength(15);
    expect(groups.body.meta).toMatchObject({
      current_page: 1,
      last_page: 2,
      per_page: 15,
      total: 20,
      path: expect.stringContaining('/contact-groups'),
    });
    expect(groups.body.meta.links[0]).toEqual({ url: null, label: '&laquo; Previous', active: false });
    expect(groups.body.links.next).toMatch(/\/contact-groups\?page=2$/);
    expect(groups.body.data[0]).toEqual({
      id: expect.any(Number),
      name: 'Group 0',
      description: null,
      created_at: expect.stringMatching(/\.\d{6}Z$/),
      updated_at: expect.any(String),
    });
    expect((await api('GET', '/workspaces/{ws}/contacts')).body.meta.per_page).toBe(10);
  });

  it('switches each quirk on', async () => {
    for (let i = 0; i < 3; i++) await api('POST', '/workspaces/{ws}/labels', { name: `L${i}` });
    standin.quirks.perPageMax = 50;
    expect(await api('GET', '/workspaces/{ws}/users?per_page=100')).toEqual({
      status: 422,
      body: {
        message: 'The per page field must not be greater than 50.',
        errors: { per_page: ['The per page field must not be greater than 50.'] },
      },
    });
    standin.quirks.validationStatus = 400;
    expect((await api('POST', '/workspaces/{ws}/labels', {})).status).toBe(400);
    standin.quirks.simplePaginator = true;
    standin.quirks.stringIds = true;
    const simple = await api('GET', '/workspaces/{ws}/users?per_page=1');
    expect(simple.body.meta).toEqual({ current_page: 1, from: 1, path: expect.any(String), per_page: 1, to: 1 });
    expect(simple.body.links.next).toMatch(/page=2$/);
    expect(simple.body.data[0].id).toBe('1');
    standin.quirks.cursorPaginator = true;
    for (const name of ['C0', 'C1', 'C2'])
      expect((await api('POST', '/workspaces/{ws}/contacts', { number: `1555000010${name[1]}`, name })).status).toBe(201);
    const first = await api('GET', '/workspaces/{ws}/contacts?per_page=2&page=2');
    expect(first.body).toMatchObject({
      per_page: 2,
      next_cursor: expect.any(String),
      next_page_url: expect.stringMatching(/\?cursor=/),
      prev_cursor: null,
    });
    expect(first.body.data.map((c: { name: string }) => c.name)).toEqual(['C0', 'C1']);
    const rest = await api('GET', `/workspaces/{ws}/contacts?per_page=2&cursor=${first.body.next_cursor}`);
    expect({ names: rest.body.data.map((c: { name: string }) => c.name), next: rest.body.next_cursor }).toEqual({
      names: ['C2'],
      next: null,
    });
    standin.quirks.cursorPaginator = false;
    standin.quirks.permissionObjects = true;
    expect((await api('GET', '/workspaces/{ws}/permissions')).body.data[0].contacts[0]).toEqual({
      id: 1,
      name: 'contacts.view',
      guard_name: 'sanctum',
    });
    standin.quirks.rolesWithoutPermissions = true;
    expect((await api('GET', '/workspaces/{ws}/roles')).body.data[0]).not.toHaveProperty('permissions');
    standin.quirks.labelPutRequiresName = true;
    expect((await api('PUT', '/workspaces/{ws}/labels/3', { color: '#fff' })).status).toBe(400);
  });

  it('shapes the template create answer, fails and decides syncs as told', async () => {
    const body = { name: 'order_update', language: 'en', category: 'UTILITY', body: { text: 'Hi {{1}}', variables: ['Ann'] } };
    standin.quirks.templateCreateBody = 'success-template';
    const made = await api('POST', '/workspaces/{ws}/templates', body);
    expect(made).toMatchObject({ status: 201, body: { success: true, template: { name: 'order_update', status: 'PENDING' } } });
    standin.quirks.templateCreateBody = 'data-null';
    expect((await api('POST', '/workspaces/{ws}/templates', { ...body, name: 'second' })).body).toEqual({ data: null });
    standin.quirks.syncFailures = 1;
    standin.quirks.syncRoundsToDecide = 2;
    expect((await api('POST', '/workspaces/{ws}/templates/sync')).status).toBe(500);
    expect((await api('POST', '/workspaces/{ws}/templates/sync')).status).toBe(200);
    expect((await api('GET', `/workspaces/{ws}/templates/${made.body.template.id}`)).body.data.status).toBe('PENDING');
    expect((await api('POST', '/workspaces/{ws}/templates/sync')).status).toBe(200);
    expect((await api('GET', `/workspaces/{ws}/templates/${made.body.template.id}`)).body.data.status).toBe('APPROVED');
    expect(await api('POST', '/workspaces/{ws}/templates/sync')).toEqual({
      status: 404,
      body: { success: false, message: 'No pending templates found.' },
    });
    expect(await api('GET', '/workspaces/{ws}/templates/999')).toEqual({
      status: 404,
      body: { success: false, message: 'Template not found.' },
    });
  });
});
