// Bad input against every route of the server, derived from the route table and the zod contract:
// wrong types, missing and extra fields, huge strings, unicode, NUL bytes, SQL text, path
// traversal, malformed JSON, wrong content types, broken multipart, out-of-range pagination.
// Every answer must be < 500, JSON in the shape of decisions.md §1, and free of stacks, SQL text
// and file paths; it must be what the server's OpenAPI document says of the operation (status
// listed, content type, body schema: fuzz-contract.mjs); and stateful sequences per resource
// (create -> get -> update -> get -> delete -> get 404) must read back what they wrote. The
// database must pass `PRAGMA integrity_check` afterwards. Then what a contract fuzzer (Schemathesis)
// asks, from the document alone (fuzz-document.mjs): every undocumented method on every path, each
// documented constraint both ways, and the OpenAPI links followed from every create.
//
//   node bench/fuzz.mjs [requests=12000] [seed=20261122]     (needs `npm run build`)
//   FUZZ_SHOW=n   list up to n problems (default 50)
//   FUZZ_DUMP=1   print every failing request in full, as JSON, to replay it
//   FUZZ_LOG=1    the server's request and error log on stderr (what a 500 hid)
//
// The generators below are also what test/hardening/bad-input.test.ts runs (fewer requests, same
// seed discipline), so the CI test and this larger run exercise the same cases.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { SEQUENCES, createDocumentChecker, runSequence, sequenceBodies } from './fuzz-contract.mjs';
import { constraintCases, constraintProblems, followLinks, methodCases, methodProblems } from './fuzz-document.mjs';

export const PREFIX = '/api/v3';

// ---------------------------------------------------------------------------------------------
// Nasty values
// ---------------------------------------------------------------------------------------------
export const HUGE = 'x'.repeat(100 * 1024);
const OVER_LIMIT = 'x'.repeat(1024 * 1024 + 1);
const HUGE_UNICODE = 'é😀'.repeat((100 * 1024) / 6);
export const SQL = "'; DROP TABLE contacts; --";
export const TRAVERSAL = '../../etc/passwd';

export const NASTY_STRINGS = [
  '',
  ' ',
  HUGE,
  HUGE_UNICODE,
  'Ünïcødé 日本語 עברית',
  '😀👍🏽👨‍👩‍👧',
  'a\u0000b',
  '\u0000',
  SQL,
  "1' OR '1'='1",
  'SELECT * FROM users; --',
  TRAVERSAL,
  '..\\..\\..\\windows\\win.ini',
  '%00',
  '%2e%2e%2f',
  '{{1}}{{2}}',
  '<script>alert(1)</script>',
  '\uD800',
  '\u202Etxt.exe',
  'a\r\nX-Injected: 1',
  '__proto__',
  '-1',
  '0',
  '1e309',
  'NaN',
  'true',
  '9'.repeat(40),
  '\u200B',
  'null',
];
const deepArray = (depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth));
export const NASTY_VALUES = [
  ...NASTY_STRINGS,
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0,
  2 ** 53 + 1,
  1e308,
  -1e308,
  [],
  [null],
  ['x'],
  [1, 2, 3],
  {},
  { a: 1 },
  { __proto__x: 1 },
  deepArray(500),
  Array.from({ length: 10_000 }, () => 1),
];
export const EXTRA_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'id',
  'workspace_id',
  'password_hash',
  'created_at',
  '',
  ' ',
  'a'.repeat(1000),
  '😀',
  SQL,
  TRAVERSAL,
];

/** Path segments that are never an existing id; already URL-encoded. */
export const NASTY_SEGMENTS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x1',
  '+1',
  '00',
  '9'.repeat(17),
  '9'.repeat(25),
  'abc',
  encodeURIComponent(SQL),
  // Not a bare `%2e%2e`: a WHATWG URL (light-my-request, fetch) resolves it as `..` before sending.
  encodeURIComponent(TRAVERSAL),
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e',
  '%00',
  '1%00',
  encodeURIComponent('😀'),
  '%E0%A4%A',
  '%',
  'x'.repeat(300),
  'null',
  'undefined',
  '%5Bobject%20Object%5D',
  '1;2',
  '1,2',
  '%201',
  '%0A',
  encodeURIComponent('Ünïcødé'),
  '00000000-0000-0000-0000-000000000000',
  encodeURIComponent(HUGE.slice(0, 5000)),
];

export const NASTY_QUERY_VALUES = [
  '0',
  '-1',
  '101',
  '1000000',
  '1.5',
  '1e2',
  '1e400',
  'abc',
  '',
  '%00',
  '9'.repeat(30),
  'Infinity',
  'NaN',
  '0x10',
  '%5B%5D',
  encodeURIComponent(SQL),
  encodeURIComponent(TRAVERSAL),
  encodeURIComponent('😀'),
  '%25',
  '_',
  '%5C',
  encodeURIComponent('x'.repeat(1000)),
  encodeURIComponent(HUGE),
  '%E0%A4%A',
  '9007199254740993',
];

export const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'multipart/form-data',
  'multipart/mixed; boundary=x',
  'application/octet-stream',
  'image/png',
  '*/*',
  'application/json, text/plain',
  'a/b/c',
  'text/html; charset=utf-8',
];

export const MALFORMED_JSON = [
  '{',
  '{"name":',
  "{'name':'x'}",
  '{"name":"x",}',
  '[1,]',
  'undefined',
  'NaN',
  '{"a":1}{"b":2}',
  '\u0000',
  '\uFEFF{}',
  '{"name":"\\ud800"}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '1e999999',
  '['.repeat(100_000),
  `"${'x'.repeat(200_000)}`,
  '{"name": "a\u0000b"}',
  'null',
  '"str"',
  '[1,2]',
  '42',
  'true',
];

export const BAD_FIELD_NAMES = [
  'a[b',
  'a]]',
  '__proto__[x]',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  '[]',
  '[',
  ']',
  'x[][][]',
  'contact_groups[99999999]',
  'contact_groups[-1]',
  'contact_groups[__proto__]',
  'header[media][file][x]',
  'header[__proto__][polluted]',
  'name"; filename="x',
  'a'.repeat(500),
  '😀[😀]',
  'buttons[0][type]',
  'buttons[5][text]',
  'buttons[1e3]',
  'a[b][c][d][e][f][g][h][i][j][k]',
  'name[]',
  'number[0][1]',
  'body[text][]',
  'permissions[0][0]',
  '',
];

// ---------------------------------------------------------------------------------------------
// The target: routes with what the contract says about them
// ---------------------------------------------------------------------------------------------

/**
 * Every /api/v3 route with its path parameters and, from the contract it declares (its `schema`),
 * its body and query schemas (JSON Schema of the zod input), multipart flag, file parts and success schema.
 */
export function describeRoutes({ routeTable, jsonSchema }) {
  return (
    routeTable
      .filter((route) => route.url.startsWith(PREFIX) && route.method !== 'HEAD')
      // Revoking the token of the request would end the run's own session (the auth tests cover it).
      .filter((route) => !(route.method === 'DELETE' && route.url === `${PREFIX}/auth/tokens/current`))
      .map((route) => {
        const doc = route.schema;
        const response = Object.values(doc?.response ?? {})[0];
        return {
          method: route.method,
          url: route.url,
          public: Boolean(route.public),
          params: [...route.url.matchAll(/:([a-zA-Z_-]+)/g)].map((m) => m[1]),
          body: doc?.body ? jsonSchema(doc.body, 'input') : undefined,
          query: doc?.querystring ? jsonSchema(doc.querystring, 'input') : undefined,
          multipart: doc?.multipart ?? false,
          files: doc?.files ?? [],
          response: response && !('binary' in response) ? response : undefined,
        };
      })
  );
}

/**
 * Makes one record of every kind so that updates reach their validation (a 404 first would
 * hide it), and returns the ids. Updates and deletes only ever target these throw-away rows,
 * never the owner, its role or its workspace, so the run keeps its access to the end.
 */
export async function prepareTarget(call, ws) {
  const post = async (path, payload) => {
    const res = await call({ method: 'POST', url: `${PREFIX}/workspaces/${ws}${path}`, payload });
    if (res.statusCode !== 201) throw new Error(`fuzz set-up: POST ${path} answered ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const label = await post('/labels', { name: 'fuzz label', color: '#abcdef' });
  const role = await post('/roles', { name: 'fuzz role', permissions: ['contacts.view'] });
  const user = await post('/users', { name: 'Fuzz User', email: 'fuzz.user@example.com', password: 'fuzz-password-1', role_id: role.id });
  const group = await post('/contact-groups', { name: 'fuzz group' });
  const field = await post('/contact-fields', { name: 'fuzz_field' });
  const contact = await post('/contacts', { number: '5550001000', name: 'Fuzz Contact' });
  const template = await post('/templates', {
    name: 'fuzz_template',
    language: 'en',
    category: 'UTILITY',
    body: { text: 'Hello friend, see you.' },
  });
  const boundary = 'fuzzSetupBoundary';
  const csv = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nnumber,name\n5550002000,A\n\r\n--${boundary}--\r\n`;
  const imported = await call({
    method: 'POST',
    url: `${PREFIX}/workspaces/${ws}/contact-imports`,
    payload: csv,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  if (imported.statusCode !== 201) throw new Error(`fuzz set-up: import answered ${imported.statusCode} ${imported.body}`);
  // A stored file (an avatar), so that GET /files/{file} answers one and its content type is checked.
  const avatar = await call({
    method: 'POST',
    url: `${PREFIX}/workspaces/${ws}/contacts`,
    ...multipartBody([
      { name: 'number', value: '5550001001' },
      { name: 'avatar', filename: 'a.png', value: PNG, type: 'image/png' },
    ]),
  });
  if (avatar.statusCode !== 201) throw new Error(`fuzz set-up: avatar answered ${avatar.statusCode} ${avatar.body}`);
  return {
    ws,
    ids: {
      label: label.id,
      role: role.id,
      user: user.id,
      group: group.id,
      field: field.id,
      contact: contact.id,
      template: template.id,
      import: imported.json().data.id,
      file: avatar.json().data.avatar_url.split('/').pop(),
    },
  };
}

/** A concrete URL: the workspace, the prepared ids (a missing one for DELETE), `override` for one parameter. */
export function urlOf(route, target, override = {}) {
  return route.url.replace(/:([a-zA-Z_-]+)/g, (_, name) => {
    if (name in override) return override[name];
    if (name === 'workspace') return target.ws;
    if (route.method === 'DELETE') return '999999';
    return String(target.ids[name] ?? 999999);
  });
}

// ---------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------

/** A multipart body by hand, so every byte and bracket name is ours to break. */
export function multipartBody(parts, { boundary = 'fuzzBoundary9xQ', close = true } = {}) {
  const chunks = [];
  for (const part of parts) {
    if (part.raw !== undefined) {
      chunks.push(Buffer.from(part.raw));
      continue;
    }
    const file = part.filename !== undefined ? `; filename="${part.filename}"` : '';
    const type = part.filename !== undefined ? `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n${type}\r\n`));
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(String(part.value)));
    chunks.push(Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const FILE_CONTENTS = [
  PNG,
  Buffer.from('%PDF-1.4\n%%EOF\n'),
  Buffer.from('number,name\n5550003000,B\n'),
  Buffer.from(HUGE),
  Buffer.alloc(0),
  Buffer.from([0, 0, 0, 0xff, 0xfe]),
  Buffer.from(SQL),
];
const FILE_NAMES = ['a.png', TRAVERSAL, '..\\..\\x.csv', '', 'x'.repeat(1000), '😀.csv', 'a\u0000b.csv', 'a"b.csv'];

const STRING_BY_PATTERN = new Map([
  ['^[a-z_]+$', 'fuzz_name'],
  ['^[a-z]{2,3}(_[A-Z]{2})?$', 'en'],
  ['^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$', '#a1b2c3'],
]);
const STRING_BY_KEY = {
  number: '555 000 1234',
  email: 'fuzz@example.com',
  password: 'password-123',
  confirm_password: 'password-123',
  timezone: 'Europe/Lisbon',
  url: 'https://example.com/x',
  phone_number: '+14155550123',
  text: 'Hello there, friend.',
  content: 'Header here',
  name: 'Fuzz Name',
  search: 'a',
};

/** A value the contract would accept (often) for one JSON Schema property. */
function plausible(fc, schema, key, depth, target) {
  if (!schema || typeof schema !== 'object') return fc.constant('x');
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => plausible(fc, branch, key, depth, target)));
  switch (schema.type) {
    case 'string':
      return fc.constantFrom(STRING_BY_PATTERN.get(schema.pattern) ?? STRING_BY_KEY[key] ?? 'fuzz value', 'Ünïcødé 😀');
    case 'integer':
    case 'number':
      return fc.constantFrom(1, target.ids.group, target.ids.role, 999999);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(plausible(fc, schema.items, key, depth + 1, target), { maxLength: 4 });
    case 'object':
      return depth > 3 ? fc.constant({}) : objectOf(fc, schema, depth + 1, target);
    default:
      return fc.constantFrom(true, 'true', 1, 'x');
  }
}

/** Keeps (omits), fills plausibly or breaks each property; sometimes adds extra keys. */
export function objectOf(fc, schema, depth, target) {
  const props = schema.properties ?? {};
  const entries = Object.entries(props).map(([key, prop]) => [
    key,
    fc.oneof(
      { weight: 2, arbitrary: fc.constant(undefined) },
      { weight: 3, arbitrary: plausible(fc, prop, key, depth, target) },
      { weight: 3, arbitrary: fc.constantFrom(...NASTY_VALUES) },
    ),
  ]);
  const extras = fc.array(fc.tuple(fc.constantFrom(...EXTRA_KEYS), fc.constantFrom(...NASTY_VALUES)), { maxLength: 2 });
  return fc.tuple(fc.record(Object.fromEntries(entries)), extras).map(([record, extra]) => {
    const out = {};
    for (const [key, value] of Object.entries(record)) if (value !== undefined) out[key] = value;
    // Computed keys make `__proto__` an own property, as a JSON text would.
    for (const [key, value] of extra) Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
    return out;
  });
}

/** Flattens a JSON-like value into bracket-named multipart fields (decisions.md §1). */
function toFields(value, prefix = '') {
  if (value === null || typeof value !== 'object') return [[prefix, value === undefined ? '' : String(value)]];
  const entries = Object.entries(value);
  if (entries.length === 0) return [[prefix, '']];
  return entries.flatMap(([k, v]) => toFields(v, prefix ? `${prefix}[${k}]` : k));
}

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

const json = (payload) => ({ payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });

/** One fast-check arbitrary of bad requests over every route; each carries its `kind`. */
export function requestArbitrary(fc, routes, target) {
  const route = fc.constantFrom(...routes);
  const withBody = routes.filter((r) => r.body);
  const withQuery = routes.filter((r) => r.query);
  const withParams = routes.filter((r) => r.params.length > 0);
  const multipartRoutes = routes.filter((r) => r.multipart);
  const anyBody = (r) => (r.body ? objectOf(fc, r.body, 0, target) : fc.constantFrom(...NASTY_VALUES));

  const body = fc
    .constantFrom(...withBody)
    .chain((r) => anyBody(r).map((payload) => ({ kind: 'body', route: r, method: r.method, url: urlOf(r, target), ...json(payload) })));
  const rawJson = fc.tuple(route, fc.constantFrom(...MALFORMED_JSON)).map(([r, text]) => ({
    kind: 'malformed-json',
    route: r,
    method: r.method,
    url: urlOf(r, target),
    payload: text,
    headers: { 'content-type': 'application/json' },
  }));
  const contentType = fc
    .tuple(route, fc.constantFrom(...WRONG_CONTENT_TYPES), fc.constantFrom('{"name":"x"}', '<a><b/></a>', 'name=x&number=1', HUGE))
    .map(([r, type, text]) => ({
      kind: 'content-type',
      route: r,
      method: r.method,
      url: urlOf(r, target),
      payload: text,
      headers: { 'content-type': type },
    }));
  const path = fc.constantFrom(...withParams).chain((r) =>
    fc.tuple(fc.constantFrom(...r.params), fc.oneof(fc.constantFrom(...NASTY_SEGMENTS), fc.uuid().map(String))).map(([param, segment]) => ({
      kind: 'path',
      route: r,
      method: r.method,
      url: urlOf(r, target, { [param]: segment }),
      ...(r.method === 'GET' ? {} : json({})),
    })),
  );
  const query = fc.constantFrom(...withQuery).chain((r) => {
    const keys = [...Object.keys(r.query.properties ?? {}), 'page', 'per_page', 'unknown', '__proto__', 'page[]'];
    return fc
      .array(fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...NASTY_QUERY_VALUES)), { minLength: 1, maxLength: 3 })
      .map((pairs) => ({
        kind: 'query',
        route: r,
        method: r.method,
        url: `${urlOf(r, target)}?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')}`,
      }));
  });
  const multipartArb = fc.constantFrom(...(multipartRoutes.length ? multipartRoutes : routes)).chain((r) => {
    const field = fc.oneof(
      fc.tuple(fc.constantFrom(...BAD_FIELD_NAMES), fc.constantFrom(...NASTY_STRINGS)).map(([name, value]) => ({ name, value })),
      (r.body ? objectOf(fc, r.body, 0, target) : fc.constant({})).map((o) => toFields(o).map(([name, value]) => ({ name, value }))),
      fc
        .tuple(fc.constantFrom(...r.files, ...BAD_FIELD_NAMES), fc.constantFrom(...FILE_NAMES), fc.constantFrom(...FILE_CONTENTS))
        .map(([name, filename, value]) => ({ name, filename, value, type: 'image/png' })),
    );
    const structure = fc.constantFrom('ok', 'unclosed', 'wrong-boundary', 'no-disposition', 'garbage');
    return fc.tuple(fc.array(field, { minLength: 1, maxLength: 6 }), structure).map(([fields, shape]) => {
      const parts = fields.flat();
      if (shape === 'no-disposition') parts.push({ raw: '--fuzzBoundary9xQ\r\nContent-Type: text/plain\r\n\r\nvalue\r\n' });
      if (shape === 'garbage') parts.push({ raw: '\r\n\u0000\u0000--fuzz\r\n' });
      const built = multipartBody(parts, {
        close: shape !== 'unclosed',
        boundary: shape === 'wrong-boundary' ? 'otherBoundary' : undefined,
      });
      if (shape === 'wrong-boundary') built.headers['content-type'] = 'multipart/form-data; boundary=fuzzBoundary9xQ';
      return { kind: 'multipart', route: r, method: r.method, url: urlOf(r, target), ...built };
    });
  });
  const method = fc
    .tuple(route, fc.constantFrom('PATCH', 'PUT', 'DELETE', 'POST', 'OPTIONS'))
    .filter(([r, m]) => r.method !== m)
    .map(([r, m]) => ({
      // A DELETE never names a prepared row: the run keeps every record it updates.
      kind: 'method',
      route: r,
      method: m,
      url: urlOf({ ...r, method: m }, target),
    }));
  return fc.oneof(
    { weight: 5, arbitrary: body },
    { weight: 2, arbitrary: rawJson },
    { weight: 2, arbitrary: contentType },
    { weight: 3, arbitrary: path },
    { weight: 2, arbitrary: query },
    { weight: 3, arbitrary: multipartArb },
    { weight: 1, arbitrary: method },
  );
}

/** The same families as a fixed matrix: every route × every case below, no randomness. */
export function fixedCases(routes, target) {
  const cases = [];
  const add = (r, name, request) => cases.push({ kind: name, route: r, method: r.method, url: urlOf(r, target), ...request });
  const everyField = (r, value) => Object.fromEntries(Object.keys(r.body?.properties ?? { name: 1, number: 1 }).map((k) => [k, value]));
  const wrongType = (r) =>
    Object.fromEntries(
      Object.entries(r.body?.properties ?? { name: {} }).map(([k, p]) => [
        k,
        p.type === 'string' ? 12345 : p.type === 'array' ? 'not-a-list' : p.type === 'object' ? [1] : { nested: true },
      ]),
    );
  for (const r of routes) {
    add(r, 'empty-object', json({}));
    add(r, 'no-body', {});
    for (const text of ['{"name":', '[1,2]', '"x"', 'null', '{"__proto__":{"polluted":1}}', '['.repeat(50_000)]) {
      add(r, 'malformed-json', { payload: text, headers: { 'content-type': 'application/json' } });
    }
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      add(r, 'content-type', {
        payload: type === 'application/xml' ? '<contact><number>1</number></contact>' : 'name=x',
        headers: { 'content-type': type },
      });
    }
    add(
      r,
      'multipart-brackets',
      multipartBody(
        [
          'a[b',
          'a]]',
          '__proto__[x]',
          '__proto__[polluted]',
          'constructor[prototype][polluted]',
          '[]',
          'x[][]',
          'contact_groups[__proto__]',
        ].map((name) => ({ name, value: '1' })),
      ),
    );
    add(
      r,
      'multipart-truncated',
      multipartBody(
        [
          { name: 'name', value: 'x' },
          { name: 'number', value: '5550004000' },
        ],
        { close: false },
      ),
    );
    add(
      r,
      'multipart-truncated-file',
      multipartBody([{ name: r.files[0] ?? 'file', filename: 'cut.csv', value: 'number\n5550004001\n', type: 'text/csv' }], {
        close: false,
      }),
    );
    add(
      r,
      'multipart-file-traversal',
      multipartBody([{ name: r.files[0] ?? 'file', filename: TRAVERSAL, value: Buffer.from('number\n5550005000\n'), type: 'text/csv' }]),
    );
    add(r, 'fields-sql', json(everyField(r, SQL)));
    add(r, 'fields-traversal', json(everyField(r, TRAVERSAL)));
    add(r, 'fields-huge', json(everyField(r, HUGE)));
    // Past the 1 MB limit of a JSON body: a 413 the document must list, on every write.
    if (r.method !== 'GET') add(r, 'over-body-limit', json({ [Object.keys(r.body?.properties ?? { name: 1 })[0]]: OVER_LIMIT }));
    add(r, 'fields-unicode-nul', json(everyField(r, '😀 Ünï\u0000cødé \uD800')));
    add(r, 'fields-wrong-type', json(wrongType(r)));
    add(r, 'fields-null', json(everyField(r, null)));
    add(r, 'extra-fields', {
      payload: '{"id":1,"workspace_id":"x","password_hash":"x","zzz":[1,{"a":null}]}',
      headers: { 'content-type': 'application/json' },
    });
    for (const param of r.params) {
      for (const segment of [
        '..%2F..%2Fetc%2Fpasswd',
        encodeURIComponent(SQL),
        '-1',
        '0',
        '1.5',
        '9'.repeat(25),
        '%00',
        encodeURIComponent('😀'),
        '%E0%A4%A',
        'x'.repeat(300),
      ]) {
        cases.push({ kind: 'path', route: r, method: r.method, url: urlOf(r, target, { [param]: segment }) });
      }
    }
    if (r.query) {
      for (const q of [
        'page=0',
        'page=-1',
        'per_page=101',
        'per_page=0',
        'per_page=abc',
        'page=1e400',
        'page=99999999999999999999',
        `search=${encodeURIComponent(SQL)}`,
        `search=${encodeURIComponent(HUGE)}`,
        'page=1&page=2',
        `search=%00`,
      ]) {
        cases.push({ kind: 'query', route: r, method: r.method, url: `${urlOf(r, target)}?${q}` });
      }
      // Each filter left empty: no filter, or a 422, never rows that disagree with the total.
      for (const name of Object.keys(r.query.properties ?? {}).filter((key) => key !== 'page' && key !== 'per_page')) {
        cases.push({ kind: 'query', route: r, method: r.method, url: `${urlOf(r, target)}?${name}=&per_page=1` });
      }
    }
    const other = r.method === 'PATCH' ? 'PUT' : 'PATCH';
    cases.push({ kind: 'method', route: r, method: other, url: urlOf({ ...r, method: other }, target) });
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// The answer
// ---------------------------------------------------------------------------------------------

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const sameJson = (a, b) =>
  JSON.stringify(a, Object.keys(a ?? {}).sort()) === JSON.stringify(b, Object.keys(b ?? {}).sort()) &&
  Object.keys(a).length === Object.keys(b).length;

export const EXACT_BODIES = {
  401: { message: 'Unauthenticated.' },
  404: { message: 'Resource not found.', status: 404 },
  405: { message: 'Method not allowed.', status: 405 },
  413: { message: 'Payload too large.', status: 413 },
};
const TEMPLATE_404 = { success: false, message: 'Template not found.', status: 404 };

/** What must never be in an answer unless the request itself carried it. */
export const LEAK_MARKERS = [
  { name: 'stack frame', pattern: /\n\s+at |\bat [\w.<>]+ \([^)]*:\d+:\d+\)/ },
  { name: 'SQLite error', pattern: /SQLITE/ },
  { name: 'SQL text', pattern: /SELECT |INSERT INTO|UPDATE \w+ SET|DELETE FROM/ },
  { name: 'file path /work', pattern: /\/work\b/ },
  { name: 'file path /tmp', pattern: /\/tmp\b/ },
  { name: 'node_modules', pattern: /node_modules/ },
  { name: 'file URL', pattern: /file:\/\// },
];

/**
 * A checker of answers. Stored data comes back in later answers (a label named
 * `SELECT * FROM users` is listed by every later GET), so a marker is a leak in a 2xx only if no
 * request so far carried it, and in an error body only if this request did not carry it. With a
 * document checker (fuzz-contract.mjs), every answer is also held to the OpenAPI document.
 */
export function createChecker(documentChecker) {
  const everSent = new Set();
  return {
    /** Problems with one answer (empty when it is fine). `request` is what was sent. */
    problemsOf(request, response) {
      const sent = `${request.url}\n${safeDecode(request.url)}\n${request.payload === undefined ? '' : Buffer.isBuffer(request.payload) ? request.payload.toString('utf8') : String(request.payload)}`;
      const inRequest = new Set(LEAK_MARKERS.filter((marker) => marker.pattern.test(sent)).map((marker) => marker.name));
      for (const name of inRequest) everSent.add(name);
      const problems = [];
      const status = response.statusCode;
      const text = response.body;
      if (status >= 500) problems.push(`status ${status}`);
      // RFC 9110: a 405 names what the path allows; OPTIONS answers with that list and no body.
      if (status === 405 && !response.headers.allow) problems.push('405 without Allow');
      if (request.method === 'OPTIONS' && status === 204)
        return response.headers.allow && text === '' ? problems : [...problems, `OPTIONS answered 204 without Allow or with a body`];
      const type = String(response.headers['content-type'] ?? '');
      // A file download (GET /files/{file}) is no JSON: the document says what it may be.
      if (documentChecker && status < 300 && !type.startsWith('application/json'))
        return [...problems, ...documentChecker.problemsOf(request, response)];
      if (!type.startsWith('application/json')) problems.push(`content-type "${type}"`);
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        problems.push('body is not JSON');
      }
      if (body !== undefined) {
        const shape = shapeProblem(status, body, request.route);
        if (shape) problems.push(shape);
      }
      const excused = status < 300 ? everSent : inRequest;
      for (const marker of LEAK_MARKERS) {
        if (marker.pattern.test(text) && !excused.has(marker.name)) problems.push(`leaks ${marker.name}`);
      }
      if (documentChecker) problems.push(...documentChecker.problemsOf(request, response));
      return problems;
    },
  };
}

function safeDecode(url) {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

function shapeProblem(status, body, route) {
  if (status === 200 || status === 201) {
    if (!isObject(body)) return '2xx body is not an object';
    if (route?.response) {
      const parsed = route.response.safeParse(body);
      if (!parsed.success)
        return `2xx body does not match the contract: ${parsed.error.issues
          .slice(0, 2)
          .map((i) => `${i.path.join('.')}: ${i.message}`)
          .join('; ')}`;
    }
    return undefined;
  }
  if (status === 422) {
    const ok =
      isObject(body) &&
      Object.keys(body).length === 2 &&
      body.message === 'Validation error' &&
      isObject(body.errors) &&
      Object.keys(body.errors).length > 0 &&
      Object.values(body.errors).every(
        (list) => Array.isArray(list) && list.length > 0 && list.every((m) => typeof m === 'string' && m.length > 0),
      );
    return ok ? undefined : `422 body not {message: "Validation error", errors}: ${JSON.stringify(body).slice(0, 200)}`;
  }
  if (
    status === 404 &&
    isObject(body) &&
    (sameJson(body, TEMPLATE_404) || (body.success === false && typeof body.message === 'string' && route?.url.endsWith('/templates/sync')))
  ) {
    return undefined;
  }
  // A 403 names why when there is a reason to give (decisions.md §8), a 429 how long to wait: their shape is fixed, their message not.
  if (status === 403 || status === 429) {
    return isObject(body) && Object.keys(body).length === 2 && typeof body.message === 'string' && body.message && body.status === status
      ? undefined
      : `${status} body is ${JSON.stringify(body).slice(0, 200)}`;
  }
  const exact = EXACT_BODIES[status];
  if (!exact) return `unexpected status ${status}: ${JSON.stringify(body).slice(0, 200)}`;
  return isObject(body) && sameJson(body, exact) ? undefined : `${status} body is ${JSON.stringify(body).slice(0, 200)}`;
}

/** Sends `request` through `call` (app.inject-like) and returns its status and problems; an answer must come within `timeoutMs`. */
export async function send(call, checker, request, timeoutMs = 10_000) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  const res = await Promise.race([
    call({ method: request.method, url: request.url, payload: request.payload, headers: request.headers }),
    timeout,
  ]);
  clearTimeout(timer);
  if (res === undefined) return { statusCode: 0, problems: [`no answer within ${timeoutMs} ms`] };
  return {
    statusCode: res.statusCode,
    problems: checker.problemsOf(request, { statusCode: res.statusCode, headers: res.headers, body: res.body }),
  };
}

export const describeRequest = (r) =>
  `${r.kind}: ${r.method} ${r.url.length > 160 ? `${r.url.slice(0, 160)}…` : r.url}` +
  (r.payload === undefined
    ? ''
    : ` [${r.headers?.['content-type'] ?? ''}] ${String(Buffer.isBuffer(r.payload) ? r.payload.toString('latin1') : r.payload)
        .slice(0, 120)
        .replace(/\r?\n/g, '⏎')}`);

// ---------------------------------------------------------------------------------------------
// The larger run: plain node against dist/ through app.inject
// ---------------------------------------------------------------------------------------------

async function main() {
  const total = Number(process.argv[2] ?? 12_000);
  const seed = Number(process.argv[3] ?? 20261122);
  const { tempDir, ROOT } = await import('./lib.mjs');
  const dist = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);
  const fc = (await import('fast-check')).default;
  const { openDatabase } = await dist('server/db.js');
  const { seed: seedDb } = await dist('server/seed.js');
  const { buildApp } = await dist('server/app.js');
  const { jsonSchema, openApiDocumentFor } = await dist('server/openapi/document.js');

  const dir = tempDir('wsm-fuzz-');
  const db = openDatabase(join(dir, 'fuzz.db'));
  const seeded = await seedDb(db);
  // FUZZ_LOG=1 writes the server's request and error log (what a 500 hid) to stderr.
  const app = await buildApp({ db, uploadsDir: join(dir, 'uploads'), workers: false, logger: Boolean(process.env.FUZZ_LOG) });
  await app.ready();
  const call = (options) => app.inject({ ...options, headers: { authorization: `Bearer ${seeded.token}`, ...(options.headers ?? {}) } });

  const target = await prepareTarget(call, seeded.workspaceId);
  const routes = describeRoutes({ routeTable: app.routeTable, jsonSchema });
  const fixed = fixedCases(routes, target);
  const generated = fc.sample(requestArbitrary(fc, routes, target), { seed, numRuns: Math.max(0, total - fixed.length) });

  const byStatus = new Map();
  const byKind = new Map();
  const failures = [];
  const documentChecker = await createDocumentChecker(openApiDocumentFor(app.routeTable));
  const checker = createChecker(documentChecker);
  const started = Date.now();
  for (const request of [...fixed, ...generated]) {
    const { statusCode, problems } = await send(call, checker, request);
    byStatus.set(statusCode, (byStatus.get(statusCode) ?? 0) + 1);
    byKind.set(request.kind, (byKind.get(request.kind) ?? 0) + 1);
    if (problems.length) failures.push(`${problems.join(', ')} <- ${describeRequest(request)}`);
    if (process.env.FUZZ_DUMP && problems.length)
      console.log(
        JSON.stringify({
          problems,
          method: request.method,
          url: request.url,
          headers: request.headers,
          payload: Buffer.isBuffer(request.payload) ? request.payload.toString('latin1') : request.payload,
        }).slice(0, 4000),
      );
  }
  // Stateful sequences: FUZZ_SEQUENCES per resource (default: one per 500 requests, at least 10).
  const perResource = Number(process.env.FUZZ_SEQUENCES ?? Math.max(10, Math.round(total / 500)));
  let sequences = 0;
  let completed = 0;
  let sequenceRequests = 0;
  for (const resource of SEQUENCES) {
    for (let i = 0; i < perResource; i++) {
      const n = sequences++;
      const [bodies] = fc.sample(sequenceBodies(fc, resource, n, target), { seed: seed + n, numRuns: 1 });
      const result = await runSequence(
        (options) => {
          sequenceRequests += 1;
          return call(options);
        },
        documentChecker,
        resource,
        bodies,
        target,
      );
      if (result.completed) completed += 1;
      for (const step of result.steps) {
        const status = Number(step.split(' ').pop());
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      }
      failures.push(...result.problems);
    }
  }
  // What Schemathesis asks (fuzz-document.mjs): undocumented methods, each constraint both ways, the links.
  const document = documentChecker.document;
  const methods = methodCases(document, target);
  for (const request of methods) {
    const response = await call({ method: request.method, url: request.url });
    failures.push(...methodProblems(request, response, documentChecker.operationOf(request.method, request.url)?.allow));
    if (request.method !== 'HEAD') failures.push(...documentChecker.problemsOf(request, response));
  }
  const constraints = constraintCases(document, target);
  failures.push(...constraints.problems);
  for (const request of constraints.cases) {
    const response = await call({ method: request.method, url: request.url, payload: request.payload, headers: request.headers });
    failures.push(...constraintProblems(request, response), ...documentChecker.problemsOf(request, response));
  }
  const linked = await followLinks(call, document, target, (request, response) => documentChecker.problemsOf(request, response));
  failures.push(...linked.problems);
  const seconds = (Date.now() - started) / 1000;
  await app.close();
  const integrity = db.pragma('integrity_check', { simple: true });
  const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'contacts'").get().n;
  db.close();
  const polluted = Object.keys(Object.prototype).length > 0 || {}.polluted !== undefined;

  const sent = fixed.length + generated.length + sequenceRequests;
  console.log(
    `fuzz: ${sent.toLocaleString('en-US')} requests (${fixed.length} fixed = ${routes.length} routes × cases, ${generated.length} generated, ` +
      `${sequenceRequests} in ${sequences} sequences over ${SEQUENCES.length} resources, seed ${seed}) in ${seconds.toFixed(1)} s`,
  );
  console.log(
    `document: ${methods.length} undocumented methods and paths, ${constraints.cases.length} constraint cases both ways, ${linked.followed} operations reached through OpenAPI links`,
  );
  console.log(
    `every answer checked against the OpenAPI document (status listed, content type, body schema); sequences read back: ${completed} of ${sequences} ran to the end`,
  );
  console.log(
    `by status: ${[...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}=${n}`)
      .join(' ')}`,
  );
  console.log(
    `by kind:   ${[...byKind]
      .sort()
      .map(([k, n]) => `${k}=${n}`)
      .join(' ')}`,
  );
  console.log(`integrity_check: ${integrity}; contacts table present: ${tables === 1}; Object.prototype polluted: ${polluted}`);
  console.log(`problems: ${failures.length}`);
  for (const line of [...new Set(failures)].slice(0, Number(process.env.FUZZ_SHOW ?? 50))) console.log(`  ${line}`);
  if (failures.length || integrity !== 'ok' || tables !== 1 || polluted) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
