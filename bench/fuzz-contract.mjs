// The server's own OpenAPI document as the judge of every answer the fuzz gets, and stateful
// sequences per resource (create -> get -> update -> get -> delete -> get 404 -> delete 404).
// Used by bench/fuzz.mjs (the large run) and test/hardening/bad-input.test.ts (the CI run).
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const PREFIX = '/api/v3';
const JSON_TYPE = 'application/json; charset=utf-8';
const NOT_FOUND = { message: 'Resource not found.', status: 404 };
const NOT_ALLOWED = { message: 'Method not allowed.', status: 405 };

const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const METHOD_ORDER = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'];

/** What `Allow` must say of a URL the paths `fits` match: their methods, HEAD with GET, and OPTIONS. */
function allowOf(fits) {
  const methods = new Set(fits.flatMap((t) => Object.keys(t.operations)));
  if (methods.has('get')) methods.add('head');
  methods.add('options');
  return METHOD_ORDER.filter((method) => methods.has(method))
    .map((method) => method.toUpperCase())
    .join(', ');
}

/**
 * A checker of answers against the document: the status is one the operation lists (its
 * `default`, the transport errors, cannot occur in-process and does not count), the content type
 * is one documented for it (JSON always with charset=utf-8), and a JSON body matches the schema.
 * A URL no operation has is a 404, a method the path lacks a 405, both with decisions.md's bodies.
 */
export async function createDocumentChecker(rawDocument) {
  const document = await SwaggerParser.dereference(structuredClone(rawDocument));
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  const validators = new Map();
  const validatorFor = (schema) => validators.get(schema) ?? validators.set(schema, ajv.compile(schema)).get(schema);
  const templates = Object.entries(document.paths).map(([path, operations]) => ({
    parts: path.split('/'),
    path,
    operations,
    literal: path.split('/').filter((part) => part && !part.startsWith('{')).length,
  }));

  /** The operation a concrete URL and method reach, as the router would pick it (most literal segments first). */
  function operationOf(method, url) {
    const parts = url
      .split('?')[0]
      .slice(PREFIX.length)
      .replace(/(.)\/$/, '$1')
      .split('/');
    const matching = templates.filter(
      (t) => t.parts.length === parts.length && t.parts.every((part, i) => part.startsWith('{') || part === parts[i]),
    );
    // The most literal paths own the URL (`/templates/sync` over `/templates/{template}`), as the server's router decides.
    const most = Math.max(...matching.map((t) => t.literal));
    const fits = matching.filter((t) => t.literal === most);
    const match = fits.find((t) => t.operations[method.toLowerCase()]);
    if (match) return { path: match.path, operation: match.operations[method.toLowerCase()] };
    return fits.length > 0 ? { path: fits[0].path, wrongMethod: true, allow: allowOf(fits) } : undefined;
  }

  return {
    document,
    operationOf,
    /** Problems of one answer (empty when it is what the document says). */
    problemsOf(request, response) {
      const status = response.statusCode;
      const type = String(response.headers['content-type'] ?? '');
      // The index `wsm serve` answers at /api/v3 (links to /docs and this document) is no operation of the API.
      if (/^\/api\/v3\/?(\?|$)/.test(request.url)) return [];
      const found = request.url.startsWith(`${PREFIX}/`) ? operationOf(request.method, request.url) : undefined;
      let body;
      const readJson = () => {
        try {
          body = JSON.parse(response.body);
          return true;
        } catch {
          return false;
        }
      };
      if (found?.wrongMethod && request.method === 'OPTIONS') {
        if (status === 204 && response.headers.allow === found.allow && response.body === '') return [];
        return [
          `OPTIONS ${found.path}: expected 204 with Allow: ${found.allow}, got ${status} Allow: ${response.headers.allow} ${response.body.slice(0, 160)}`,
        ];
      }
      if (found?.wrongMethod && response.headers.allow !== found.allow)
        return [`${request.method} ${found.path}: 405 with Allow: ${response.headers.allow}, expected ${found.allow}`];
      if (!found || found.wrongMethod) {
        const expected = found ? { status: 405, body: NOT_ALLOWED } : { status: 404, body: NOT_FOUND };
        if (status === expected.status && type === JSON_TYPE && readJson() && sameJson(body, expected.body)) return [];
        return [
          `${found ? `no ${request.method} on ${found.path}` : 'no such path'}: expected ${expected.status} ${JSON.stringify(expected.body)}, got ${status} [${type}] ${response.body.slice(0, 160)}`,
        ];
      }
      const where = `${request.method} ${found.path}`;
      const documented = found.operation.responses[String(status)];
      if (!documented) return [`${where}: ${status} is not listed (${Object.keys(found.operation.responses).join(', ')})`];
      const types = Object.keys(documented.content ?? {});
      if (types.length === 0) return [];
      const bare = type.split(';')[0].trim();
      if (!types.includes(bare)) return [`${where} ${status}: content type "${type}", documented ${types.join(', ')}`];
      if (bare !== 'application/json') return [];
      if (type !== JSON_TYPE) return [`${where} ${status}: content type "${type}", not "${JSON_TYPE}"`];
      if (!readJson()) return [`${where} ${status}: the body is not JSON`];
      const validate = validatorFor(documented.content['application/json'].schema);
      if (!validate(body))
        return [`${where} ${status}: the body does not match the document: ${ajv.errorsText(validate.errors).slice(0, 200)}`];
      return pageProblems(body).map((problem) => `${where} ${status}: ${problem}`);
    },
  };
}

/**
 * What a page of a list must agree with (decisions.md §2): as many rows as the total leaves for
 * this page, `last_page`, `from` and `to` from the same total. A filter the rows apply and the
 * count does not (or the other way round) shows here.
 */
export function pageProblems(body) {
  const meta = body?.meta;
  if (!Array.isArray(body?.data) || meta === null || typeof meta !== 'object') return [];
  const { current_page: page, per_page: perPage, total } = meta;
  const rows = Math.max(0, Math.min(perPage, total - (page - 1) * perPage));
  const expected = {
    rows,
    last_page: Math.max(1, Math.ceil(total / perPage)),
    from: rows ? (page - 1) * perPage + 1 : null,
    to: rows ? (page - 1) * perPage + rows : null,
  };
  const actual = { rows: body.data.length, last_page: meta.last_page, from: meta.from, to: meta.to };
  return sameJson(actual, expected)
    ? []
    : [`the page disagrees with its total ${total}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`];
}

// ---------------------------------------------------------------------------------------------
// Stateful sequences
// ---------------------------------------------------------------------------------------------

/** Text a valid record may hold, from plain to every script and emoji (each run adds a unique suffix). */
export const VALID_TEXTS = [
  'plain',
  'Ünïcødé 日本語 עברית',
  '😀👍🏽👨‍👩‍👧',
  "O'Brien; DROP TABLE x",
  '<b>bold</b>',
  'x'.repeat(36),
  '  spaced  ',
];
const LOWER_NAMES = ['city', 'plan_tier', 'a', 'x'.repeat(60)];

/** Contact numbers never used by anything else of the run: 7 to 15 digits. */
const numberOf = (n) => `555${String(70_000_000 + n)}`;

/** Per resource: how to make one, change it, and where its record sits in an answer. */
export const SEQUENCES = [
  {
    name: 'labels',
    path: '/labels',
    create: (fc, n) =>
      fc
        .tuple(fc.constantFrom(...VALID_TEXTS), fc.constantFrom('#abc', '#A1B2C3', undefined))
        .map(([text, color]) => ({ name: `${text} ${n}`, ...(color ? { color } : {}) })),
    update: {
      method: 'PUT',
      body: (fc, n) => fc.constantFrom(...VALID_TEXTS).map((text) => ({ name: `${text} ${n} renamed`, color: '#00ff00' })),
    },
  },
  {
    name: 'contact-groups',
    path: '/contact-groups',
    create: (fc, n) => fc.constantFrom(...VALID_TEXTS).map((text) => ({ name: `${text} ${n}` })),
    update: { method: 'PUT', body: (fc, n) => fc.constantFrom(...VALID_TEXTS).map((text) => ({ name: `${text} ${n} renamed` })) },
  },
  {
    name: 'contact-fields',
    path: '/contact-fields',
    create: (fc, n) =>
      fc.constantFrom(...LOWER_NAMES).map((name) => ({ name: `${name}_${'q'.repeat(n % 7)}${String.fromCharCode(97 + (n % 26))}` })),
    update: {
      method: 'PUT',
      body: (fc, n) => fc.constant({ name: `renamed_${String.fromCharCode(97 + (n % 26)).repeat(1 + (n % 5))}_${'z'.repeat(n % 11)}` }),
    },
  },
  {
    name: 'roles',
    path: '/roles',
    create: (fc, n) =>
      fc
        .tuple(fc.constantFrom(...VALID_TEXTS), fc.subarray(['contacts.view', 'contacts.create', 'labels.view', 'users.view']))
        .map(([text, permissions]) => ({ name: `${text} ${n}`, permissions })),
    update: {
      method: 'PUT',
      body: (fc, n) => fc.subarray(['contacts.view', 'templates.view']).map((permissions) => ({ name: `role ${n} renamed`, permissions })),
    },
  },
  {
    name: 'contacts',
    path: '/contacts',
    create: (fc, n) =>
      fc.tuple(fc.constantFrom(...VALID_TEXTS), fc.constantFrom(null, 'male', 'female'), fc.boolean()).map(([text, gender, status]) => ({
        number: numberOf(n),
        name: `${text} ${n}`,
        ...(gender ? { gender } : {}),
        status,
      })),
    update: {
      method: 'POST',
      body: (fc, n) => fc.constantFrom(...VALID_TEXTS).map((text) => ({ name: `${text} ${n} renamed`, email: `seq${n}@example.com` })),
    },
  },
  {
    name: 'users',
    path: '/users',
    create: (fc, n, target) =>
      fc.constantFrom(...VALID_TEXTS).map((text) => ({
        name: `${text} ${n}`,
        email: `seq.user.${n}@example.com`,
        password: 'a long password',
        role_id: target.ids.role,
      })),
    update: {
      method: 'POST',
      body: (fc, n) =>
        fc.constantFrom('Europe/Lisbon', 'America/Sao_Paulo', 'UTC').map((timezone) => ({ name: `user ${n} renamed`, timezone })),
    },
    // Users leave a workspace with their workspaces, never alone: the API has no user delete.
    deletable: false,
  },
  {
    name: 'templates',
    path: '/templates',
    create: (fc, n) =>
      fc.constantFrom('UTILITY', 'MARKETING').map((category) => ({
        name: `seq_template_${'abcdefghij'[n % 10]}${'k'.repeat(1 + (n % 40))}`,
        language: 'en',
        category,
        body: { text: `Your order {{1}} ships soon (${n}).`, variables: ['A-1'] },
      })),
    // Templates have no update (the published API): they are deleted and made again.
  },
  {
    name: 'contact-imports',
    path: '/contact-imports',
    multipart: true,
    create: (fc, n) =>
      fc
        .constantFrom('number,name\n', 'number,name,email\r\n')
        .map((header) => ({ name: `import ${n}`, csv: `${header}${numberOf(100_000 + n)},Seq ${n}\n` })),
  },
];

/** A multipart body with a name field and the CSV as its file part. */
function importForm({ name, csv }) {
  const boundary = 'seqBoundary7';
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="seq.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
  );
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const recordOf = (res) => {
  try {
    return res.json().data;
  } catch {
    return undefined;
  }
};

/**
 * One sequence on one resource: every answer goes through `check` (the document checker), and
 * the record must read back as written at each step. Resolves to the problems and the steps
 * taken (a create the server refuses ends the sequence: it must then be a documented 4xx).
 */
export async function runSequence(call, check, resource, bodies, target) {
  const base = `${PREFIX}/workspaces/${target.ws}${resource.path}`;
  const problems = [];
  const steps = [];
  const send = async (name, request) => {
    const res = await call(request);
    steps.push(`${name} ${res.statusCode}`);
    for (const problem of check.problemsOf(request, { statusCode: res.statusCode, headers: res.headers, body: res.body }))
      problems.push(`${resource.name} ${name}: ${problem}`);
    return res;
  };
  const expectRecord = (name, res, status, expected) => {
    if (res.statusCode !== status)
      problems.push(`${resource.name} ${name}: ${res.statusCode}, expected ${status}: ${res.body.slice(0, 200)}`);
    else if (expected !== undefined && !sameJson(recordOf(res), expected))
      problems.push(`${resource.name} ${name}: reads ${res.body.slice(0, 200)}, wrote ${JSON.stringify(expected).slice(0, 200)}`);
  };

  const createRequest = resource.multipart
    ? { method: 'POST', url: base, ...importForm(bodies.create) }
    : { method: 'POST', url: base, payload: bodies.create, headers: { 'content-type': 'application/json' } };
  const created = await send('create', createRequest);
  if (created.statusCode !== 201) {
    if (created.statusCode >= 500 || created.statusCode < 400)
      problems.push(`${resource.name} create: ${created.statusCode} ${created.body.slice(0, 200)}`);
    return { problems, steps, completed: false };
  }
  const record = recordOf(created);
  const one = `${base}/${record.id}`;
  expectRecord('get after create', await send('get', { method: 'GET', url: one }), 200, record);
  let current = record;
  if (resource.update) {
    const updated = await send('update', {
      method: resource.update.method,
      url: one,
      payload: bodies.update,
      headers: { 'content-type': 'application/json' },
    });
    expectRecord('update', updated, 200);
    current = recordOf(updated) ?? current;
    for (const [key, value] of Object.entries(bodies.update)) {
      if (key in current && !sameJson(current[key], typeof value === 'string' ? value.trim() : value) && key !== 'permissions')
        problems.push(`${resource.name} update: ${key} reads ${JSON.stringify(current[key])}, sent ${JSON.stringify(value)}`);
    }
    expectRecord('get after update', await send('get', { method: 'GET', url: one }), 200, current);
  }
  if (resource.deletable === false) return { problems, steps, completed: true };
  expectRecord('delete', await send('delete', { method: 'DELETE', url: one }), 200);
  const gone = await send('get', { method: 'GET', url: one });
  if (gone.statusCode !== 404) problems.push(`${resource.name} get after delete: ${gone.statusCode}, expected 404`);
  const again = await send('delete', { method: 'DELETE', url: one });
  if (again.statusCode !== 404) problems.push(`${resource.name} delete again: ${again.statusCode}, expected 404`);
  return { problems, steps, completed: true, id: record.id };
}

/** An arbitrary of one sequence's bodies for a resource (the n-th of the run keeps names unique). */
export function sequenceBodies(fc, resource, n, target) {
  return fc.record({
    create: resource.create(fc, n, target),
    update: resource.update ? resource.update.body(fc, n) : fc.constant(undefined),
  });
}
