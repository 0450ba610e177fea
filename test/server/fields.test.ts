import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, NOT_FOUND, stamp, type Harness } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h?.close();
});

const fieldsUrl = () => `/api/v3/workspaces/${h.ws}/contact-fields`;

const createField = (name: string) => h.create(fieldsUrl(), { name });

describe('contact fields', () => {
  it('creates with the exact envelope', async () => {
    const res = await h.call({ method: 'POST', url: fieldsUrl(), payload: { name: 'birth_city' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      status: 201,
      message: 'Contact field created successfully.',
      data: { id: expect.any(Number), workspace_id: h.ws, name: 'birth_city', ...stamp },
    });
  });

  it('refuses a missing, malformed, too long or taken name', async () => {
    await createField('city');
    const pattern = 'The name field must contain only lowercase letters and underscores.';
    const cases: Array<[object, string[]]> = [
      [{}, ['The name field is required.']],
      [{ name: 'City' }, [pattern]],
      [{ name: 'city2' }, [pattern]],
      [{ name: 'birth city' }, [pattern]],
      [{ name: 'a'.repeat(256) }, ['The name field must not be greater than 255 characters.']],
      [{ name: 'city' }, ['The name has already been taken.']],
    ];
    for (const [payload, messages] of cases) {
      const res = await h.call({ method: 'POST', url: fieldsUrl(), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toEqual({ message: 'Validation error', errors: { name: messages } });
    }
  });

  it('gets one, renames with PUT keeping contact values, and deletes the values with the field', async () => {
    const field = await createField('city');
    await createField('team');
    const url = `${fieldsUrl()}/${field.id}`;
    expect((await h.call({ method: 'GET', url })).json()).toEqual({ data: field });
    const contactsUrl = `/api/v3/workspaces/${h.ws}/contacts`;
    const contact = (
      await h.call({ method: 'POST', url: contactsUrl, payload: { number: '5552000001', fields: { city: 'Lisbon' } } })
    ).json().data;

    const taken = await h.call({ method: 'PUT', url, payload: { name: 'team' } });
    expect(taken.json()).toEqual({ message: 'Validation error', errors: { name: ['The name has already been taken.'] } });
    const renamed = await h.call({ method: 'PUT', url, payload: { name: 'town' } });
    expect(renamed.json()).toEqual({
      status: 200,
      message: 'Contact field updated successfully.',
      data: { ...field, name: 'town', updated_at: expect.stringMatching(/Z$/) },
    });
    expect((await h.call({ method: 'GET', url: `${contactsUrl}/${contact.id}` })).json().data.fields).toEqual({ town: 'Lisbon' });

    const del = await h.call({ method: 'DELETE', url });
    expect(del.json()).toEqual({ message: 'Contact field deleted successfully.', status: 200 });
    expect((await h.call({ method: 'GET', url: `${contactsUrl}/${contact.id}` })).json().data.fields).toEqual({});
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await h.call({ method, url, payload: method === 'PUT' ? { name: 'again' } : undefined });
      expect(res.json()).toEqual(NOT_FOUND);
    }
  });

  it('lists in id order and validates per_page', async () => {
    const made = [await createField('a'), await createField('b'), await createField('c')];
    const body = (await h.call({ method: 'GET', url: `${fieldsUrl()}?per_page=2&page=2` })).json();
    expect(body.data).toEqual([made[2]]);
    expect(body.meta).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2, from: 3, to: 3 });
    expect(body.links.prev).toMatch(/contact-fields\?per_page=2&page=1$/);
    expect(body.links.next).toBeNull();
    for (const bad of ['0', '101', 'x']) {
      expect((await h.call({ method: 'GET', url: `${fieldsUrl()}?per_page=${bad}` })).statusCode).toBe(422);
    }
  });

  it('404s on bad ids and foreign workspaces, 401 without token, 403 without permission', async () => {
    const field = await createField('f');
    const one = `${fieldsUrl()}/${field.id}`;
    for (const id of ['abc', '0', '99999']) {
      expect((await h.call({ method: 'DELETE', url: `${fieldsUrl()}/${id}` })).json()).toEqual(NOT_FOUND);
    }
    const outsider = await h.outsider();
    const operations = [
      { method: 'GET', url: fieldsUrl(), needs: 'contact_fields.view' },
      { method: 'POST', url: fieldsUrl(), needs: 'contact_fields.create', payload: { name: 'new' } },
      { method: 'GET', url: one, needs: 'contact_fields.view' },
      // No `update` action exists for contact fields (decisions.md §4): a rename needs create.
      { method: 'PUT', url: one, needs: 'contact_fields.create', payload: { name: 'renamed' } },
      { method: 'DELETE', url: one, needs: 'contact_fields.delete' },
    ] as const;
    for (const op of operations) {
      const payload = 'payload' in op ? op.payload : undefined;
      expect((await h.call({ method: op.method, url: op.url, payload, token: null })).json()).toEqual({ message: 'Unauthenticated.' });
      expect((await h.call({ method: op.method, url: op.url, payload, token: outsider })).json()).toEqual(NOT_FOUND);
      const others = ['contact_fields.view', 'contact_fields.create', 'contact_fields.delete'].filter((p) => p !== op.needs);
      const denied = await h.call({ method: op.method, url: op.url, payload, token: await h.memberWith(others) });
      expect(denied.statusCode, `${op.method} ${op.url}`).toBe(403);
    }
  });
});
