/**
 * Every answer of the API, checked against the server's own OpenAPI document: the status is one
 * the operation lists, and a JSON body matches the schema given for that status. A scenario calls
 * every operation with success and with the usual failures (401, 403, 404, 422, a role in use),
 * through app.inject on a real SQLite file, before any test runs, so each check holds on its own;
 * the last test asserts no operation was left out.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESCRIPTIONS } from '../../src/api/descriptions/index.js';
import { createHarness, probeBody, type Harness } from './harness.js';
import { multipart, PNG, utility } from './template-fixtures.js';

interface Seen {
  method: string;
  url: string;
  status: number;
  contentType: string;
  body: string;
}

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>> };

let h: Harness;
let doc: Doc;
const seen: Seen[] = [];
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);

beforeAll(async () => {
  h = await createHarness();
  const raw = (await h.call({ method: 'GET', url: '/api/v3/openapi.json', token: null })).json();
  doc = (await SwaggerParser.dereference(structuredClone(raw))) as unknown as Doc;
  await scenario();
});
afterAll(async () => h?.close());

/** Calls the app and keeps the answer for the check. */
async function call(options: Parameters<Harness['call']>[0]): Promise<LightMyRequestResponse> {
  const res = await h.call(options);
  seen.push({
    method: String(options.method),
    url: String(options.url).split('?')[0],
    status: res.statusCode,
    contentType: String(res.headers['content-type'] ?? ''),
    body: res.body,
  });
  return res;
}

/** The document's path for a concrete URL: the template that fits, with the most literal segments. */
function operationPath(method: string, url: string): string | undefined {
  const parts = url.replace(/^\/api\/v3/, '').split('/');
  let best: { path: string; literal: number } | undefined;
  for (const path of Object.keys(doc.paths)) {
    if (!doc.paths[path][method.toLowerCase()]) continue;
    const pattern = path.split('/');
    if (pattern.length !== parts.length) continue;
    if (!pattern.every((segment, i) => segment.startsWith('{') || segment === parts[i])) continue;
    const literal = pattern.filter((segment) => !segment.startsWith('{')).length;
    if (!best || literal > best.literal) best = { path, literal };
  }
  return best?.path;
}

const validators = new Map<object, ValidateFunction>();
const validatorFor = (schema: object) => validators.get(schema) ?? validators.set(schema, ajv.compile(schema)).get(schema)!;

/** Calls every operation with success and with the usual failures; the answers go to `seen`. */
async function scenario(): Promise<void> {
  const ws = `/api/v3/workspaces/${h.ws}`;
  const missing = `/api/v3/workspaces/00000000-0000-4000-8000-000000000000`;
  await call({ method: 'GET', url: '/api/v3/openapi.json', token: null });

  // Users and tokens (extensions), the workspace and permissions.
  const role = (await call({ method: 'POST', url: `${ws}/roles`, payload: { name: 'Agent', permissions: ['contacts.view'] } })).json().data;
  await call({ method: 'POST', url: `${ws}/roles`, payload: {} });
  const user = (
    await call({
      method: 'POST',
      url: `${ws}/users`,
      payload: { name: 'Ann', email: 'ann@example.com', password: 'correct horse', role_id: role.id },
    })
  ).json().data;
  await call({ method: 'POST', url: `${ws}/users`, payload: { name: 'Bad' } });
  const annToken = (
    await call({
      method: 'POST',
      url: '/api/v3/auth/tokens',
      token: null,
      payload: { email: 'ann@example.com', password: 'correct horse' },
    })
  ).json().data.token;
  await call({ method: 'DELETE', url: '/api/v3/auth/tokens/current', token: annToken });
  await call({ method: 'DELETE', url: '/api/v3/auth/tokens/current', token: annToken });
  await call({ method: 'POST', url: '/api/v3/auth/tokens', token: null, payload: { email: 'not an email' } });
  await call({ method: 'POST', url: '/api/v3/auth/tokens', token: null, payload: { email: 'ann@example.com', password: 'wrong horse' } });
  await call({ method: 'GET', url: '/api/v3/me' });
  await call({ method: 'GET', url: '/api/v3/me', token: null });
  await call({ method: 'POST', url: '/api/v3/workspaces', payload: { name: 'Second brand' } });
  await call({ method: 'POST', url: '/api/v3/workspaces', payload: {} });
  await call({ method: 'GET', url: ws });
  await call({ method: 'GET', url: missing });
  await call({ method: 'GET', url: `${ws}/permissions` });
  await call({ method: 'GET', url: '/api/v3/workspaces/partner/permissions' });
  await call({ method: 'PATCH', url: '/api/v3/workspaces/partner/permissions', payload: { permissions: ['contacts.view'] } });
  await call({ method: 'PATCH', url: '/api/v3/workspaces/partner/permissions', payload: { permissions: ['contacts.fly'] } });
  const member = await h.memberWith([]);
  await call({ method: 'GET', url: '/api/v3/workspaces/partner/permissions', token: member });
  await call({ method: 'GET', url: `${ws}/contacts`, token: member });
  await call({
    method: 'PATCH',
    url: '/api/v3/workspaces/partner/permissions',
    token: member,
    payload: { permissions: ['contacts.view'] },
  });
  await call({ method: 'GET', url: `${ws}/users` });
  await call({ method: 'GET', url: `${ws}/users?per_page=0` });
  await call({ method: 'GET', url: `${ws}/users/${user.id}` });
  await call({ method: 'GET', url: `${ws}/users/999999` });
  await call({
    method: 'POST',
    url: `${ws}/users/${user.id}`,
    ...multipart([
      ['timezone', 'Europe/Lisbon'],
      ['client', '1'],
    ]),
  });
  await call({ method: 'POST', url: `${ws}/users/${user.id}`, ...multipart([['timezone', 'Mars/Base']]) });

  // Every plain collection of the catalog: the collection shape, with bodies of their own where given.
  const bodies: Record<string, [body: object, update: object]> = {
    fields: [{ name: 'city' }, { name: 'town' }],
    labels: [{ name: 'VIP', color: '#ff0000' }, { color: '#00ff00' }],
    roles: [{ name: 'Support' }, { name: 'Helpdesk', permissions: ['contacts.view'] }],
  };
  for (const description of Object.values(DESCRIPTIONS).filter((d) => d.collection)) {
    const { segment } = description;
    const probe = probeBody(description);
    const field = description.unique ?? Object.keys(probe)[0];
    const [body, update] = bodies[description.key] ?? [probe, { [field]: 'walk_renamed' }];
    const made = (await call({ method: 'POST', url: `${ws}/${segment}`, payload: body })).json().data;
    await call({ method: 'POST', url: `${ws}/${segment}`, payload: { [field]: '' } });
    await call({ method: 'GET', url: `${ws}/${segment}` });
    await call({ method: 'GET', url: `${ws}/${segment}?page=0` });
    await call({ method: 'GET', url: `${ws}/${segment}/${made.id}` });
    await call({ method: 'GET', url: `${ws}/${segment}/999999` });
    await call({ method: 'PUT', url: `${ws}/${segment}/${made.id}`, payload: update });
    await call({ method: 'PUT', url: `${ws}/${segment}/${made.id}`, payload: { [field]: 'x'.repeat(300) } });
    if (segment !== 'contact-fields') await call({ method: 'DELETE', url: `${ws}/${segment}/${made.id}` });
    await call({ method: 'DELETE', url: `${ws}/${segment}/999999` });
  }
  const city = (await call({ method: 'POST', url: `${ws}/contact-fields`, payload: { name: 'plan' } })).json().data;
  await call({ method: 'DELETE', url: `${ws}/contact-fields/${city.id}` });
  await call({ method: 'DELETE', url: `${ws}/roles/${role.id}` }); // Ann holds it: 422

  // Contacts, as JSON and as multipart with an avatar, and the stored file.
  const ann = (await call({ method: 'POST', url: `${ws}/contacts`, payload: { number: '14155550100', name: 'Ann' } })).json().data;
  const bea = (
    await call({
      method: 'POST',
      url: `${ws}/contacts`,
      ...multipart(
        [
          ['number', '14155550101'],
          ['status', '0'],
        ],
        [{ name: 'avatar', filename: 'a.png', type: 'image/png', bytes: PNG }],
      ),
    })
  ).json().data;
  await call({ method: 'POST', url: `${ws}/contacts`, payload: { number: '12' } });
  await call({ method: 'GET', url: `${ws}/contacts?search=ann` });
  await call({ method: 'GET', url: `${ws}/contacts?per_page=1000` });
  await call({ method: 'GET', url: `${ws}/contacts/${ann.id}` });
  await call({ method: 'GET', url: `${ws}/contacts/999999` });
  await call({ method: 'POST', url: `${ws}/contacts/${ann.id}`, payload: { name: 'Ann Lee' } });
  await call({ method: 'POST', url: `${ws}/contacts/${ann.id}`, payload: {} });
  await call({ method: 'POST', url: `${ws}/contacts/999999`, payload: { name: 'Nobody' } });
  await call({ method: 'GET', url: new URL(bea.avatar_url).pathname, token: null });
  await call({ method: 'GET', url: '/api/v3/files/00000000-0000-4000-8000-000000000000', token: null });
  await call({ method: 'DELETE', url: `${ws}/contacts/${ann.id}` });
  await call({ method: 'DELETE', url: `${ws}/contacts/${ann.id}` });

  // Imports.
  const csv = { name: 'file', filename: 'people.csv', type: 'text/csv', bytes: Buffer.from('number,name\n14155550102,Cid\n') };
  const upload = (await call({ method: 'POST', url: `${ws}/contact-imports`, ...multipart([['name', 'June']], [csv]) })).json().data;
  await call({ method: 'POST', url: `${ws}/contact-imports`, ...multipart([['name', 'No file']]) });
  await call({ method: 'GET', url: `${ws}/contact-imports` });
  await call({ method: 'GET', url: `${ws}/contact-imports/${upload.id}` });
  await call({ method: 'GET', url: `${ws}/contact-imports/${upload.id}/errors` });
  await call({ method: 'DELETE', url: `${ws}/contact-imports/${upload.id}` });
  await call({ method: 'DELETE', url: `${ws}/contact-imports/${upload.id}` });

  // Templates: nothing pending yet, then JSON and media creates, sync, list, get, delete.
  await call({ method: 'POST', url: `${ws}/templates/sync` });
  const order = (await call({ method: 'POST', url: `${ws}/templates`, payload: utility('order_update') })).json().data;
  await call({
    method: 'POST',
    url: `${ws}/templates`,
    ...multipart(
      [
        ['name', 'spring_sale'],
        ['language', 'en'],
        ['category', 'MARKETING'],
        ['header[type]', 'media'],
        ['header[media][type]', 'image'],
        ['body[text]', 'Sale now on.'],
        ['unsubscribeButton', '1'],
      ],
      [{ name: 'header[media][file]', filename: 'banner.png', type: 'image/png', bytes: PNG }],
    ),
  });
  await call({ method: 'POST', url: `${ws}/templates`, payload: { name: 'Bad Name', language: 'en', category: 'UTILITY' } });
  await call({ method: 'POST', url: `${ws}/templates/sync` });
  await call({ method: 'GET', url: `${ws}/templates?status=PENDING` });
  await call({ method: 'GET', url: `${ws}/templates?category=NOPE` });
  await call({ method: 'GET', url: `${ws}/templates/${order.id}` });
  await call({ method: 'GET', url: `${ws}/templates/999999` });
  await call({ method: 'DELETE', url: `${ws}/templates/${order.id}` });
  await call({ method: 'DELETE', url: `${ws}/templates/${order.id}` });
}

describe('the API suite against /api/v3/openapi.json', () => {
  it('ran a scenario of more than 90 calls', () => {
    expect(seen.length).toBeGreaterThan(90);
  });

  it('answers only statuses the document lists for the operation, with bodies that match its schemas', () => {
    const problems: string[] = [];
    for (const answer of seen) {
      const where = `${answer.method} ${answer.url} -> ${answer.status}`;
      const path = operationPath(answer.method, answer.url);
      if (!path) {
        problems.push(`${where}: no operation in the document`);
        continue;
      }
      const response = doc.paths[path][answer.method.toLowerCase()].responses[String(answer.status)];
      if (!response) {
        problems.push(`${where}: status not listed for ${answer.method} ${path}`);
        continue;
      }
      const schema = response.content?.['application/json']?.schema;
      if (!schema || !answer.contentType.startsWith('application/json')) continue;
      const validate = validatorFor(schema);
      if (!validate(JSON.parse(answer.body))) problems.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(problems).toEqual([]);
  });

  it('called every operation of the document', () => {
    const called = new Set(seen.map((answer) => `${answer.method.toUpperCase()} ${operationPath(answer.method, answer.url)}`));
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.filter((operation) => !called.has(operation))).toEqual([]);
  });
});
