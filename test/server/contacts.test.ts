import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, NOT_FOUND, stamp, type Harness } from './harness.js';
import { multipart as multipartBody } from './template-fixtures.js';
import { buildApp } from '../../src/server/app.js';
import { openDatabase } from '../../src/server/db.js';
import { join } from 'node:path';
import { createWorkspacesRepository } from '../../src/server/repositories/workspaces.js';
import { createGroupsRepository } from '../../src/server/repositories/groups.js';
import { searchKey } from '../../src/server/repositories/search-key.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h?.close();
});

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const contactsUrl = () => `/api/v3/workspaces/${h.ws}/contacts`;

/** A real multipart body: [name, value] pairs; Buffers become file parts. */
function multipart(parts: Array<[string, string | { data: Buffer; filename: string; type: string }]>) {
  const fields = parts.filter((part): part is [string, string] => typeof part[1] === 'string');
  const files = parts.flatMap(([name, value]) =>
    typeof value === 'string' ? [] : [{ name, filename: value.filename, type: value.type, bytes: value.data }],
  );
  return multipartBody(fields, files);
}

async function createGroup(name: string): Promise<number> {
  const res = await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/contact-groups`, payload: { name } });
  return res.json().data.id;
}
async function createField(name: string): Promise<number> {
  const res = await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/contact-fields`, payload: { name } });
  return res.json().data.id;
}
const createContact = (payload: Record<string, unknown>) => h.create(contactsUrl(), payload);

describe('contacts: create', () => {
  it('creates from JSON with the exact envelope: number normalised, name Unknown, status true', async () => {
    const res = await h.call({ method: 'POST', url: contactsUrl(), payload: { number: '+1 (555) 123-45.67' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      status: 201,
      message: 'Contact created successfully.',
      data: {
        id: expect.any(Number),
        workspace_id: h.ws,
        number: '15551234567',
        name: 'Unknown',
        email: null,
        gender: null,
        status: true,
        avatar_url: null,
        contact_groups: [],
        fields: {},
        ...stamp,
      },
    });
  });

  it('creates with groups and field values, and GET returns the same record', async () => {
    const vip = await createGroup('VIP');
    const lisbon = await createGroup('Lisbon');
    await createField('city');
    const made = await createContact({
      number: '351911111111',
      name: 'Ana',
      email: 'ana@example.com',
      gender: 'female',
      status: false,
      contact_groups: [lisbon, vip],
      fields: { city: 'Lisbon' },
    });
    expect(made).toMatchObject({
      name: 'Ana',
      email: 'ana@example.com',
      gender: 'female',
      status: false,
      contact_groups: [
        { id: vip, name: 'VIP' },
        { id: lisbon, name: 'Lisbon' },
      ],
      fields: { city: 'Lisbon' },
    });
    const got = await h.call({ method: 'GET', url: `${contactsUrl()}/${made.id}` });
    expect(got.json()).toEqual({ data: made });
    const group = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contact-groups/${vip}` });
    expect(group.json().data.contacts_count).toBe(1);
  });

  it('refuses a number already taken once normalised', async () => {
    await createContact({ number: '5551234567' });
    const res = await h.call({ method: 'POST', url: contactsUrl(), payload: { number: '+555-123-4567' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: 'Validation error', errors: { number: ['The number has already been taken.'] } });
  });

  it('names every broken rule with its own key', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{}, { number: ['The number field is required.'] }],
      [{ number: '12ab' }, { number: ['The number must be a phone number of 7 to 15 digits.'] }],
      [{ number: '1234567890123456' }, { number: ['The number must be a phone number of 7 to 15 digits.'] }],
      [{ number: '5550001', name: 'x'.repeat(51) }, { name: ['The name field must not be greater than 50 characters.'] }],
      [{ number: '5550001', email: 'not-an-email' }, { email: ['The email field must be a valid email address.'] }],
      [{ number: '5550001', gender: 'robot' }, { gender: ['The selected gender is invalid: it must be one of male, female, other.'] }],
      [{ number: '5550001', status: 'maybe' }, { status: ['The status field must be a boolean.'] }],
    ];
    for (const [payload, errors] of cases) {
      const res = await h.call({ method: 'POST', url: contactsUrl(), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toEqual({ message: 'Validation error', errors });
    }
  });

  it('refuses groups and fields of no such name in this workspace, by index and by name', async () => {
    const vip = await createGroup('VIP');
    const res = await h.call({
      method: 'POST',
      url: contactsUrl(),
      payload: { number: '5550002', contact_groups: [vip, 9999], fields: { nope: 'x' } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'Validation error',
      errors: {
        'contact_groups.1': ['The selected contact group is invalid.'],
        'fields.nope': ['The nope field is not a contact field of this workspace.'],
      },
    });
    // A group of another workspace is as unknown as a missing one.
    const elsewhere = createWorkspacesRepository(h.db).create({ name: 'Elsewhere', createdBy: 1, permissions: [] });
    const theirs = createGroupsRepository(h.db).insert(elsewhere.id, { name: 'Theirs' });
    const cross = await h.call({ method: 'POST', url: contactsUrl(), payload: { number: '5550003', contact_groups: [theirs.id] } });
    expect(cross.json().errors).toEqual({ 'contact_groups.0': ['The selected contact group is invalid.'] });
  });
});

describe('contacts: multipart', () => {
  it('parses contact_groups[] and status=0, and serves the PNG avatar at avatar_url', async () => {
    const a = await createGroup('A');
    const b = await createGroup('B');
    const form = multipart([
      ['number', '5551110000'],
      ['name', 'Multi'],
      ['status', '0'],
      ['contact_groups[]', String(a)],
      ['contact_groups[]', String(b)],
      ['avatar', { data: PNG, filename: 'me.png', type: 'image/png' }],
    ]);
    const res = await h.call({ method: 'POST', url: contactsUrl(), ...form });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      name: 'Multi',
      status: false,
      contact_groups: [
        { id: a, name: 'A' },
        { id: b, name: 'B' },
      ],
    });
    expect(data.avatar_url).toMatch(/^http:\/\/localhost(:\d+)?\/api\/v3\/files\/[0-9a-f-]{36}$/);
    const file = await h.call({ method: 'GET', url: new URL(data.avatar_url).pathname, token: null });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(PNG)).toBe(true);
  });

  it('parses contact_groups[0] and fields[name] on update, replacing groups', async () => {
    const a = await createGroup('A');
    const b = await createGroup('B');
    await createField('city');
    const made = await createContact({ number: '5552220000', contact_groups: [a] });
    const form = multipart([
      ['name', 'Renamed'],
      ['status', 'false'],
      ['contact_groups[0]', String(b)],
      ['fields[city]', 'Porto'],
    ]);
    const res = await h.call({ method: 'POST', url: `${contactsUrl()}/${made.id}`, ...form });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Renamed',
      status: false,
      contact_groups: [{ id: b, name: 'B' }],
      fields: { city: 'Porto' },
    });
  });

  it('refuses a text file as avatar (422) and one over 2 MB (413)', async () => {
    const text = multipart([
      ['number', '5553330000'],
      ['avatar', { data: Buffer.from('hello, not an image'), filename: 'me.png', type: 'image/png' }],
    ]);
    const bad = await h.call({ method: 'POST', url: contactsUrl(), ...text });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({
      message: 'Validation error',
      errors: { avatar: ['The avatar must be an image (PNG, JPEG, GIF or WebP).'] },
    });

    const huge = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const big = await h.call({
      method: 'POST',
      url: contactsUrl(),
      ...multipart([
        ['number', '5553330001'],
        ['avatar', { data: huge, filename: 'big.png', type: 'image/png' }],
      ]),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ message: 'Payload too large.', status: 413 });
    const list = await h.call({ method: 'GET', url: contactsUrl() });
    expect(list.json().meta.total).toBe(0);
  });
});

describe('contacts: get, update, delete', () => {
  it('updates: name required, number ignored, null clears, omitted keeps, groups replaced, fields merged', async () => {
    const a = await createGroup('A');
    await createField('city');
    await createField('team');
    const made = await createContact({
      number: '5554440000',
      name: 'Old',
      email: 'old@example.com',
      gender: 'other',
      contact_groups: [a],
      fields: { city: 'Lisbon', team: 'Blue' },
    });
    const url = `${contactsUrl()}/${made.id}`;

    const missing = await h.call({ method: 'POST', url, payload: { email: 'x@example.com' } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({ message: 'Validation error', errors: { name: ['The name field is required.'] } });

    const res = await h.call({
      method: 'POST',
      url,
      payload: { name: 'New', number: '999999999', gender: null, contact_groups: [], fields: { city: '', team: 'Red' } },
    });
    expect(res.json()).toEqual({
      status: 200,
      message: 'Contact updated successfully.',
      data: { ...made, name: 'New', gender: null, contact_groups: [], fields: { team: 'Red' }, updated_at: expect.stringMatching(/Z$/) },
    });
    const unknownGroup = await h.call({ method: 'POST', url, payload: { name: 'New', contact_groups: [12345] } });
    expect(unknownGroup.json().errors).toEqual({ 'contact_groups.0': ['The selected contact group is invalid.'] });
  });

  it('deletes with the exact body, then 404s; deleting the avatar file with it', async () => {
    const form = multipart([
      ['number', '5555550000'],
      ['avatar', { data: PNG, filename: 'a.png', type: 'image/png' }],
    ]);
    const made = (await h.call({ method: 'POST', url: contactsUrl(), ...form })).json().data;
    const url = `${contactsUrl()}/${made.id}`;
    const del = await h.call({ method: 'DELETE', url });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: 'Contact deleted successfully.', status: 200 });
    expect((await h.call({ method: 'GET', url })).statusCode).toBe(404);
    expect((await h.call({ method: 'DELETE', url })).json()).toEqual({ message: 'Resource not found.', status: 404 });
    expect((await h.call({ method: 'GET', url: new URL(made.avatar_url).pathname, token: null })).statusCode).toBe(404);
  });

  it('answers 404 for a missing id, a non-integer id and a workspace the user is not in', async () => {
    const made = await createContact({ number: '5556660000' });
    for (const id of ['999999', 'abc', '0', '-1', '1.5']) {
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        const res = await h.call({ method, url: `${contactsUrl()}/${id}`, payload: method === 'POST' ? { name: 'x' } : undefined });
        expect(res.statusCode, `${method} ${id}`).toBe(404);
        expect(res.json()).toEqual(NOT_FOUND);
      }
    }
    const outsider = await h.outsider();
    for (const [method, url] of [
      ['GET', contactsUrl()],
      ['POST', contactsUrl()],
      ['GET', `${contactsUrl()}/${made.id}`],
      ['POST', `${contactsUrl()}/${made.id}`],
      ['DELETE', `${contactsUrl()}/${made.id}`],
    ] as const) {
      const res = await h.call({
        method,
        url,
        token: outsider,
        payload: method === 'POST' ? { number: '5556660001', name: 'x' } : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
  });

  it('answers 401 without a token and 403 without the permission, for every operation', async () => {
    const made = await createContact({ number: '5557770000' });
    const viewer = await h.memberWith(['contacts.view']);
    const nobody = await h.memberWith(['contacts.create', 'contacts.update', 'contacts.delete']);
    const operations = [
      { method: 'GET', url: contactsUrl(), needs: 'contacts.view' },
      { method: 'GET', url: `${contactsUrl()}/${made.id}`, needs: 'contacts.view' },
      { method: 'POST', url: contactsUrl(), needs: 'contacts.create', payload: { number: '5557770001' } },
      { method: 'POST', url: `${contactsUrl()}/${made.id}`, needs: 'contacts.update', payload: { name: 'x' } },
      { method: 'DELETE', url: `${contactsUrl()}/${made.id}`, needs: 'contacts.delete' },
    ] as const;
    for (const op of operations) {
      const anonymous = await h.call({ method: op.method, url: op.url, payload: 'payload' in op ? op.payload : undefined, token: null });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toEqual({ message: 'Unauthenticated.' });
      const token = op.needs === 'contacts.view' ? nobody : viewer;
      const denied = await h.call({ method: op.method, url: op.url, payload: 'payload' in op ? op.payload : undefined, token });
      expect(denied.statusCode, `${op.method} ${op.url}`).toBe(403);
      expect(denied.json()).toEqual({ message: 'This action is unauthorized.', status: 403 });
    }
  });
});

describe('contacts: list', () => {
  it('pages in id order with exact meta and absolute links carrying the query', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await createContact({ number: `555000000${i}`, name: `P${i}` })).id);
    const res = await h.call({ method: 'GET', url: `${contactsUrl()}?per_page=2&page=2` });
    const body = res.json();
    expect(body.data.map((c: { id: number }) => c.id)).toEqual(ids.slice(2, 4));
    expect(body.meta).toEqual({ current_page: 2, per_page: 2, total: 5, last_page: 3, from: 3, to: 4 });
    const link = (page: number) =>
      expect.stringMatching(new RegExp(`^http://localhost(:\\d+)?${contactsUrl()}\\?per_page=2&page=${page}$`));
    expect(body.links).toEqual({ first: link(1), last: link(3), prev: link(1), next: link(3) });

    const last = (await h.call({ method: 'GET', url: `${contactsUrl()}?per_page=2&page=3` })).json();
    expect(last.data.map((c: { id: number }) => c.id)).toEqual([ids[4]]);
    expect(last.meta).toEqual({ current_page: 3, per_page: 2, total: 5, last_page: 3, from: 5, to: 5 });
    expect(last.links.next).toBeNull();

    const empty = (await h.call({ method: 'GET', url: `${contactsUrl()}?per_page=2&page=7&search=P` })).json();
    expect(empty.data).toEqual([]);
    expect(empty.meta).toEqual({ current_page: 7, per_page: 2, total: 5, last_page: 3, from: null, to: null });
    expect(empty.links.first).toMatch(/\?per_page=2&page=1&search=P$/);
    expect(empty.links.next).toBeNull();

    const defaults = (await h.call({ method: 'GET', url: contactsUrl() })).json();
    expect(defaults.meta).toEqual({ current_page: 1, per_page: 10, total: 5, last_page: 1, from: 1, to: 5 });
    expect(defaults.links.prev).toBeNull();
  });

  it('keeps every other query parameter in its links, encoded as a URL encodes it, the page replaced in place', async () => {
    for (let i = 0; i < 3; i++) await createContact({ number: `1415555017${i}`, name: `Ana Page ${i}` });
    const url = `${contactsUrl()}?search=ana%20page&page=2&per_page=1&x=%C3%A9+%26`;
    const body = (await h.call({ method: 'GET', url })).json();
    const expected = (page: number) => {
      const link = new URL(url, 'http://localhost');
      link.searchParams.set('page', String(page));
      return link.toString();
    };
    expect(body.meta).toMatchObject({ current_page: 2, total: 3, last_page: 3 });
    expect(body.links).toEqual({ first: expected(1), last: expected(3), prev: expected(1), next: expected(3) });
    expect(body.links.next).toBe(`http://localhost${contactsUrl()}?search=ana+page&page=3&per_page=1&x=%C3%A9+%26`);
  });

  it('answers an empty workspace with from/to null and last_page 1', async () => {
    const body = (await h.call({ method: 'GET', url: contactsUrl() })).json();
    expect(body).toEqual({
      data: [],
      meta: { current_page: 1, per_page: 10, total: 0, last_page: 1, from: null, to: null },
      links: { first: expect.stringMatching(/\?page=1$/), last: expect.stringMatching(/\?page=1$/), prev: null, next: null },
    });
  });

  it('refuses per_page 0, 101 and x, and page 0', async () => {
    const cases: Array<[string, Record<string, string[]>]> = [
      ['per_page=0', { per_page: ['The per page field must be at least 1.'] }],
      ['per_page=101', { per_page: ['The per page field must not be greater than 100.'] }],
      ['per_page=x', { per_page: ['The per page field must be a number.'] }],
      ['page=0', { page: ['The page field must be at least 1.'] }],
    ];
    for (const [query, errors] of cases) {
      const res = await h.call({ method: 'GET', url: `${contactsUrl()}?${query}` });
      expect(res.statusCode, query).toBe(422);
      expect(res.json()).toEqual({ message: 'Validation error', errors });
    }
  });
});

describe('contacts: search', () => {
  /** A small deterministic generator, so a failure can be replayed. */
  function random(seed: number) {
    return () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
  }

  it('matches exactly the contacts whose folded name, number or email holds the folded query (case and accents aside)', async () => {
    const next = random(42);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
    const first = ['Ana', 'ANDRE', 'bruno', 'Carla', 'Dário_x', 'Eve%Ann', 'fred "Q"', 'Back\\slash', "O'Neil", 'zoe'];
    const last = ['Silva', 'SMITH', 'costa', 'Ng', 'de la Cruz', '100%', 'a_b'];
    const domains = ['example.com', 'MAIL.org', 'x-y.net'];
    const people: Array<{ id: number; name: string; number: string; email: string | null }> = [];
    for (let i = 0; i < 300; i += 1) {
      const name = `${pick(first)} ${pick(last)}`.slice(0, 50);
      const number = String(3510000000 + Math.floor(next() * 9000000) * 7 + i);
      const email = next() < 0.3 ? null : `${name.replace(/[^A-Za-z]/g, '').toLowerCase()}${next() < 0.5 ? '_' : '.'}${i}@${pick(domains)}`;
      const made = await createContact({ number, name, email });
      people.push({ id: made.id, name: made.name, number: made.number, email: made.email });
    }
    const queries = [
      'a',
      'A',
      'z',
      '5',
      '%',
      '_',
      '"',
      '\\',
      "'",
      'an',
      'AN',
      '10',
      '0%',
      'a_',
      ' d',
      'ana',
      'ANDRE SM',
      'silva',
      'mail.ORG',
      '351',
      '100%',
      'a_b',
      '"q"',
      'slash',
      "o'n",
      'x-y',
      'a_1',
      'de la',
      'nomatchatall',
      '@',
    ];
    for (const q of queries) {
      const expected = people
        .filter((p) => [p.name, p.number, p.email ?? ''].some((v) => searchKey(v).includes(searchKey(q))))
        .map((p) => p.id);
      // Every query but the last finds something, so equality is not vacuous.
      if (q !== 'nomatchatall') expect(expected.length, q).toBeGreaterThan(0);
      const got: number[] = [];
      let total = -1;
      for (let page = 1; ; page += 1) {
        const res = await h.call({ method: 'GET', url: contactsUrl(), query: { search: q, per_page: '100', page: String(page) } });
        expect(res.statusCode, q).toBe(200);
        const body = res.json();
        total = body.meta.total;
        got.push(...body.data.map((c: { id: number }) => c.id));
        if (page >= body.meta.last_page) break;
      }
      expect(got, `search ${JSON.stringify(q)}`).toEqual(expected);
      expect(total, `total for ${JSON.stringify(q)}`).toBe(expected.length);
    }
  });

  it('keeps search results in step with updates and deletes', async () => {
    const a = await createContact({ number: '5558880000', name: 'Zebra Crossing' });
    await createContact({ number: '5558880001', name: 'Other' });
    const search = async (q: string) =>
      (await h.call({ method: 'GET', url: contactsUrl(), query: { search: q } })).json().data.map((c: { id: number }) => c.id);
    expect(await search('zebra')).toEqual([a.id]);
    await h.call({ method: 'POST', url: `${contactsUrl()}/${a.id}`, payload: { name: 'Lion' } });
    expect(await search('zebra')).toEqual([]);
    expect(await search('lion')).toEqual([a.id]);
    await h.call({ method: 'DELETE', url: `${contactsUrl()}/${a.id}` });
    expect(await search('lion')).toEqual([]);
  });

  // Totals are kept between the pages of one walk, never past a change of the database.
  it.each(['Walker', 'Wa'])('keeps meta.total exact for %s across writes by this server and by another connection', async (q) => {
    const total = async () => (await h.call({ method: 'GET', url: contactsUrl(), query: { search: q, per_page: '1' } })).json().meta.total;
    await createContact({ number: '5557770001', name: 'Walker One' });
    await createContact({ number: '5557770002', name: 'Walker Two' });
    expect(await total()).toBe(2);
    expect(await total()).toBe(2);
    const third = await createContact({ number: '5557770003', name: 'Walker Three' });
    expect(await total()).toBe(3);
    await h.call({ method: 'DELETE', url: `${contactsUrl()}/${third.id}` });
    expect(await total()).toBe(2);
    // A write committed by another connection to the same file (as the import worker's would be).
    const otherDb = openDatabase(h.dbPath);
    const other = await buildApp({ db: otherDb, uploadsDir: join(h.dir, 'uploads'), workers: false });
    try {
      const res = await other.inject({
        method: 'POST',
        url: contactsUrl(),
        headers: { authorization: `Bearer ${h.token}` },
        payload: { number: '5557770004', name: 'Walker Four' },
      });
      expect(res.statusCode, res.body).toBe(201);
    } finally {
      await other.close();
      otherDb.close();
    }
    expect(await total()).toBe(3);
  });
});
