import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, NOT_FOUND, stamp, type Harness } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h?.close();
});

const groupsUrl = () => `/api/v3/workspaces/${h.ws}/contact-groups`;

const createGroup = (name: string) => h.create(groupsUrl(), { name });

describe('contact groups', () => {
  it('creates with the exact envelope and contacts_count 0', async () => {
    const res = await h.call({ method: 'POST', url: groupsUrl(), payload: { name: '  VIP  ' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      status: 201,
      message: 'Contact group created successfully.',
      data: { id: expect.any(Number), workspace_id: h.ws, name: 'VIP', contacts_count: 0, ...stamp },
    });
  });

  it('refuses a missing, empty, too long or taken name', async () => {
    await createGroup('VIP');
    const cases: Array<[unknown, string]> = [
      [{}, 'The name field is required.'],
      [{ name: '   ' }, 'The name field is required.'],
      [{ name: 'x'.repeat(256) }, 'The name field must not be greater than 255 characters.'],
      [{ name: 'VIP' }, 'The name has already been taken.'],
      [{ name: 12 }, 'The name field must be a string.'],
    ];
    for (const [payload, message] of cases) {
      const res = await h.call({ method: 'POST', url: groupsUrl(), payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toEqual({ message: 'Validation error', errors: { name: [message] } });
    }
    expect((await h.call({ method: 'POST', url: groupsUrl(), payload: { name: 'x'.repeat(255) } })).statusCode).toBe(201);
  });

  it('gets one, renames with PUT (own name allowed, another taken refused), and deletes', async () => {
    const group = await createGroup('A');
    await createGroup('B');
    const url = `${groupsUrl()}/${group.id}`;
    expect((await h.call({ method: 'GET', url })).json()).toEqual({ data: group });

    const same = await h.call({ method: 'PUT', url, payload: { name: 'A' } });
    expect(same.statusCode).toBe(200);
    const taken = await h.call({ method: 'PUT', url, payload: { name: 'B' } });
    expect(taken.json()).toEqual({ message: 'Validation error', errors: { name: ['The name has already been taken.'] } });
    const renamed = await h.call({ method: 'PUT', url, payload: { name: 'C' } });
    expect(renamed.json()).toEqual({
      status: 200,
      message: 'Contact group updated successfully.',
      data: { ...group, name: 'C', updated_at: expect.stringMatching(/Z$/) },
    });

    const del = await h.call({ method: 'DELETE', url });
    expect(del.json()).toEqual({ message: 'Contact group deleted successfully.', status: 200 });
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await h.call({ method, url, payload: method === 'PUT' ? { name: 'D' } : undefined });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
  });

  it('counts members as contacts join, leave and are deleted; deleting the group keeps the contacts', async () => {
    const group = await createGroup('Members');
    const url = `${groupsUrl()}/${group.id}`;
    const contactsUrl = `/api/v3/workspaces/${h.ws}/contacts`;
    const a = (await h.call({ method: 'POST', url: contactsUrl, payload: { number: '5551000001', contact_groups: [group.id] } })).json()
      .data;
    await h.call({ method: 'POST', url: contactsUrl, payload: { number: '5551000002', contact_groups: [group.id] } });
    const c = (await h.call({ method: 'POST', url: contactsUrl, payload: { number: '5551000003', contact_groups: [group.id] } })).json()
      .data;
    expect((await h.call({ method: 'GET', url })).json().data.contacts_count).toBe(3);
    await h.call({ method: 'POST', url: `${contactsUrl}/${a.id}`, payload: { name: 'A', contact_groups: [] } });
    expect((await h.call({ method: 'GET', url })).json().data.contacts_count).toBe(2);
    await h.call({ method: 'DELETE', url: `${contactsUrl}/${c.id}` });
    expect((await h.call({ method: 'GET', url })).json().data.contacts_count).toBe(1);
    await h.call({ method: 'DELETE', url });
    const contacts = (await h.call({ method: 'GET', url: contactsUrl })).json();
    expect(contacts.meta.total).toBe(2);
    expect(contacts.data.every((c: { contact_groups: unknown[] }) => c.contact_groups.length === 0)).toBe(true);
  });

  it('lists in id order with meta from the counters, and validates per_page', async () => {
    const made = [];
    for (const name of ['a', 'b', 'c']) made.push(await createGroup(name));
    const body = (await h.call({ method: 'GET', url: `${groupsUrl()}?per_page=2` })).json();
    expect(body.data).toEqual(made.slice(0, 2));
    expect(body.meta).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2, from: 1, to: 2 });
    expect(body.links.next).toMatch(/contact-groups\?per_page=2&page=2$/);
    const empty = (await h.call({ method: 'GET', url: `${groupsUrl()}?page=3&per_page=2` })).json();
    expect(empty.meta).toEqual({ current_page: 3, per_page: 2, total: 3, last_page: 2, from: null, to: null });
    for (const bad of ['0', '101', 'x']) {
      const res = await h.call({ method: 'GET', url: `${groupsUrl()}?per_page=${bad}` });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['per_page']);
    }
  });

  it('404s on bad ids and foreign workspaces, 401 without token, 403 without permission', async () => {
    const group = await createGroup('G');
    const one = `${groupsUrl()}/${group.id}`;
    for (const id of ['abc', '0', '99999']) {
      expect((await h.call({ method: 'GET', url: `${groupsUrl()}/${id}` })).json()).toEqual(NOT_FOUND);
    }
    const outsider = await h.outsider();
    const operations = [
      { method: 'GET', url: groupsUrl(), needs: 'contact_groups.view' },
      { method: 'POST', url: groupsUrl(), needs: 'contact_groups.create', payload: { name: 'new' } },
      { method: 'GET', url: one, needs: 'contact_groups.view' },
      { method: 'PUT', url: one, needs: 'contact_groups.update', payload: { name: 'renamed' } },
      { method: 'DELETE', url: one, needs: 'contact_groups.delete' },
    ] as const;
    for (const op of operations) {
      const payload = 'payload' in op ? op.payload : undefined;
      expect((await h.call({ method: op.method, url: op.url, payload, token: null })).json()).toEqual({ message: 'Unauthenticated.' });
      expect((await h.call({ method: op.method, url: op.url, payload, token: outsider })).json()).toEqual(NOT_FOUND);
      const others = ['contact_groups.view', 'contact_groups.create', 'contact_groups.update', 'contact_groups.delete'].filter(
        (p) => p !== op.needs,
      );
      const denied = await h.call({ method: op.method, url: op.url, payload, token: await h.memberWith(others) });
      expect(denied.statusCode, `${op.method} ${op.url}`).toBe(403);
      expect(denied.json()).toEqual({ message: 'This action is unauthorized.', status: 403 });
    }
  });
});
