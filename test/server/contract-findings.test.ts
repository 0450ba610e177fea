/**
 * What a contract fuzzer (Schemathesis) found against `wsm serve`, each as the curl that showed
 * it: 405 without `Allow`, OPTIONS refused, a method nobody routes read as a malformed
 * body, GET of the partner defaults missing, pages the document allowed refused, a JSON `null`
 * taken for `{}`, invisible names stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { PAGE_MAX } from '../../src/api/schemas/index.js';
import { multipart } from './template-fixtures.js';

let h: Harness;
let ws: string;
beforeAll(async () => {
  h = await createHarness();
  ws = `/api/v3/workspaces/${h.ws}`;
});
afterAll(async () => {
  await h?.close();
});

const NOT_ALLOWED = { message: 'Method not allowed.', status: 405 };
const NOT_FOUND = { message: 'Resource not found.', status: 404 };
const json = (payload: string) => ({ payload, headers: { 'content-type': 'application/json' } });

describe('a method a path lacks', () => {
  it('is a 405 naming the methods the path has in Allow, on every kind of path', async () => {
    for (const [method, url, allow] of [
      ['DELETE', `${ws}/labels`, 'GET, HEAD, POST, OPTIONS'],
      ['POST', `${ws}/labels/1`, 'GET, HEAD, PUT, DELETE, OPTIONS'],
      ['PUT', `${ws}/contacts/1`, 'GET, HEAD, POST, DELETE, OPTIONS'],
      ['DELETE', '/api/v3/workspaces/partner/permissions', 'GET, HEAD, PATCH, OPTIONS'],
      ['PATCH', '/api/v3/openapi.json', 'GET, HEAD, OPTIONS'],
    ]) {
      const res = await h.call({ method: method as 'GET', url });
      expect({ status: res.statusCode, allow: res.headers.allow, body: res.json() }, `${method} ${url}`).toEqual({
        status: 405,
        allow,
        body: NOT_ALLOWED,
      });
    }
  });

  it('answers OPTIONS with 204 and the same Allow, without a token; an unknown path stays a 404', async () => {
    const res = await h.call({ method: 'OPTIONS', url: `${ws}/labels`, token: null });
    expect({ status: res.statusCode, allow: res.headers.allow, body: res.body }).toEqual({
      status: 204,
      allow: 'GET, HEAD, POST, OPTIONS',
      body: '',
    });
    const nowhere = await h.call({ method: 'OPTIONS', url: '/api/v3/nowhere', token: null });
    expect({ status: nowhere.statusCode, body: nowhere.json() }).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('is a 405 or a 404 for a method the server does not know at all, with or without a body, never a body error', async () => {
    for (const payload of [undefined, '{"name":"x"}']) {
      const known = await h.call({ method: 'QUERY' as 'GET', url: `${ws}/labels`, ...(payload ? json(payload) : {}) });
      expect({ status: known.statusCode, allow: known.headers.allow, body: known.json() }).toEqual({
        status: 405,
        allow: 'GET, HEAD, POST, OPTIONS',
        body: NOT_ALLOWED,
      });
      const unknown = await h.call({ method: 'QUERY' as 'GET', url: '/api/v3/nowhere', ...(payload ? json(payload) : {}) });
      expect({ status: unknown.statusCode, allow: unknown.headers.allow, body: unknown.json() }).toEqual({
        status: 404,
        allow: undefined,
        body: NOT_FOUND,
      });
    }
  });
});

describe('the partner defaults', () => {
  it('are read with GET by a partner (every permission until set), set with PATCH, refused to a non-partner', async () => {
    const url = '/api/v3/workspaces/partner/permissions';
    const before = await h.call({ method: 'GET', url });
    expect(before.statusCode).toBe(200);
    expect(before.json().data.permissions).toContain('contacts.view');
    expect((await h.call({ method: 'PATCH', url, payload: { permissions: ['contacts.view', 'labels.view'] } })).statusCode).toBe(200);
    expect((await h.call({ method: 'GET', url })).json()).toEqual({ data: { permissions: ['contacts.view', 'labels.view'] } });
    const member = await h.call({ method: 'GET', url, token: await h.memberWith(['contacts.view']) });
    expect({ status: member.statusCode, body: member.json() }).toEqual({
      status: 403,
      body: { message: 'This action is unauthorized.', status: 403 },
    });
  });
});

describe('pages', () => {
  it('accepts every page the document allows, up to PAGE_MAX, and refuses the next', async () => {
    const last = await h.call({ method: 'GET', url: `${ws}/labels?page=${PAGE_MAX}&per_page=100` });
    expect(last.statusCode).toBe(200);
    expect(last.json().meta).toMatchObject({ current_page: PAGE_MAX, from: null, to: null });
    const beyond = await h.call({ method: 'GET', url: `${ws}/labels?page=${PAGE_MAX + 1}` });
    expect({ status: beyond.statusCode, body: beyond.json() }).toEqual({
      status: 422,
      body: { message: 'Validation error', errors: { page: [`The page field must not be greater than ${PAGE_MAX}.`] } },
    });
    const document = (await h.call({ method: 'GET', url: '/api/v3/openapi.json', token: null })).json();
    const page = document.paths['/workspaces/{workspace}/labels'].get.parameters.find((p: { name: string }) => p.name === 'page');
    expect(page.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: PAGE_MAX });
  });
});

describe('bodies', () => {
  it('refuses a JSON null, like [], where an object is expected', async () => {
    for (const payload of ['null', '[]']) {
      const res = await h.call({ method: 'POST', url: `${ws}/labels`, ...json(payload) });
      expect({ status: res.statusCode, body: res.json() }, payload).toEqual({
        status: 422,
        body: { message: 'Validation error', errors: { body: ['The request body must be an object.'] } },
      });
    }
  });

  it('refuses a name that is blank once control and format characters are left out, and keeps one with something to see', async () => {
    const required = (field: string) => ({ message: 'Validation error', errors: { [field]: [`The ${field} field is required.`] } });
    for (const name of ['\u009c', '\u0085\u200b', ' \u200d ', '\u0000\u0007', '\u2060']) {
      for (const url of [`${ws}/labels`, `${ws}/contact-groups`, `${ws}/roles`, '/api/v3/workspaces']) {
        const res = await h.call({ method: 'POST', url, payload: { name } });
        expect({ status: res.statusCode, body: res.json() }, `${url} ${JSON.stringify(name)}`).toEqual({
          status: 422,
          body: required('name'),
        });
      }
    }
    const kept = await h.call({ method: 'POST', url: `${ws}/labels`, payload: { name: 'a\u200d' } });
    expect({ status: kept.statusCode, name: kept.json().data.name }).toEqual({ status: 201, name: 'a\u200d' });
  });

  it('refuses a name of invisible fillers only (Hangul fillers, the braille blank) as blank, on every named resource and a contact', async () => {
    const required = { message: 'Validation error', errors: { name: ['The name field is required.'] } };
    for (const name of ['\u3164', '\u2800', '\u115f', '\u1160', '\uffa0', ' \u3164\u2800 ', '\u115f\u200b']) {
      for (const url of [`${ws}/labels`, `${ws}/contact-groups`, `${ws}/roles`, '/api/v3/workspaces', `${ws}/contacts`]) {
        const payload = url.endsWith('/contacts') ? { number: '+15559990001', name } : { name };
        const res = await h.call({ method: 'POST', url, payload });
        expect({ status: res.statusCode, body: res.json() }, `${url} ${JSON.stringify(name)}`).toEqual({ status: 422, body: required });
      }
    }
    const body = await h.call({
      method: 'POST',
      url: `${ws}/templates`,
      payload: { name: 'filler_text', language: 'en', category: 'UTILITY', body: { text: '\u3164' } },
    });
    expect({ status: body.statusCode, errors: Object.keys(body.json().errors ?? {}) }).toEqual({ status: 422, errors: ['body.text'] });
    // A filler beside something visible is kept as sent.
    const kept = await h.call({ method: 'POST', url: `${ws}/labels`, payload: { name: '\u3164a' } });
    expect({ status: kept.statusCode, name: kept.json().data.name }).toEqual({ status: 201, name: '\u3164a' });
  });

  it('refuses a template whose body, header or button text is blank or invisible', async () => {
    const template = (patch: Record<string, unknown>) => ({
      name: 'invisible_text',
      language: 'en',
      category: 'UTILITY',
      body: { text: 'Hello there.' },
      ...patch,
    });
    for (const [patch, field] of [
      [{ body: { text: '\u200b\u0085' } }, 'body.text'],
      [{ body: { text: '   ' } }, 'body.text'],
      [{ header: { type: 'text', text: { content: '\u2060' } } }, 'header.text.content'],
      [{ buttons: [{ type: 'QUICK_REPLY', text: '\u009c' }] }, 'buttons.0.text'],
    ] as const) {
      const res = await h.call({ method: 'POST', url: `${ws}/templates`, payload: template(patch) });
      expect({ status: res.statusCode, errors: Object.keys(res.json().errors ?? {}) }, JSON.stringify(patch)).toEqual({
        status: 422,
        errors: [field],
      });
    }
  });
});

describe('a record that does not exist', () => {
  const bad = { name: '', color: 'not a colour', permissions: 'x' };
  const missing = () =>
    [
      ['PUT', `${ws}/labels/999999`, json(JSON.stringify(bad))],
      ['PUT', `${ws}/contact-groups/999999`, json(JSON.stringify(bad))],
      ['PUT', `${ws}/contact-fields/999999`, json(JSON.stringify({ name: 'Not Lower' }))],
      ['PUT', `${ws}/roles/999999`, json(JSON.stringify(bad))],
      ['POST', `${ws}/contacts/999999`, json(JSON.stringify({ email: 'not-an-email' }))],
      ['POST', `${ws}/contacts/999999`, multipart([['email', 'not-an-email']])],
      [
        'POST',
        `${ws}/users/999999`,
        multipart([
          ['timezone', 'Nowhere/Else'],
          ['status', 'maybe'],
        ]),
      ],
      ['GET', `${ws}/contact-imports/999999/errors?per_page=0`, {}],
    ] as const;

  it('is a 404 whatever the body or query holds: the record the path names is looked up before they are checked', async () => {
    for (const [method, url, request] of missing()) {
      const res = await h.call({ method, url, ...request });
      expect({ status: res.statusCode, body: res.json() }, `${method} ${url}`).toEqual({ status: 404, body: NOT_FOUND });
    }
  });

  it('is judged after authorisation: no token is a 401, a member without the permission a 403, before the 404', async () => {
    const member = await h.memberWith(['contacts.view']);
    for (const [method, url, request] of missing()) {
      const anonymous = await h.call({ method, url, ...request, token: null });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      // contact_imports.view is not the member's: the import's errors are refused like the updates.
      const refused = await h.call({ method, url, ...request, token: member });
      expect({ status: refused.statusCode, body: refused.json() }, `${method} ${url}`).toEqual({
        status: 403,
        body: { message: 'This action is unauthorized.', status: 403 },
      });
    }
  });

  it('an existing record with a bad body is still the 422 naming the fields', async () => {
    const label = await h.create(`${ws}/labels`, { name: 'Real' });
    const res = await h.call({ method: 'PUT', url: `${ws}/labels/${label.id}`, ...json(JSON.stringify({ color: 'not a colour' })) });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['color']);
  });
});
