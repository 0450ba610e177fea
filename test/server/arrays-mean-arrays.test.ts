// Arrays mean arrays: every field the OpenAPI document declares an array, in every operation's
// JSON and multipart body, is sent an object, a string and a number instead. Each is a 422 naming
// the field, and nothing in the database changed (`"contact_groups": {}` once removed the contact
// from every group, `"permissions": {}` emptied the role). The fields are read from the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { multipart } from './template-fixtures.js';

interface Schema {
  $ref?: string;
  const?: unknown;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

interface ArrayField {
  method: string;
  path: string;
  form: boolean;
  /** The field's keys from the body down. */
  at: string[];
  /** The body holding `value` at the field, with the constants that pick each union's variant on the way (`header.type: text`). */
  body(value: unknown): Record<string, unknown>;
}

type Found = Pick<ArrayField, 'at' | 'body'>;

let h: Harness;
let fields: ArrayField[];
const ids: Record<string, string> = {};

/** Every array the schema declares, by its keys from the body down (each variant of a union walked). */
function arraysIn(doc: { components: { schemas: Record<string, Schema> } }, schema: Schema | undefined, at: string[] = []): Found[] {
  if (schema === undefined) return [];
  if (schema.$ref) return arraysIn(doc, doc.components.schemas[schema.$ref.split('/').pop()!], at);
  const found = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].flatMap((variant) =>
    arraysIn(doc, variant, at),
  );
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('array') && at.length > 0) found.push({ at, body: (value) => value as Record<string, unknown> });
  const constants = Object.fromEntries(
    Object.entries(schema.properties ?? {}).flatMap(([key, sub]) => (sub.const !== undefined ? [[key, sub.const]] : [])),
  );
  for (const [key, sub] of Object.entries(schema.properties ?? {}))
    for (const inner of arraysIn(doc, sub, [...at, key]))
      found.push({ at: inner.at, body: (value) => ({ ...constants, [key]: inner.body(value) }) });
  return found;
}

/** A form's fields for a body: `header[text][variables][x]=1`. */
function formFields(value: unknown, name = ''): Array<[string, string]> {
  if (value === null || typeof value !== 'object') return [[name, String(value)]];
  return Object.entries(value).flatMap(([key, inner]) => formFields(inner, name === '' ? key : `${name}[${key}]`));
}

/** Every table's rows: what "nothing changed" compares. */
function snapshot(): string {
  const tables = h.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>;
  return JSON.stringify(tables.map(({ name }) => [name, h.db.prepare(`SELECT * FROM "${name}"`).all()]));
}

beforeAll(async () => {
  h = await createHarness();
  const base = `/api/v3/workspaces/${h.ws}`;
  const group = await h.create(`${base}/contact-groups`, { name: 'Kept' });
  ids.contact = String((await h.create(`${base}/contacts`, { number: '5551230000', name: 'Ann' })).id);
  await h.call({ method: 'POST', url: `${base}/contacts/${ids.contact}`, payload: { name: 'Ann', contact_groups: [group.id] } });
  ids.role = String((await h.create(`${base}/roles`, { name: 'Keeper', permissions: ['contacts.view'] })).id);
  ids.workspace = h.ws;
  const doc = (await h.call({ method: 'GET', url: '/api/v3/openapi.json', token: null })).json();
  fields = [];
  for (const [path, item] of Object.entries<Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>(doc.paths))
    for (const [method, op] of Object.entries(item))
      for (const [type, content] of Object.entries(op.requestBody?.content ?? {})) {
        const unique = new Map(arraysIn(doc, content.schema).map((found) => [found.at.join('.'), found]));
        for (const found of unique.values())
          fields.push({ method: method.toUpperCase(), path, form: type === 'multipart/form-data', ...found });
      }
});
afterAll(() => h?.close());

const urlOf = (path: string) => `/api/v3${path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? '1')}`;

describe('a field the document declares an array', () => {
  it('is found in the document: contact_groups, permissions, buttons, variables, in JSON and forms', () => {
    const names = new Set(fields.map((field) => field.at.at(-1)));
    expect([...names].sort()).toEqual(expect.arrayContaining(['buttons', 'contact_groups', 'permissions', 'variables']));
    expect(fields.some((field) => field.form)).toBe(true);
  });

  it('given an object, a string or a number: 422 naming it, and nothing changed', async () => {
    // A form has no object without keys and no number: `name[x]=1` is its object, `name=1` its string.
    const wrong: Array<[string, unknown, boolean]> = [
      ['{}', {}, false],
      ['{"0": 1}', { 0: 1 }, false],
      ['{"x": "1"}', { x: '1' }, true],
      ['a string', '1', true],
      ['a number', 1, false],
    ];
    const refused: string[] = [];
    for (const field of fields) {
      const key = field.at.join('.');
      for (const [shown, value, inForms] of wrong) {
        if (field.form && !inForms) continue;
        const before = snapshot();
        const body = field.body(value);
        const request = field.form ? multipart(formFields(body)) : { payload: body };
        const res = await h.call({ method: field.method as 'POST', url: urlOf(field.path), ...request });
        const label = `${field.method} ${field.path} ${field.form ? 'form' : 'JSON'} ${key} = ${shown}`;
        expect(res.statusCode, label).toBe(422);
        expect(res.json().errors[key], `${label}: ${res.body}`).toEqual([
          `The ${key.split('.').at(-1)!.replace(/_/g, ' ')} field must be an array.`,
        ]);
        expect(snapshot(), label).toBe(before);
        refused.push(label);
      }
    }
    expect(refused.length).toBeGreaterThanOrEqual(20);
  });

  it('the contact keeps its group and the role its permission', async () => {
    const base = `/api/v3/workspaces/${h.ws}`;
    const contact = (await h.call({ method: 'GET', url: `${base}/contacts/${ids.contact}` })).json().data;
    expect(contact.contact_groups.map((group: { name: string }) => group.name)).toEqual(['Kept']);
    const role = (await h.call({ method: 'GET', url: `${base}/roles/${ids.role}` })).json().data;
    expect(role.permissions).toEqual(['contacts.view']);
  });

  it('a form still writes a list with bracket names, and the empty list as an empty field', async () => {
    const base = `/api/v3/workspaces/${h.ws}`;
    const group = await h.create(`${base}/contact-groups`, { name: 'Form' });
    const made = await h.call({
      method: 'POST',
      url: `${base}/contacts`,
      ...multipart([
        ['number', '5559870000'],
        ['contact_groups[]', String(group.id)],
      ]),
    });
    expect(made.statusCode).toBe(201);
    expect(made.json().data.contact_groups).toEqual([{ id: group.id, name: 'Form' }]);
    const id = made.json().data.id;
    const emptied = await h.call({
      method: 'POST',
      url: `${base}/contacts/${id}`,
      ...multipart([
        ['name', 'Emptied'],
        ['contact_groups', ''],
      ]),
    });
    expect(emptied.statusCode).toBe(200);
    expect(emptied.json().data.contact_groups).toEqual([]);
  });
});
