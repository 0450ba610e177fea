/**
 * Answers kept between requests while the database is unchanged (repositories/generations.ts): who
 * the caller is, and the pages of a contact list. Each test asks the same thing twice (the second
 * answer comes from memory), changes something by this server, by a write outside any request, or
 * by another connection to the file, and asks again: the change shows at once.
 */
import Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { people, FORBIDDEN, PASSWORD } from './people.js';
import { hashToken } from '../../src/server/repositories/users.js';
import { multipart } from './template-fixtures.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const UNAUTHENTICATED = { message: 'Unauthenticated.' };

let h: Harness;
let other: Database.Database | undefined;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  other?.close();
  other = undefined;
  await h?.close();
});

const contactsUrl = () => `/api/v3/workspaces/${h.ws}/contacts`;
/** The list as a user sees it, asked twice: both answers must agree (the second is the kept one). */
async function listTwice(token?: string, query = '') {
  const first = await h.call({ method: 'GET', url: `${contactsUrl()}${query}`, token });
  const second = await h.call({ method: 'GET', url: `${contactsUrl()}${query}`, token });
  expect({ status: second.statusCode, body: second.body }).toEqual({ status: first.statusCode, body: first.body });
  return { status: first.statusCode, body: first.json() };
}
const names = (body: { data: Array<{ name: string }> }) => body.data.map((contact) => contact.name);
/** A second connection to the server's database file, as another process would hold. */
const elsewhere = () => (other ??= new Database(h.dbPath));

describe('a contact list page asked again', () => {
  it('shows a change made by this server, outside any request, or by another connection, at once', async () => {
    const group = await h.create(`/api/v3/workspaces/${h.ws}/contact-groups`, { name: 'Friends' });
    const field = await h.create(`/api/v3/workspaces/${h.ws}/contact-fields`, { name: 'city' });
    const ann = await h.create(contactsUrl(), {
      number: '+15550000001',
      name: 'Ann',
      contact_groups: [group.id],
      fields: { city: 'Porto' },
    });
    await h.create(contactsUrl(), { number: '+15550000002', name: 'Bob' });
    expect(names((await listTwice()).body)).toEqual(['Ann', 'Bob']);

    // Through the API.
    expect((await h.call({ method: 'POST', url: `${contactsUrl()}/${ann.id}`, payload: { name: 'Anna' } })).statusCode).toBe(200);
    expect(names((await listTwice()).body)).toEqual(['Anna', 'Bob']);
    expect((await h.call({ method: 'DELETE', url: `/api/v3/workspaces/${h.ws}/contact-fields/${field.id}` })).statusCode).toBe(200);
    expect((await listTwice()).body.data[0].fields).toEqual({});

    // On the server's own connection, outside any request (as its workers write).
    h.db.prepare('UPDATE contact_groups SET name = ? WHERE id = ?').run('Family', group.id);
    expect((await listTwice()).body.data[0].contact_groups).toEqual([{ id: group.id, name: 'Family' }]);

    // By another connection to the same file.
    elsewhere().prepare('UPDATE contacts SET name = ? WHERE id = ?').run('Annie', ann.id);
    expect(names((await listTwice()).body)).toEqual(['Annie', 'Bob']);
    elsewhere().prepare('DELETE FROM contacts WHERE id = ?').run(ann.id);
    const { body } = await listTwice();
    expect({ names: names(body), total: body.meta.total }).toEqual({ names: ['Bob'], total: 1 });
  });

  it('keeps each page, page size, search and host apart', async () => {
    for (let i = 1; i <= 5; i++) await h.create(contactsUrl(), { number: `+1555000000${i}`, name: `Person ${i}` });
    expect(names((await listTwice(undefined, '?per_page=2&page=2')).body)).toEqual(['Person 3', 'Person 4']);
    expect(names((await listTwice(undefined, '?per_page=3&page=2')).body)).toEqual(['Person 4', 'Person 5']);
    expect(names((await listTwice(undefined, '?per_page=2&page=2&search=person')).body)).toEqual(['Person 3', 'Person 4']);
    expect(names((await listTwice(undefined, '?per_page=2&page=1&search=Person%205')).body)).toEqual(['Person 5']);
    expect(names((await listTwice(undefined, '?per_page=2&page=1')).body)).toEqual(['Person 1', 'Person 2']);

    // An avatar's URL, and every link, starts with the host the client asked (one this server answers to).
    const form = multipart([['number', '+15550000009']], [{ name: 'avatar', filename: 'a.png', type: 'image/png', bytes: PNG }]);
    const made = await h.call({ method: 'POST', url: contactsUrl(), ...form });
    expect(made.statusCode, made.body).toBe(201);
    const avatarAt = async (host: string) => {
      const res = await h.call({ method: 'GET', url: `${contactsUrl()}?page=2&per_page=5`, headers: { host } });
      return { avatar: res.json().data[0].avatar_url, first: res.json().links.first };
    };
    for (const host of ['localhost', '127.0.0.1', 'localhost']) {
      const seen = await avatarAt(host);
      expect(seen.avatar).toMatch(new RegExp(`^http://${host.replace(/\./g, '\\.')}/api/v3/files/`));
      expect(seen.first).toBe(`http://${host}${contactsUrl()}?page=1&per_page=5`);
    }
  });
});

describe('a search asked again', () => {
  it('answers its page afresh and its total from memory until the database changes', async () => {
    for (const [i, name] of ['Walker', 'Walter', 'Ann'].entries()) await h.create(contactsUrl(), { number: `+155500001${i}`, name });
    const search = async () => {
      const res = await h.call({ method: 'GET', url: `${contactsUrl()}?search=wal` });
      return { total: res.json().meta.total, counted: /total;dur=[\d.]+;desc="(\w+)"/.exec(String(res.headers['server-timing']))?.[1] };
    };
    const first = await search();
    expect(first.total).toBe(2);
    expect(first.counted).not.toBe('kept');
    expect(await search()).toEqual({ total: 2, counted: 'kept' });
    elsewhere().prepare("UPDATE contacts SET name = 'Wallace', name_key = 'wallace' WHERE name = 'Ann'").run();
    const after = await search();
    expect(after.total).toBe(3);
    expect(after.counted).not.toBe('kept');
  });
});

describe('the caller, asked again', () => {
  it('is refused at once when its role stops granting the list, its membership is deactivated, or its token is revoked', async () => {
    const p = people(h);
    const viewer = await p.user('Vera', ['contacts.view']);
    expect((await listTwice(viewer.token)).status).toBe(200);

    const narrowed = await h.call({ method: 'PUT', url: p.wsUrl(`/roles/${viewer.roleId}`), payload: { permissions: ['users.view'] } });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    expect(await listTwice(viewer.token)).toEqual({ status: 403, body: FORBIDDEN });

    await h.call({ method: 'PUT', url: p.wsUrl(`/roles/${viewer.roleId}`), payload: { permissions: ['contacts.view'] } });
    expect((await listTwice(viewer.token)).status).toBe(200);
    expect((await p.updateUser(undefined, viewer.id, { status: false })).statusCode).toBe(200);
    // Deactivated in its only workspace: shut out altogether (decisions.md §8).
    expect(await listTwice(viewer.token)).toMatchObject({ status: 401, body: UNAUTHENTICATED });

    expect((await p.updateUser(undefined, viewer.id, { status: true })).statusCode).toBe(200);
    expect((await listTwice(viewer.token)).status).toBe(200);
    const revoked = await h.call({ method: 'DELETE', url: '/api/v3/auth/tokens/current', token: viewer.token });
    expect(revoked.statusCode).toBe(200);
    expect(await listTwice(viewer.token)).toMatchObject({ status: 401, body: UNAUTHENTICATED });
  });

  it('is refused at once when another connection removes its token, its membership or its role', async () => {
    const p = people(h);
    const viewer = await p.user('Vic', ['contacts.view']);
    const editor = await p.user('Eve', ['contacts.view']);
    const owner = await p.user('Olga', ['contacts.view']);
    for (const person of [viewer, editor, owner]) expect((await listTwice(person.token)).status).toBe(200);
    const write = () => h.call({ method: 'POST', url: contactsUrl(), token: viewer.token, payload: { number: '+15550000003' } });
    for (let i = 0; i < 2; i++) expect((await write()).json()).toEqual(FORBIDDEN);

    elsewhere().prepare('DELETE FROM tokens WHERE token_hash = ?').run(hashToken(viewer.token));
    elsewhere().prepare('DELETE FROM memberships WHERE user_id = ?').run(editor.id);
    elsewhere().prepare('UPDATE roles SET permissions = ? WHERE id = ?').run('[]', owner.roleId);
    expect(await listTwice(viewer.token)).toMatchObject({ status: 401, body: UNAUTHENTICATED });
    expect((await write()).json()).toMatchObject(UNAUTHENTICATED);
    expect(await listTwice(editor.token)).toMatchObject({ status: 401, body: UNAUTHENTICATED });
    expect(await listTwice(owner.token)).toEqual({ status: 403, body: FORBIDDEN });
    // The server's own owner is untouched by any of it.
    expect((await listTwice()).status).toBe(200);
  });

  it('is refused once its token expires, with nothing written in between', async () => {
    await h.close();
    h = await createHarness({ tokenLifetimeMs: 1500 });
    const p = people(h);
    const viewer = await p.user('Tim', ['contacts.view']);
    const issued = await h.call({
      method: 'POST',
      url: '/api/v3/auth/tokens',
      token: null,
      payload: { email: viewer.email, password: PASSWORD },
    });
    const { token, expires_at: expiresAt } = issued.json().data;
    expect((await listTwice(token)).status).toBe(200);
    await sleep(Date.parse(expiresAt) - Date.now() + 50);
    expect(await listTwice(token)).toMatchObject({ status: 401, body: UNAUTHENTICATED });
    expect((await listTwice()).status).toBe(200);
  });
});
