// What a contract fuzzer (Schemathesis) asks of the server, from the server's own OpenAPI document:
//   methods   every method the document does not list, on every path (405 with Allow; OPTIONS 204
//             with Allow), and every method on a path no operation has (404);
//   both ways each documented constraint of a JSON body or a query (type, enum, pattern, lengths,
//             bounds, required, anyOf): a value the document allows is accepted (2xx), one it
//             forbids is a 422 naming the field;
//   links     the stateful part: every create, then each operation its OpenAPI links lead to, with
//             the ids the links say (get, update, delete, then get 404).
// As Schemathesis, it reads each pattern without JavaScript's `u` flag (Python's `re` has no
// `\p{...}`): a pattern that does not compile so, or that its own valid values do not fit, is a
// problem; an array field is sent an object (`{}`, `{"0": …}`), which must be a 422; and a value
// the document allows that the server answers 422 is an undocumented 422.
// Used by bench/fuzz.mjs (the large run) and test/hardening/bad-input.test.ts (the CI run).
import { PREFIX } from './fuzz-contract.mjs';

const ROUTED = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
/** Methods the server routes nothing with: answered by their path alone. */
export const UNKNOWN_METHODS = ['QUERY', 'PROPFIND', 'TRACE'];

/** Letters only, different for every n (template and field names allow no digits). */
const letters = (n) => {
  let out = '';
  do {
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26);
  } while (n > 0);
  return out;
};
const digits = (n, width) => String(n).padStart(width, '0').slice(-width);

/**
 * Values for each pattern of the document: `valid(n)` some it allows (different for each n, for
 * fields that must be unique), `invalid` some it forbids; `pad`: letters may lengthen a valid value.
 * A pattern missing here is a problem: the fuzz cannot test it both ways.
 */
const PATTERNS = {
  visible: {
    valid: (n) => [`Name ${letters(n)}`, `\u{1f600} ${letters(n)}`],
    invalid: ['\u009c', ' \u200d ', '\u0085\u200b', '\u3164', '\u2800', '\u115f\u1160', '\uffa0', '\u{e0001}'],
    pad: true,
  },
  '^[a-z_]+$': { valid: (n) => [`fuzz_${letters(n)}`], invalid: ['Has Caps', 'with_digit_1', 'dash-ed'], pad: true },
  '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$': { valid: () => ['#a1b2c3', '#ABC'], invalid: ['#12345', 'red', '#ggg'] },
  '^[a-z]{2,3}(_[A-Z]{2})?$': { valid: () => ['en', 'pt_BR'], invalid: ['EN', 'english', 'pt-BR'] },
  '^[1-9][0-9]*$': { valid: () => ['1', '42'], invalid: ['0', '007', '-1'] },
  number: {
    valid: (n) => [`9${digits(n, 6)}`, `1${digits(n, 14)}`, `+1 (555) 01${digits(n, 2)}-${digits(n, 4)}`],
    invalid: ['123456', '1234567890123456', 'abc1234567', '555 01 O2 ZZ'],
  },
  email: { valid: (n) => [`fuzz.${letters(n)}@example.com`], invalid: ['not-an-email', 'a@b', '@example.com'] },
};
/** The visible-text pattern (schemas/common.ts): a class of every invisible code unit, first of all the C0 controls. */
const isVisiblePattern = (pattern) => pattern?.startsWith('[^\\u0000-\\u0020');
const patternOf = (schema) =>
  schema.format === 'email'
    ? PATTERNS.email
    : schema.pattern?.includes('(\\d[')
      ? PATTERNS.number
      : isVisiblePattern(schema.pattern)
        ? PATTERNS.visible
        : PATTERNS[schema.pattern];

/** Rules the document says in words, not as a pattern (any text of a pattern's shape would not be one): values by field. */
const IN_WORDS = {
  timezone: { valid: () => ['Europe/Lisbon', 'UTC', 'America/Argentina/Buenos_Aires'], invalid: ['Not a zone', '/Europe', 'Abc'] },
};

/** Problems with a pattern as other engines read it: it must compile without the `u` flag and fit its own values. */
function patternProblems(main, field, pattern) {
  if (!main.pattern) return [];
  let compiled;
  try {
    compiled = new RegExp(main.pattern);
  } catch (error) {
    return [`the pattern of ${field} does not compile without the u flag (${error.message}): Python's re and Java cannot read it`];
  }
  if (/\\[pP]\{/.test(main.pattern)) return [`the pattern of ${field} uses a Unicode property class, which Python's re cannot read`];
  if (!pattern) return [];
  // Its invalid values may break another rule than the pattern (a length): only the valid ones must fit it.
  return pattern
    .valid(1)
    .filter((value) => !compiled.test(value))
    .map((value) => `the pattern of ${field} refuses ${JSON.stringify(value)}, a value it should take`);
}

/**
 * A valid body for each operation with a JSON body, `n` making its unique fields unique; the
 * constraint cases vary one field of it at a time. An operation missing here is a problem.
 */
const BASES = {
  'POST /workspaces': (n) => ({ name: `Workspace ${letters(n)}` }),
  'PATCH /workspaces/partner/permissions': () => ({ permissions: ['contacts.view', 'labels.view'] }),
  'POST /workspaces/{workspace}/labels': (n) => ({ name: `Label ${letters(n)}` }),
  'PUT /workspaces/{workspace}/labels/{label}': (n) => ({ name: `Label ${letters(n)}` }),
  'POST /workspaces/{workspace}/contact-groups': (n) => ({ name: `Group ${letters(n)}` }),
  'PUT /workspaces/{workspace}/contact-groups/{group}': (n) => ({ name: `Group ${letters(n)}` }),
  'POST /workspaces/{workspace}/contact-fields': (n) => ({ name: `field_${letters(n)}` }),
  'PUT /workspaces/{workspace}/contact-fields/{field}': (n) => ({ name: `field_${letters(n)}` }),
  'POST /workspaces/{workspace}/roles': (n) => ({ name: `Role ${letters(n)}`, permissions: ['contacts.view'] }),
  'PUT /workspaces/{workspace}/roles/{role}': (n) => ({ name: `Role ${letters(n)}` }),
  'POST /workspaces/{workspace}/users': (n, target) => ({
    name: `User ${letters(n)}`,
    email: `user.${letters(n)}@example.com`,
    password: 'password-123',
    role_id: target.ids.role,
  }),
  'POST /workspaces/{workspace}/users/{user}': (n) => ({ name: `User ${letters(n)}` }),
  'POST /workspaces/{workspace}/contacts': (n) => ({ number: `8${digits(n, 9)}` }),
  'POST /workspaces/{workspace}/contacts/{contact}': (n) => ({ name: `Contact ${letters(n)}` }),
  'POST /workspaces/{workspace}/templates': (n) => ({
    name: `fuzz_${letters(n)}`,
    language: 'en',
    category: 'UTILITY',
    body: { text: 'Hello friend, see you.' },
  }),
};
/** Not varied: a sign-in's acceptance needs a real account, and every attempt counts against the limits. */
const NOT_VARIED = new Set(['POST /auth/tokens']);

/** Fields that name another record: the values the document allows that also exist. */
const REFERENCES = { role_id: (target) => target.ids.role, contact_groups: (target) => [target.ids.group] };
/** What a field's value brings with it, where another rule of the document ties them (allOf, a confirmation). */
const COMPANIONS = {
  password: (value) => ({ confirm_password: value }),
  // An AUTHENTICATION template's text is the provider's: no body (undefined leaves it out of the JSON).
  category: (value) => (value === 'AUTHENTICATION' ? { body: undefined } : {}),
  addSecurityRecommendation: () => ({ category: 'AUTHENTICATION', body: undefined }),
  codeExpirationMinutes: () => ({ category: 'AUTHENTICATION', body: undefined }),
  copyCodeButton: () => ({ category: 'AUTHENTICATION', body: undefined }),
  unsubscribeButton: () => ({ category: 'MARKETING' }),
  blockButton: () => ({ category: 'MARKETING' }),
};

const MAX_GENERATED_LENGTH = 4096;

/** Values a property's schema allows and forbids (the `null` branch of an anyOf included). */
function valuesOf(schema, field, n, target) {
  const allowed = [];
  const forbidden = [];
  const problems = [];
  const branches = schema.anyOf ?? [schema];
  const nullable = branches.some((branch) => branch.type === 'null');
  if (nullable) allowed.push(null);
  const main = branches.find((branch) => branch.type !== 'null') ?? {};
  // An array is an array: an object standing for one (`{}`, `{"0": item}`) is a 422, never read as a list.
  const objectsForArray = (item) => (main.type === 'array' ? [{}, { 0: item }] : []);
  if (REFERENCES[field]) {
    const reference = REFERENCES[field](target);
    allowed.push(reference);
    forbidden.push(main.type === 'array' ? ['x'] : 'x', main.type === 'array' ? 'x' : 0, ...objectsForArray(reference[0]));
    return { allowed, forbidden, problems };
  }
  if (main.enum) {
    allowed.push(main.enum[0], main.enum.at(-1));
    forbidden.push('no-such-value', 7);
  } else if (main.type === 'string') {
    const pattern = patternOf(main) ?? IN_WORDS[field];
    if ((main.pattern || main.format) && !pattern)
      problems.push(`no values for the pattern ${main.pattern ?? main.format} of ${field}: add them to PATTERNS`);
    problems.push(...patternProblems(main, field, pattern));
    const seeds = pattern ? pattern.valid(n) : [`Value ${letters(n)}`];
    allowed.push(...seeds);
    if (pattern) forbidden.push(...pattern.invalid);
    forbidden.push(12345, true);
    if (!nullable) forbidden.push(null);
    const { minLength = 0, maxLength } = main;
    const canPad = !pattern || pattern.pad;
    if (canPad && maxLength !== undefined && maxLength <= MAX_GENERATED_LENGTH) {
      allowed.push(`${seeds[0]}${'x'.repeat(Math.max(0, maxLength - seeds[0].length))}`.slice(0, maxLength));
      forbidden.push(`${seeds[0]}${'x'.repeat(maxLength + 1 - seeds[0].length)}`);
    }
    if (canPad && minLength > 1) {
      allowed.push(`${seeds[0]}${'x'.repeat(minLength)}`.slice(0, Math.max(minLength, seeds[0].length)));
      forbidden.push('x'.repeat(minLength - 1));
    }
    if (minLength >= 1) forbidden.push('');
  } else if (main.type === 'integer' || main.type === 'number') {
    const low = main.minimum ?? (main.exclusiveMinimum !== undefined ? main.exclusiveMinimum + 1 : 1);
    allowed.push(low);
    if (main.maximum !== undefined && main.maximum < 1e6) allowed.push(main.maximum);
    forbidden.push(low - 1, 'x');
    if (main.maximum !== undefined) forbidden.push(main.maximum + 1);
    if (main.type === 'integer') forbidden.push(low + 0.5);
  } else if (main.type === 'boolean') {
    allowed.push(true, false);
    forbidden.push('maybe', 2);
  } else if (main.type === 'array' && main.items?.enum) {
    allowed.push([main.items.enum[0]], [main.items.enum.at(-1)]);
    forbidden.push(['no.such'], 'not-a-list', ...objectsForArray(main.items.enum[0]));
    if (main.minItems) forbidden.push([]);
    if (main.uniqueItems) forbidden.push([main.items.enum[0], main.items.enum[0]]);
  } else if (main.type === 'array') {
    forbidden.push(...objectsForArray('x'));
  }
  // Objects and arrays of objects (a template's header, body and buttons; contact fields) are the
  // generated cases' part (fuzz.mjs): their members' rules are not varied one by one here.
  return { allowed, forbidden, problems };
}

/** `/workspaces/{workspace}/labels/{label}` with the run's workspace and prepared ids. */
export function concrete(path, target) {
  return `${PREFIX}${path.replace(/\{([^}]+)\}/g, (_, name) => (name === 'workspace' ? target.ws : String(target.ids[name] ?? 999999)))}`;
}

const isoError = (body, field) =>
  body?.message === 'Validation error' && Object.keys(body.errors ?? {}).some((key) => key === field || key.startsWith(`${field}.`));

/** Every undocumented method on every path of the document, and every method on a path it lacks. */
export function methodCases(document, target) {
  const cases = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of [...ROUTED, ...UNKNOWN_METHODS]) {
      if (operations[method.toLowerCase()] || (method === 'HEAD' && operations.get)) continue;
      cases.push({ kind: 'undocumented-method', method, url: concrete(path, target) });
    }
  }
  for (const method of [...ROUTED, ...UNKNOWN_METHODS]) cases.push({ kind: 'no-such-path', method, url: `${PREFIX}/no-such-path/1` });
  return cases;
}

/** The constraint cases of every operation: `expect` is 'accepted' or the field a 422 must name. */
export function constraintCases(document, target) {
  const cases = [];
  const problems = [];
  let n = 1000;
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [lower, operation] of Object.entries(operations)) {
      const method = lower.toUpperCase();
      const key = `${method} ${path}`;
      const url = concrete(path, target);
      for (const parameter of (operation.parameters ?? []).filter((p) => p.in === 'query' && p.schema.type !== 'object')) {
        const values = valuesOf(parameter.schema, parameter.name, n++, target);
        problems.push(...values.problems);
        const query = (value) => `${url}?${parameter.name}=${encodeURIComponent(String(value))}`;
        for (const value of values.allowed.filter((v) => v !== null))
          cases.push({ kind: 'allowed-query', method, url: query(value), field: parameter.name, expect: 'accepted' });
        // Every query value is text: a number or a boolean is forbidden only where text is not what the parameter takes.
        const textual = parameter.schema.type === 'string' && !parameter.schema.enum;
        for (const value of values.forbidden.filter((v) => v !== null && typeof v !== 'boolean' && !(textual && typeof v === 'number')))
          cases.push({ kind: 'forbidden-query', method, url: query(value), field: parameter.name, expect: parameter.name });
      }
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      if (!schema || NOT_VARIED.has(key)) continue;
      const base = BASES[key];
      if (!base) {
        problems.push(`no valid body for ${key}: add one to BASES`);
        continue;
      }
      const send = (kind, payload, expect, field) =>
        cases.push({ kind, method, url, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' }, field, expect });
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        const values = valuesOf(property, field, n, target);
        problems.push(...values.problems);
        for (const value of values.allowed)
          send('allowed-body', { ...base(n++, target), [field]: value, ...(COMPANIONS[field]?.(value) ?? {}) }, 'accepted', field);
        for (const value of values.forbidden)
          send('forbidden-body', { ...base(n++, target), [field]: value, ...(COMPANIONS[field]?.(value) ?? {}) }, field, field);
      }
      for (const field of schema.required ?? []) {
        const { [field]: _left, ...rest } = base(n++, target);
        send('forbidden-body', rest, field, field);
      }
      // "name or colour": each alone is allowed, neither is a 422.
      const either = (schema.anyOf ?? []).map((branch) => branch.required?.[0]).filter(Boolean);
      if (either.length > 0) {
        send('forbidden-body', {}, either[0], either.join(' or '));
        for (const field of either) {
          const value = valuesOf(schema.properties[field], field, n++, target).allowed.find((v) => v !== null);
          send('allowed-body', { [field]: value }, 'accepted', field);
        }
      }
    }
  }
  return { cases, problems };
}

/** Problems with the answer to one constraint case (the document checker's come on top). */
export function constraintProblems(request, response) {
  let body;
  try {
    body = JSON.parse(response.body);
  } catch {
    body = undefined;
  }
  const where = `${request.kind} ${request.field}: ${request.method} ${request.url.slice(0, 120)} ${String(request.payload ?? '').slice(0, 120)}`;
  if (request.expect === 'accepted')
    return response.statusCode < 300
      ? []
      : [`${where}: the document allows it, the server answered ${response.statusCode} ${response.body.slice(0, 200)}`];
  return response.statusCode === 422 && isoError(body, request.expect)
    ? []
    : [`${where}: the document forbids it, the server answered ${response.statusCode} ${response.body.slice(0, 200)}`];
}

/** Problems with an undocumented method's answer beyond the document checker's (HEAD has no body to read). */
export function methodProblems(request, response, allowOf) {
  const expected = request.kind === 'no-such-path' ? 404 : request.method === 'OPTIONS' ? 204 : 405;
  const problems =
    response.statusCode === expected
      ? []
      : [`${request.method} ${request.url}: expected ${expected}, got ${response.statusCode} ${response.body.slice(0, 160)}`];
  if (expected !== 404 && !response.headers.allow) problems.push(`${request.method} ${request.url}: ${expected} without Allow`);
  if (expected !== 404 && allowOf && response.headers.allow !== allowOf)
    problems.push(`${request.method} ${request.url}: Allow ${response.headers.allow}, the document says ${allowOf}`);
  return problems;
}

/** A CSV upload for an import create (its only form). */
function importForm(n) {
  const boundary = 'fuzzLinkBoundary';
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="links.csv"\r\nContent-Type: text/csv\r\n\r\nnumber,name\n7${digits(n, 9)},Linked\n\r\n--${boundary}--\r\n`;
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const ORDER = { get: 0, put: 1, patch: 1, post: 1, delete: 2 };

/**
 * The stateful part: for every create the document links from, create one, then call each linked
 * operation with the parameters its link names ($request.path.*, $response.body#/data/id): reads
 * answer 200 with that record, updates 200, the delete 200, and reads after the delete 404.
 * `check(request, response)` adds the document checker's problems.
 */
export async function followLinks(call, document, target, check) {
  const problems = [];
  let followed = 0;
  let n = 5000;
  for (const [path, operations] of Object.entries(document.paths)) {
    const links = operations.post?.responses?.['201']?.links;
    if (!links) continue;
    const createUrl = concrete(path, target);
    const form = operations.post.requestBody?.content?.['application/json'] ? undefined : importForm(n++);
    const base = BASES[`POST ${path}`];
    if (!form && !base) {
      problems.push(`no valid body for POST ${path}: add one to BASES`);
      continue;
    }
    const createRequest = {
      method: 'POST',
      url: createUrl,
      ...(form ?? { payload: JSON.stringify(base(n++, target)), headers: { 'content-type': 'application/json' } }),
    };
    const created = await call(createRequest);
    problems.push(...check(createRequest, created));
    if (created.statusCode !== 201) {
      problems.push(`POST ${path}: the create a link starts from answered ${created.statusCode} ${created.body.slice(0, 200)}`);
      continue;
    }
    const made = JSON.parse(created.body).data;
    const targets = Object.values(links).map((link) => {
      const [targetPath, lower] =
        Object.entries(document.paths).flatMap(([p, ops]) =>
          Object.entries(ops)
            .filter(([, op]) => op.operationId === link.operationId)
            .map(([m]) => [p, m]),
        )[0] ?? [];
      return { link, targetPath, method: lower?.toUpperCase() };
    });
    const urlOf = ({ link, targetPath }) =>
      `${PREFIX}${targetPath.replace(/\{([^}]+)\}/g, (_, name) => {
        const expression = link.parameters[name];
        if (expression === '$response.body#/data/id') return String(made.id);
        if (expression?.startsWith('$request.path.'))
          return expression === '$request.path.workspace' ? target.ws : String(target.ids[name]);
        return `unresolved-${name}`;
      })}`;
    const steps = [...targets].sort((a, b) => ORDER[a.method.toLowerCase()] - ORDER[b.method.toLowerCase()]);
    for (const step of [...steps, ...steps.filter((s) => s.method === 'GET').map((s) => ({ ...s, gone: true }))]) {
      if (!step.targetPath) {
        problems.push(`POST ${path}: the link ${step.link.operationId} names no operation of the document`);
        continue;
      }
      const key = `${step.method} ${step.targetPath}`;
      const body = step.method === 'GET' || step.method === 'DELETE' ? undefined : BASES[key];
      if (step.method !== 'GET' && step.method !== 'DELETE' && !body) {
        problems.push(`no valid body for ${key}, which POST ${path} links to: add one to BASES`);
        continue;
      }
      const request = {
        method: step.method,
        url: urlOf(step),
        ...(body ? { payload: JSON.stringify(body(n++, target)), headers: { 'content-type': 'application/json' } } : {}),
      };
      const response = await call(request);
      followed += 1;
      problems.push(...check(request, response));
      const deleted = steps.some((s) => s.method === 'DELETE');
      const expected = step.gone && deleted ? 404 : 200;
      if (response.statusCode !== expected)
        problems.push(
          `${key} (linked from POST ${path}${step.gone ? ', after the delete' : ''}): expected ${expected}, got ${response.statusCode} ${response.body.slice(0, 200)}`,
        );
      else if (expected === 200 && step.method === 'GET' && JSON.parse(response.body).data?.id !== made.id)
        problems.push(`${key}: read another record than the one created (${response.body.slice(0, 120)})`);
    }
  }
  return { problems, followed };
}
