/**
 * Contact records are written as JSON by SQLite (repositories/contacts.ts). What a client
 * reads must be exactly what is stored, whatever the text holds: quotes, backslashes,
 * control characters, NUL, non-BMP characters, field names that look like numbers or are
 * `__proto__` (decisions.md allows `^[a-z_]+$`; a JS object built by assignment dropped it). Each
 * generated set of contacts is read back through the list, a search and the single GET,
 * and compared with a record built here from plain SELECTs.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { createContactsRepository } from '../../src/server/repositories/contacts.js';
import { createGroupsRepository } from '../../src/server/repositories/groups.js';
import { createFieldsRepository } from '../../src/server/repositories/fields.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h?.close();
});

// Any code point, the awkward ones made likely.
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('"', '\\', '\u0000', 'a\u0000b', '\n\t\r', '\u001f', '\u2028', '😀', 'é', '</script>', '{"x":1}', '10', ''),
);
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

/** The record as decisions.md §3 defines it, from the stored rows. */
function expectedRecord(id: number): unknown {
  const row = h.db.prepare('SELECT * FROM contacts WHERE id = ?').get(id) as Record<string, any>;
  const groups = h.db
    .prepare(
      'SELECT g.id, g.name FROM contact_group_members m JOIN contact_groups g ON g.id = m.group_id WHERE m.contact_id = ? ORDER BY g.id',
    )
    .all(id);
  const fields = Object.fromEntries(
    (
      h.db
        .prepare('SELECT f.name, v.value FROM contact_field_values v JOIN contact_fields f ON f.id = v.field_id WHERE v.contact_id = ?')
        .all(id) as Array<{ name: string; value: string }>
    ).map((f) => [f.name, f.value]),
  );
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    number: row.number,
    name: row.name,
    email: row.email,
    gender: row.gender,
    status: row.status === 1,
    avatar_url: row.avatar_file ? `http://localhost:80/api/v3/files/${row.avatar_file}` : null,
    contact_groups: groups,
    fields,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

describe('contact records rendered by SQLite', () => {
  it('equal the stored values through list, search and get, for generated text', async () => {
    const contacts = createContactsRepository(h.db);
    const groups = createGroupsRepository(h.db);
    const fieldsRepo = createFieldsRepository(h.db);
    const contact = fc.record({
      name: text,
      email: fc.option(text, { nil: null }),
      gender: fc.constantFrom(null, 'male', 'female'),
      status: fc.boolean(),
      avatar: fc.boolean(),
      groups: fc.subarray([0, 1, 2]),
      values: fc.array(text, { minLength: 3, maxLength: 3 }),
    });
    const scenario = fc.record({
      groupNames: fc.uniqueArray(
        text.filter((t) => t.trim() !== ''),
        { minLength: 3, maxLength: 3 },
      ),
      fieldNames: fc.uniqueArray(
        fc.oneof(text, fc.constantFrom('2', '10', 'name', '__proto__', 'constructor')).filter((t) => t !== ''),
        { minLength: 3, maxLength: 3 },
      ),
      people: fc.array(contact, { minLength: 1, maxLength: 6 }),
    });

    let run = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ groupNames, fieldNames, people }) => {
        run += 1;
        h.db.exec('DELETE FROM contacts; DELETE FROM contact_groups; DELETE FROM contact_fields;');
        const groupIds = groupNames.map((name) => groups.insert(h.ws, { name }).id);
        const fieldIds = fieldNames.map((name) => fieldsRepo.insert(h.ws, { name }).id);
        const ids = people.map(
          (p, i) =>
            contacts.create(h.ws, `35199${run}${String(i).padStart(4, '0')}`, {
              name: p.name,
              email: p.email,
              gender: p.gender as 'male' | 'female' | null,
              status: p.status,
              avatar: p.avatar ? { bytes: PNG, contentType: 'image/png' } : undefined,
              groupIds: p.groups.map((g) => groupIds[g]),
              // An empty value means "no value" for this field.
              fieldValues: new Map(fieldIds.map((id, f) => [id, p.values[f]] as [number, string]).filter(([, v]) => v !== '')),
            }).id,
        );
        const expected = ids.map(expectedRecord);

        const list = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contacts?per_page=100` });
        expect(list.statusCode).toBe(200);
        expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(list.json().data).toEqual(expected);
        expect(list.json().meta).toMatchObject({ total: ids.length, from: 1, to: ids.length });

        // The number is searched too: the LIKE and index paths both render the same records.
        for (const search of [`35199${run}`, '35']) {
          const found = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contacts?per_page=100&search=${search}` });
          expect(found.json().data).toEqual(expected);
        }
        for (const [i, id] of ids.entries()) {
          const one = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contacts/${id}` });
          expect(one.json()).toEqual({ data: expected[i] });
        }
      }),
      { numRuns: 40, seed: 20261122 },
    );
  });

  it('a field named __proto__ is returned like any other', async () => {
    const field = createFieldsRepository(h.db).insert(h.ws, { name: '__proto__' });
    const made = createContactsRepository(h.db).create(h.ws, '14155550111', {
      name: 'Ann',
      email: null,
      gender: null,
      status: true,
      fieldValues: new Map([[field.id, 'kept']]),
    });
    const one = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contacts/${made.id}` });
    expect(Object.entries(one.json().data.fields)).toEqual([['__proto__', 'kept']]);
    const list = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contacts` });
    expect(Object.entries(list.json().data[0].fields)).toEqual([['__proto__', 'kept']]);
  });

  it('an empty page is an empty array, with the envelope around it', async () => {
    const res = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contacts?page=3` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: [], meta: { current_page: 3, total: 0, from: null, to: null, last_page: 1 } });
    expect(res.json().links).toMatchObject({
      first: expect.stringContaining('page=1'),
      next: null,
      prev: expect.stringContaining('page=1'),
    });
  });
});
