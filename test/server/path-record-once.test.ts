// A record the path names is looked up once per request: the validation hook finds it (a missing
// one is a 404 whatever the body says) and hands it to the handler, which changes that record.
// A contact's body is checked by one call, whether it came as JSON or as a form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, NOT_FOUND, type Harness } from './harness.js';
import { multipart } from './template-fixtures.js';
import { contactCreateBody, contactUpdateBody } from '../../src/api/schemas/index.js';

let h: Harness | undefined;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

/** Counts the calls of `object[method]` (those `counted` accepts) while `run` runs. */
async function callsDuring<T, O extends object>(
  object: O,
  method: keyof O & string,
  run: () => Promise<T>,
  counted: (...args: unknown[]) => boolean = () => true,
): Promise<[T, number]> {
  const original = object[method] as (...args: unknown[]) => unknown;
  let calls = 0;
  (object as Record<string, unknown>)[method] = (...args: unknown[]) => {
    if (counted(...args)) calls += 1;
    return original.apply(object, args);
  };
  try {
    return [await run(), calls];
  } finally {
    (object as Record<string, unknown>)[method] = original;
  }
}

/** Counts the calls of `repository.find` while `run` runs. */
const findsDuring = <T>(repository: { find: (...args: never[]) => unknown }, run: () => Promise<T>) => callsDuring(repository, 'find', run);

describe('the record a path names', () => {
  it('a label update reads the label once, and answers the label changed', async () => {
    const base = `/api/v3/workspaces/${h!.ws}/labels`;
    const label = await h!.create(base, { name: 'once', color: '#000000' });
    const [res, calls] = await findsDuring(h!.app.repositories.collections.labels, () =>
      h!.call({ method: 'PUT', url: `${base}/${label.id}`, payload: { color: '#ffffff' } }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: label.id, name: 'once', color: '#ffffff' });
    expect(calls).toBe(1);
  });

  it('a role update reads the role once', async () => {
    const base = `/api/v3/workspaces/${h!.ws}/roles`;
    const role = await h!.create(base, { name: 'Once' });
    const [res, calls] = await findsDuring(h!.app.repositories.roles, () =>
      h!.call({ method: 'PUT', url: `${base}/${role.id}`, payload: { name: 'Twice' } }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: role.id, name: 'Twice' });
    expect(calls).toBe(1);
  });

  it('a missing one is still the 404, whatever the body holds', async () => {
    const res = await h!.call({ method: 'PUT', url: `/api/v3/workspaces/${h!.ws}/labels/999999`, payload: { color: 'red' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND);
  });

  it('a contact update with a JSON body reads the contact once', async () => {
    const base = `/api/v3/workspaces/${h!.ws}/contacts`;
    const contact = await h!.create(base, { number: '+351 912 000 001', name: 'Once' });
    const [res, calls] = await findsDuring(h!.app.repositories.contacts, () =>
      h!.call({ method: 'POST', url: `${base}/${contact.id}`, payload: { name: 'Still once' } }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: contact.id, name: 'Still once', number: '351912000001' });
    expect(calls).toBe(1);
  });

  it("an import's errors read the import once", async () => {
    const base = `/api/v3/workspaces/${h!.ws}/contact-imports`;
    const upload = multipart(
      [],
      [{ name: 'file', filename: 'people.csv', type: 'text/csv', bytes: Buffer.from('number\n351912000002\n') }],
    );
    const made = await h!.call({ method: 'POST', url: base, ...upload });
    expect(made.statusCode).toBe(201);
    const [res, calls] = await findsDuring(h!.app.repositories.imports, () =>
      h!.call({ method: 'GET', url: `${base}/${made.json().data.id}/errors` }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().meta).toMatchObject({ current_page: 1 });
    expect(calls).toBe(1);
  });

  it('a user update reads the user once, and once more for the answer', async () => {
    const base = `/api/v3/workspaces/${h!.ws}`;
    const role = await h!.create(`${base}/roles`, { name: 'Readers' });
    const user = await h!.create(`${base}/users`, { name: 'Una', email: 'una@example.com', password: 'secret-pass', role_id: role.id });
    const { members, workspaces } = h!.app.repositories;
    const isUna = (_ws: unknown, id: unknown) => id === user.id;
    const [[res, memberships], finds] = await callsDuring(
      members,
      'find',
      () =>
        callsDuring(
          workspaces,
          'membership',
          () => h!.call({ method: 'POST', url: `${base}/users/${user.id}`, payload: { name: 'Una Once' } }),
          isUna,
        ),
      isUna,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: user.id, name: 'Una Once' });
    // The path's record (the membership the change is checked against), then the user as changed.
    expect({ memberships, finds }).toEqual({ memberships: 1, finds: 1 });
  });
});

describe('a contact body is checked in one place', () => {
  /** Counts the checks of `schema` (its safeParse) while `run` runs. */
  const checksDuring = <T>(schema: object, run: () => Promise<T>) => callsDuring(schema as { safeParse: () => unknown }, 'safeParse', run);
  const base = () => `/api/v3/workspaces/${h!.ws}/contacts`;

  it('once as JSON: a bad body is one 422 naming its fields', async () => {
    const [res, checks] = await checksDuring(contactCreateBody, () =>
      h!.call({ method: 'POST', url: base(), payload: { number: '12', email: 'not an address' } }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'Validation error',
      errors: {
        number: ['The number must be a phone number of 7 to 15 digits.'],
        email: ['The email field must be a valid email address.'],
      },
    });
    expect(checks).toBe(1);
  });

  it("once as a form: the body's fields and the avatar in the same 422", async () => {
    const form = multipart([['number', '12']], [{ name: 'avatar', filename: 'me.png', type: 'image/png', bytes: Buffer.from('no image') }]);
    const [res, checks] = await checksDuring(contactCreateBody, () => h!.call({ method: 'POST', url: base(), ...form }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'Validation error',
      errors: {
        number: ['The number must be a phone number of 7 to 15 digits.'],
        avatar: ['The avatar must be an image (PNG, JPEG, GIF or WebP).'],
      },
    });
    expect(checks).toBe(1);
  });

  it('once on an update, JSON or form', async () => {
    const contact = await h!.create(base(), { number: '351912000003' });
    const url = `${base()}/${contact.id}`;
    const [json, jsonChecks] = await checksDuring(contactUpdateBody, () => h!.call({ method: 'POST', url, payload: { name: '' } }));
    expect(json.json()).toEqual({ message: 'Validation error', errors: { name: ['The name field is required.'] } });
    const [form, formChecks] = await checksDuring(contactUpdateBody, () =>
      h!.call({ method: 'POST', url, ...multipart([['name', 'Formed']]) }),
    );
    expect(form.statusCode).toBe(200);
    expect(form.json().data).toMatchObject({ id: contact.id, name: 'Formed' });
    expect([jsonChecks, formChecks]).toEqual([1, 1]);
  });
});
