// The contact list's filters an agent relies on: a search written as a phone number
// finds the number as stored, and `fields[<name>]=<value>` keeps the contacts holding each value
// exactly, with its total, pages and links, and says it applied the filter.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h?.close();
});

const contactsUrl = () => `/api/v3/workspaces/${h.ws}/contacts`;
const list = (query: string) => h.call({ method: 'GET', url: `${contactsUrl()}?${query}` });

async function people() {
  for (const name of ['city', 'tier']) await h.create(`/api/v3/workspaces/${h.ws}/contact-fields`, { name });
  const rows: Array<[string, string, Record<string, string>]> = [
    ['+351 912 345 601', 'Ana', { city: 'Lisbon', tier: 'gold' }],
    ['+351 912 345 602', 'Bruno', { city: 'Lisbon' }],
    ['+351 912 345 603', 'Carla', { city: 'Porto', tier: 'gold' }],
    ['+351 912 345 604', 'Diana', { city: 'lisbon', tier: 'gold' }],
    ['+351 912 345 605', 'Eva', { city: 'Lisbon', tier: 'gold' }],
  ];
  const ids: Record<string, number> = {};
  for (const [number, name, fields] of rows) ids[name] = (await h.create(contactsUrl(), { number, name, fields })).id;
  return ids;
}
const names = (body: { data: Array<{ name: string }> }) => body.data.map((c) => c.name);

describe('contacts: a search written as a phone number', () => {
  it('finds the number as stored, however it is written', async () => {
    await people();
    for (const query of ['+351912345601', '+351 912-345-601', '(351) 912.345.601', '912345601', '+351912']) {
      const body = (await list(`search=${encodeURIComponent(query)}`)).json();
      expect(names(body).includes('Ana'), query).toBe(true);
    }
    const exact = (await list(`search=${encodeURIComponent('+351912345601')}`)).json();
    expect(names(exact)).toEqual(['Ana']);
    expect(exact.meta.total).toBe(1);
  });

  it('searches any other query as typed', async () => {
    await h.create(contactsUrl(), { number: '15550000001', name: 'Ana (x+1)' });
    expect(names((await list(`search=${encodeURIComponent('(x+1)')}`)).json())).toEqual(['Ana (x+1)']);
  });

  it('finds its text as typed as well, and its digits in numbers only, with a field filter too', async () => {
    await people();
    await h.create(contactsUrl(), { number: '4930111222', name: 'Invoice 2024-01-02', fields: { city: 'Lisbon' } });
    await h.create(contactsUrl(), { number: '4930111223', name: 'Ref 351912345601', fields: { city: 'Lisbon' } });
    const dated = (await list(`search=${encodeURIComponent('2024-01-02')}&fields[city]=Lisbon`)).json();
    expect(names(dated)).toEqual(['Invoice 2024-01-02']);
    expect(dated.meta.total).toBe(1);
    const numbered = (await list(`search=${encodeURIComponent('+351 912 345 601')}&fields[city]=Lisbon`)).json();
    expect(names(numbered)).toEqual(['Ana']);
    expect(numbered.meta.total).toBe(1);
  });
});

describe('contacts: filter by custom field (extension)', () => {
  it('keeps the contacts holding the value exactly, and says it filtered', async () => {
    await people();
    const res = await list('fields[city]=Lisbon');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(names(body)).toEqual(['Ana', 'Bruno', 'Eva']);
    expect(body.meta).toMatchObject({ total: 3, current_page: 1, last_page: 1, field_filter: { city: 'Lisbon' } });
  });

  it('ANDs several fields, pages them with links that keep the filter, and combines with search', async () => {
    await people();
    const first = (await list('fields[city]=Lisbon&fields[tier]=gold&per_page=1')).json();
    expect(names(first)).toEqual(['Ana']);
    expect(first.meta).toMatchObject({ total: 2, last_page: 2 });
    expect(decodeURIComponent(first.links.next)).toContain('fields[city]=Lisbon&fields[tier]=gold');
    const second = (await h.call({ method: 'GET', url: new URL(first.links.next).pathname + new URL(first.links.next).search })).json();
    expect(names(second)).toEqual(['Eva']);
    const searched = (await list('fields[city]=Lisbon&search=ev')).json();
    expect(names(searched)).toEqual(['Eva']);
    expect(searched.meta.total).toBe(1);
  });

  it('follows changes: a value updated or removed leaves the filter', async () => {
    const ids = await people();
    await h.call({ method: 'POST', url: `${contactsUrl()}/${ids.Ana}`, payload: { name: 'Ana', fields: { city: 'Faro' } } });
    await h.call({ method: 'POST', url: `${contactsUrl()}/${ids.Bruno}`, payload: { name: 'Bruno', fields: { city: '' } } });
    expect(names((await list('fields[city]=Lisbon')).json())).toEqual(['Eva']);
    expect(names((await list('fields[city]=Faro')).json())).toEqual(['Ana']);
  });

  it('answers 422 naming a field the workspace does not have, or an empty value', async () => {
    await people();
    const unknown = await list('fields[town]=Lisbon');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ 'fields.town': ['The town field is not a contact field of this workspace.'] });
    const empty = await list('fields[city]=');
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().errors)).toEqual(['fields.city']);
  });

  it('is left out by --api-only, as the hosted service would', async () => {
    const apiOnly = await createHarness({ apiOnly: true });
    try {
      await apiOnly.create(`/api/v3/workspaces/${apiOnly.ws}/contacts`, { number: '15550000001', name: 'Ana' });
      const body = (await apiOnly.call({ method: 'GET', url: `/api/v3/workspaces/${apiOnly.ws}/contacts?fields[city]=Lisbon` })).json();
      expect(body.data).toHaveLength(1);
      expect(body.meta.field_filter).toBeUndefined();
    } finally {
      await apiOnly.close();
    }
  });

  it('is in the OpenAPI document as a deepObject parameter', async () => {
    const doc = (await h.call({ method: 'GET', url: '/api/v3/openapi.json' })).json();
    const parameters = doc.paths['/workspaces/{workspace}/contacts'].get.parameters as Array<{ name: string; style?: string }>;
    expect(parameters.find((p) => p.name === 'fields')).toMatchObject({ in: 'query', style: 'deepObject', explode: true });
  });
});

describe('templates: a status filter names a status', () => {
  it('a status the API does not have (lowercase included) is a 422 listing them, not an empty list', async () => {
    const res = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/templates?status=approved` });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['status']);
    expect((await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/templates?status=APPROVED` })).statusCode).toBe(200);
  });
});

describe('contacts: a field filter the server cannot apply is refused, never ignored', () => {
  it('refuses a malformed or prototype-named filter with a 422 under fields (an unfiltered list would be taken for a filtered one)', async () => {
    await people();
    for (const query of [
      'fields[__proto__]=x',
      'fields[city][x]=Lisbon',
      'fields[city][]=Lisbon',
      'fields[city]=Lisbon&fields[constructor]=x',
    ]) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(422);
      expect(
        Object.keys(res.json().errors).every((key) => key.startsWith('fields')),
        query,
      ).toBe(true);
    }
  });

  it('refuses a prototype-named filter only once the caller may list: a stranger gets 404, a member without contacts.view 403', async () => {
    const url = `${contactsUrl()}?fields[__proto__]=x`;
    expect((await h.call({ method: 'GET', url, token: await h.outsider() })).statusCode).toBe(404);
    expect((await h.call({ method: 'GET', url, token: await h.memberWith(['labels.view']) })).statusCode).toBe(403);
    const refused = await h.call({ method: 'GET', url });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors)).toEqual(['fields.__proto__']);
  });

  it('refuses more values than one query can join with a 422, not a 500', async () => {
    await people();
    const many = Array.from({ length: 65 }, (_, i) => `fields[f${String.fromCharCode(97 + (i % 26))}${i}]=v`).join('&');
    const res = await list(many);
    expect(res.statusCode).toBe(422);
    expect(JSON.stringify(res.json().errors)).toContain('At most 32 fields');
  });
});

describe('contacts: a name with nothing visible', () => {
  it('is refused on create as on update (control and format characters only)', async () => {
    for (const name of ['\u0000', '\u009c', '\u200b', '\u202e\u00ad']) {
      const res = await h.call({ method: 'POST', url: contactsUrl(), payload: { number: '+15559990001', name } });
      expect(res.statusCode, JSON.stringify(name)).toBe(422);
      expect(res.json().errors.name).toEqual(['The name field is required.']);
    }
    expect((await h.call({ method: 'POST', url: contactsUrl(), payload: { number: '+15559990001', name: '' } })).statusCode).toBe(201);
  });
});
