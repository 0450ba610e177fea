/**
 * The OpenAPI 3.1 document, generated from the app's route table: each route's
 * contract (the zod schemas it declares in `schema:`, http/contract.ts, which its
 * handler validates with), so it can never list a route the server lacks or a
 * rule the server does not apply. Built once, at the first request that needs
 * it, when every plugin has registered its routes.
 */
import * as z from 'zod';
import { ERROR_MESSAGES, statusErrorBody, templateErrorBody, unauthenticatedBody, validationErrorBody } from '../../api/schemas/index.js';
import type { RouteEntry } from '../app.js';
import { successOf, type RouteContract } from '../http/contract.js';
import { TAGS } from './operations.js';
import { asFormValue, filePart, formEncoding } from './form-parts.js';
import { pathParameters } from '../../api/descriptions/paths.js';
import { CATALOG, type ResourceIdentity } from '../../api/descriptions/catalog.js';

type Json = Record<string, unknown>;

export const API_VERSION = '1.0.0';
export const PREFIX = '/api/v3';

/** JSON Schema 2020-12 (what OpenAPI 3.1 speaks) of a contract schema; `input` for what clients send. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  try {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
    return rest;
  } catch {
    // A schema zod cannot express (a custom check, a cycle) must not take the whole document down.
    return {};
  }
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: Json) => ({ 'application/json': { schema } });

const ERROR_RESPONSES: Record<number, { description: string; schema: string }> = {
  401: { description: 'Missing or invalid bearer token.', schema: 'Unauthenticated' },
  403: { description: 'The caller lacks the permission.', schema: 'StatusError' },
  404: { description: 'Not found, or a workspace the caller is not a member of.', schema: 'StatusError' },
  413: { description: 'The body is larger than allowed (1 MB for JSON; an uploaded file beyond its own limit).', schema: 'StatusError' },
  422: { description: 'Validation error: `errors` maps each field (dotted path) to its messages.', schema: 'ValidationError' },
  429: { description: 'Too many attempts: wait the seconds of `Retry-After`.', schema: 'StatusError' },
  500: { description: 'Server error.', schema: 'StatusError' },
  503: {
    description:
      'Nothing was done: the server is shutting down, or (a write) the database is busy (retry after `Retry-After` seconds), the disk is full, or the database file was removed.',
    schema: 'StatusError',
  },
};

/** What the HTTP server answers before any operation is known (http/server-answers.ts), in the same shape. */
const TRANSPORT_ERRORS = {
  description:
    'Answered before the operation runs: 400 a request that is not valid HTTP/1.1 (or has no Host), 408 a request that stopped arriving, ' +
    '414 a URL longer than 16 KB, 417 an Expect other than 100-continue, 431 headers over 16 KB.',
  content: jsonContent(ref('StatusError')),
};

function pathParametersOf(path: string): Json[] {
  return pathParameters(path).map((name) => ({
    name,
    in: 'path',
    required: true,
    // Workspaces and stored files are UUIDs; every other resource has a positive integer id (decisions.md §1).
    schema: name === 'workspace' || name === 'file' ? { type: 'string', format: 'uuid' } : { type: 'integer', minimum: 1 },
  }));
}

function queryParameters(doc: RouteContract | undefined): Json[] {
  if (!doc?.querystring) return [];
  const schema = jsonSchema(doc.querystring, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: property,
    // A record travels as bracketed keys: `fields[city]=Lisbon`.
    ...((property as { type?: unknown }).type === 'object' ? { style: 'deepObject', explode: true } : {}),
  }));
}

function requestBody(doc: RouteContract | undefined): Json | undefined {
  if (!doc?.body) return undefined;
  const schema = jsonSchema(doc.body, 'input');
  const content: Json = {};
  if (doc.multipart !== 'only') content['application/json'] = { schema };
  if (doc.multipart) {
    const properties = Object.fromEntries(
      Object.entries((schema.properties as Record<string, Json> | undefined) ?? {}).map(([name, property]) => [
        name,
        asFormValue(property),
      ]),
    );
    for (const file of doc.files ?? []) properties[file] = filePart(file);
    // A form-only operation is there for its file: the first file part is required (an import's `file`).
    const required = [
      ...((schema.required as string[] | undefined) ?? []),
      ...(doc.multipart === 'only' && doc.files?.length ? [doc.files[0]] : []),
    ];
    // A Media Type Object has no `description` (OpenAPI 3.1 forbids unknown fields there): it goes on the schema.
    content['multipart/form-data'] = {
      schema: {
        ...schema,
        properties,
        ...(required.length ? { required } : {}),
        description: `Nested fields use bracket names: \`header[media][type]=image\`, \`contact_groups[]=3\`, \`contact_groups=\` for none.${doc.fileParts ? ` At most ${doc.fileParts} file part${doc.fileParts === 1 ? '' : 's'} (413 beyond).` : ''}`,
      },
      encoding: formEncoding(properties, doc.files ?? []),
    };
  }
  return { required: true, content };
}

function responses(route: RouteEntry, path: string, doc: RouteContract | undefined): Json {
  const out: Json = {};
  const { status, answer } = successOf(doc);
  if (answer && 'binary' in answer) {
    const types = answer.binary;
    out[status] = {
      description: 'The file.',
      content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
    };
  } else if (answer) {
    out[status] = { description: 'Success.', content: jsonContent(jsonSchema(answer, 'output')) };
  } else {
    out[status] = { description: 'Success.' };
  }
  const codes = new Set<number>(doc?.errors ?? []);
  if (!route.public) codes.add(401);
  if (route.permission || route.partnerOnly) codes.add(403);
  if (path.includes('{')) codes.add(404);
  // A query whose percent-encoding is not UTF-8 is a 422 anywhere (http/request-text.ts), as is any
  // body sent with a write that cannot be read (even where none is expected); past 1 MB a body is a 413.
  codes.add(422);
  if (route.method !== 'GET') codes.add(413);
  codes.add(503); // shutting down; and every write (http/database-file.ts, http/errors.ts)
  const templates = path.includes('/templates');
  for (const code of [...codes].sort((a, b) => a - b)) {
    const known = ERROR_RESPONSES[code];
    // Template endpoints answer a missing template, a failed sync or submission as {success: false, message}
    // (the published API, decisions.md §1); a workspace the caller cannot see is still the generic body.
    const schema =
      templates && (code === 404 || code === 500)
        ? { anyOf: [ref('TemplateError'), ref('StatusError')] }
        : ref(known?.schema ?? 'StatusError');
    const description =
      code === 413 && doc?.fileParts
        ? `${known.description} A form with more than ${doc.fileParts} file part${doc.fileParts === 1 ? '' : 's'} is one too.`
        : known?.description;
    out[String(code)] = { description: description ?? 'Error.', content: jsonContent(schema) };
  }
  out.default = TRANSPORT_ERRORS;
  return out;
}

function operation(route: RouteEntry, path: string): Json {
  const doc = route.schema;
  const notes = [
    doc?.description,
    route.permission ? `Needs the \`${route.permission}\` permission in the workspace.` : undefined,
    route.partnerOnly ? 'Partner users only.' : undefined,
    doc?.published ? undefined : 'Extension of the embedded server (not in the published contract): `wsm serve --api-only` answers it 404.',
  ].filter(Boolean);
  const parameters = [...pathParametersOf(path), ...queryParameters(doc)];
  return {
    operationId: `${route.method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: doc?.summary ?? `${route.method} ${path}`,
    ...(notes.length ? { description: notes.join('\n\n') } : {}),
    tags: doc?.tags ?? [tagOf(path)],
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody(doc) ? { requestBody: requestBody(doc) } : {}),
    responses: responses(route, path, doc),
    ...(route.public ? { security: [] } : {}),
  };
}

/** A route without an entry is filed under its resource, e.g. /workspaces/{w}/labels -> Labels. */
function tagOf(path: string): string {
  const parts = path.split('/').filter((part) => part && !part.startsWith('{'));
  const resource = parts[parts.length - 1] ?? 'Other';
  return resource.charAt(0).toUpperCase() + resource.slice(1).replace(/-/g, ' ');
}

/** `/api/v3/workspaces/:workspace/labels` -> `/workspaces/{workspace}/labels`; undefined outside the API. */
export function openApiPath(url: string): string | undefined {
  if (!url.startsWith(`${PREFIX}/`) || url.includes('*')) return undefined;
  return url
    .slice(PREFIX.length)
    .replace(/\/$/, '')
    .replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/**
 * OpenAPI links from each create (a POST answering 201) to every operation on what it made, the
 * path one `{id}` longer (get, update, delete; an import's get, a template's get): the id is the
 * answer's `data.id`, the rest of the path as the create's request had it. Stateful tools
 * (Schemathesis, Prism, bench/fuzz.mjs) follow them instead of guessing.
 */
function addLinks(paths: Record<string, Record<string, Json>>): void {
  for (const [path, operations] of Object.entries(paths)) {
    const made = (operations.post?.responses as Record<string, Json> | undefined)?.['201'];
    if (!made) continue;
    const links: Record<string, Json> = {};
    for (const [longer, targets] of Object.entries(paths)) {
      const id = longer.startsWith(`${path}/`) ? /^\/\{([^}]+)\}$/.exec(longer.slice(path.length))?.[1] : undefined;
      if (!id) continue;
      for (const target of Object.values(targets)) {
        const parameters = Object.fromEntries([
          ...pathParameters(path).map((name) => [name, `$request.path.${name}`]),
          [id, '$response.body#/data/id'],
        ]);
        links[target.operationId as string] = {
          operationId: target.operationId,
          parameters,
          description: `${target.summary}: the one just created.`,
        };
      }
    }
    if (Object.keys(links).length > 0) made.links = links;
  }
}

/** What a workspace holds, from the catalog: `contacts, contact groups, ... and templates`. */
const WORKSPACE_RESOURCES = (() => {
  const nouns = Object.values(CATALOG as Record<string, ResourceIdentity>).flatMap((identity) =>
    identity.permissionGroup ? [`${identity.noun}s`] : [],
  );
  return `${nouns.slice(0, -1).join(', ')} and ${nouns.at(-1)}`;
})();

function buildOpenApiDocument(routes: RouteEntry[]): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    const path = openApiPath(route.url);
    if (!path || route.method === 'OPTIONS') continue;
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, path);
  }
  addLinks(paths);
  const used = new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags as string[])));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Workspace Messaging Management API',
      version: API_VERSION,
      description:
        `Workspaces and their ${WORKSPACE_RESOURCES}. ` + 'Every call needs `Authorization: Bearer <token>` unless marked otherwise.',
    },
    servers: [{ url: PREFIX }],
    security: [{ bearerAuth: [] }],
    tags: [
      ...TAGS.filter((tag) => used.has(tag.name)),
      ...[...used].filter((name) => !TAGS.some((tag) => tag.name === name)).map((name) => ({ name })),
    ],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An opaque token, e.g. from POST /auth/tokens.' } },
      schemas: {
        ValidationError: jsonSchema(validationErrorBody, 'output'),
        Unauthenticated: jsonSchema(unauthenticatedBody, 'output'),
        StatusError: { ...jsonSchema(statusErrorBody, 'output'), examples: [{ message: ERROR_MESSAGES[404], status: 404 }] },
        TemplateError: {
          ...jsonSchema(templateErrorBody, 'output'),
          examples: [{ success: false, message: ERROR_MESSAGES.template404, status: 404 }],
        },
      },
    },
  };
}

// One document per app (keyed by its route table), built at the first request.
const documents = new WeakMap<RouteEntry[], Json>();
/** The document of `routes`; `shown` keeps only some of them (`--api-only`: the published API alone). */
export function openApiDocumentFor(routes: RouteEntry[], shown?: (route: RouteEntry) => boolean): Json {
  let document = documents.get(routes);
  if (!document) documents.set(routes, (document = buildOpenApiDocument(shown ? routes.filter(shown) : routes)));
  return document;
}
