/**
 * docs/api-reference.md, written from the OpenAPI document of `wsm serve` (every route, published
 * or ours): each operation with its permission, parameters, body and answers, the envelopes, the
 * errors and every limit a schema states. scripts/build-api-reference.mjs writes the page on
 * `npm run build`; test/api/api-reference.test.ts fails when the page differs from what this writes.
 */
import { ERROR_MESSAGES } from '../../api/schemas/index.js';
import { VISIBLE_PATTERN } from '../../api/schemas/common.js';

type Json = Record<string, any>; // a JSON Schema or OpenAPI node, read loosely

const NAV =
  '[README](../README.md) · [commands](commands.md) · [architecture](architecture.md) · [decisions](decisions.md) · ' +
  '[the embedded server](embedded-server.md) · [the hosted service](hosted-service.md) · [history and undo](undo.md)';

const INTRO = `# API reference

${NAV}

Written by \`npm run build\` (scripts/build-api-reference.mjs) from the OpenAPI document that
\`wsm serve\` serves at \`/api/v3/openapi.json\`; test/api/api-reference.test.ts fails when this page
is stale, so edit the schemas and descriptions, never this page. The rules behind it, where the
published API leaves them open, are in [decisions](decisions.md).

## Conventions

- Every path is under the base path \`/api/v3\`. Bodies are JSON (\`application/json; charset=utf-8\`)
  unless a multipart form is named; a form's nested fields use bracket names
  (\`header[media][type]=image\`, \`contact_groups[]=3\`) and booleans travel as \`1\`/\`0\` or \`true\`/\`false\`.
- Every call sends \`Authorization: Bearer <token>\` unless it says "no token".
- **Published** operations are those of the hosted service; every other one is an **extension** of
  the embedded server, which \`wsm serve --api-only\` answers 404 and the CLI reports as "not supported".
- A workspace is a UUID; every other id is a positive integer. A path id of any other form is a 404.
- Timestamps are ISO 8601 in UTC with \`Z\`. Unknown body fields are ignored.
- A field's description, written for \`wsm mcp\`'s tools as well, names an operation as those tools
  are named: the resource, then the verb (\`groups.list\` lists contact groups, \`fields.list\` contact fields).

## Envelopes

| Answer | Body |
|---|---|
| A list | \`{data: [record], meta: {current_page, per_page, total, last_page, from, to}, links: {first, last, prev, next}}\`; \`page\` defaults to 1, \`per_page\` to 10 (1 to 100), rows in ascending \`id\` |
| One record | \`{data: record}\` (templates: \`{success: true, data}\`) |
| A create | 201 \`{status: 201, message: "<Resource> created successfully.", data}\` |
| An update | 200 \`{status: 200, message: "<Resource> updated successfully.", data}\` |
| A delete | 200 \`{message: "<Resource> deleted successfully.", status: 200}\` |
`;

const isBound = (value: unknown) => typeof value === 'number' && Math.abs(value) < 2 ** 40;

/** A schema's type in a few words: `string`, `integer`, `array of integer`, `string or null`. */
function typeOf(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return String(schema.$ref).split('/').pop()!;
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (schema.enum) return schema.enum.map((value: unknown) => `\`${value}\``).join(', ');
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return [...new Set(options.map(typeOf))].join(' or ');
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const shown = types.map((type) => (type === 'array' ? `array of ${typeOf(schema.items)}` : type));
  if (schema.contentMediaType) return 'file';
  return shown.join(' or ') || 'any';
}

/**
 * Every limit a schema states, in words: `at most 255 characters`, `1 to 100`, `matches ^[a-z_]+$`,
 * then what its description says (left out with `described` false: the limits alone).
 */
function rulesOf(schema: Json | undefined, described = true): string[] {
  if (!schema) return [];
  const rules: string[] = [];
  const { minLength, maxLength, minimum, maximum, minItems, maxItems, pattern, format } = schema;
  if (isBound(minLength) && minLength > 0) rules.push(`at least ${minLength} character${minLength === 1 ? '' : 's'}`);
  if (isBound(maxLength)) rules.push(`at most ${maxLength} characters`);
  if (isBound(minimum) && isBound(maximum)) rules.push(`${minimum} to ${maximum}`);
  else if (isBound(minimum)) rules.push(`at least ${minimum}`);
  else if (isBound(maximum)) rules.push(`at most ${maximum}`);
  if (isBound(minItems) && minItems > 0) rules.push(`at least ${minItems} item${minItems === 1 ? '' : 's'}`);
  if (isBound(maxItems)) rules.push(`at most ${maxItems} items`);
  if (format && format !== 'uuid') rules.push(`format ${format}`);
  // The visible-text pattern (schemas/common.ts) is said in words.
  if (pattern === VISIBLE_PATTERN) rules.push('not blank');
  else if (pattern && format !== 'uuid') rules.push(`matches \`${pattern}\``);
  for (const option of schema.anyOf ?? schema.oneOf ?? []) rules.push(...rulesOf(option, described));
  if (schema.items) rules.push(...rulesOf(schema.items, described).map((rule) => `each ${rule}`));
  if (described && schema.description) rules.push(String(schema.description).replace(/\s+/g, ' '));
  return [...new Set(rules)];
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

/** The fields of a body: name, schema and whether it is required; nested objects as dotted names. */
function fieldsOf(schema: Json | undefined, prefix = ''): Array<[name: string, schema: Json, required: boolean]> {
  const properties: Record<string, Json> = schema?.properties ?? {};
  const required: string[] = schema?.required ?? [];
  return Object.entries(properties).flatMap(([name, property]) => [
    [`\`${prefix}${name}\``, property, required.includes(name)] as [string, Json, boolean],
    ...(property.type === 'object' && property.properties ? fieldsOf(property, `${prefix}${name}.`) : []),
  ]);
}

/** The rows of a fields table: name, type, required, rules. */
const fieldRows = (schema: Json | undefined): string[][] =>
  fieldsOf(schema).map(([name, property, required]) => [name, typeOf(property), required ? 'yes' : 'no', rulesOf(property).join('; ')]);

function table(header: string[], rows: string[][]): string[] {
  if (rows.length === 0) return [];
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
    '',
  ];
}

/** `{data: [id, name, ...], meta, links}`: an answer's top-level keys, a record's fields inside `data`. */
function answerShape(schema: Json | undefined): string {
  if (!schema?.properties) return typeOf(schema);
  const keys = Object.entries(schema.properties as Record<string, Json>).map(([key, value]) => {
    if (key !== 'data') return key;
    const record = value.type === 'array' ? value.items : value;
    const fields = record?.properties ? Object.keys(record.properties).join(', ') : '';
    if (!fields) return key;
    return value.type === 'array' ? `data: [{${fields}}]` : `data: {${fields}}`;
  });
  return `\`{${keys.join(', ')}}\``;
}

function successOf(responses: Record<string, Json>): string[] {
  return Object.entries(responses)
    .filter(([status]) => /^2/.test(status))
    .map(([status, response]) => {
      const content: Record<string, Json> = response.content ?? {};
      const json = content['application/json'];
      if (json) return `${status} ${answerShape(json.schema)}`;
      const types = Object.keys(content);
      return types.length ? `${status} the file (${types.join(', ')})` : `${status}, no body`;
    });
}

function operationSection(method: string, path: string, op: Json): string[] {
  const published = !String(op.description ?? '').includes('Extension of the embedded server');
  const notes = String(op.description ?? '')
    .split('\n\n')
    .filter((note) => !note.startsWith('Extension of the embedded server'));
  const params: Json[] = op.parameters ?? [];
  const paramRows = params.map((p) => [`\`${p.name}\``, p.in, typeOf(p.schema), p.required ? 'yes' : 'no', rulesOf(p.schema).join('; ')]);
  const lines = [
    `### ${method.toUpperCase()} \`${path}\``,
    '',
    `${op.summary}. ${published ? '**Published.**' : '**Extension.**'}${op.security?.length === 0 ? ' No token.' : ''}`,
    '',
    ...notes.map((note) => `${note}\n`),
    ...table(['Parameter', 'In', 'Type', 'Required', 'Rules'], paramRows),
  ];
  const content: Record<string, Json> = op.requestBody?.content ?? {};
  for (const [type, media] of Object.entries(content)) {
    lines.push(`Body (${type}):`, '', ...table(['Field', 'Type', 'Required', 'Rules'], fieldRows(media.schema)));
    if (!media.schema?.properties) lines.splice(-1, 0, 'any JSON', '');
  }
  const responses: Record<string, Json> = op.responses ?? {};
  const errors = Object.keys(responses).filter((status) => /^[3-5]/.test(status));
  lines.push(`Answers ${successOf(responses).join('; ')}. Errors: ${errors.join(', ')}.`, '');
  return lines;
}

function errorsSection(document: Json): string[] {
  const seen = new Map<string, string>();
  for (const operations of Object.values(document.paths as Record<string, Record<string, Json>>)) {
    for (const op of Object.values(operations)) {
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        if (/^[45]/.test(status) && !seen.has(status)) seen.set(status, String(response.description));
      }
    }
  }
  const bodies: Record<string, string> = {
    401: `{message: "${ERROR_MESSAGES[401]}"}`,
    403: `{message: "${ERROR_MESSAGES[403]}", status: 403}`,
    404: `{message: "${ERROR_MESSAGES[404]}", status: 404}; template endpoints {success: false, message: "${ERROR_MESSAGES.template404}", status: 404}`,
    413: `{message: "${ERROR_MESSAGES[413]}", status: 413}`,
    422: `{message: "${ERROR_MESSAGES.validation}", errors: {<field>: [<text>, ...]}}, nested fields as dotted keys (body.text, buttons.1.url)`,
    500: `{message: "${ERROR_MESSAGES[500]}", status: 500}; template sync and submission {success: false, message} naming the cause`,
  };
  const rows = [...seen.entries()]
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, description]) => [status, description, `\`${bodies[status] ?? '{message, status}'}\``]);
  return [
    '## Errors',
    '',
    'Every error is JSON; none carries a stack trace, SQL text or a file path. 405 `{message: "Method not allowed.", status: 405}`',
    'answers a method a path lacks, with `Allow`.',
    '',
    ...table(['Status', 'When', 'Body'], rows),
  ];
}

/** Every bounded field of a request, once per resource: what a client must keep to before sending. */
function limitsSection(document: Json): string[] {
  const rows = new Map<string, string[]>();
  for (const operations of Object.values(document.paths as Record<string, Record<string, Json>>)) {
    for (const op of Object.values(operations)) {
      const schemas: Array<[string, Json]> = (op.parameters ?? [])
        .filter((p: Json) => p.in === 'query')
        .map((p: Json) => [p.name, p.schema]);
      // A field is listed where it is bounded (a JSON id is not, its form's digits are), with what its description says.
      for (const media of Object.values((op.requestBody?.content ?? {}) as Record<string, Json>)) {
        for (const [name, property] of fieldsOf(media.schema))
          if (rulesOf(property, false).length > 0 && !rows.has(`${op.tags?.[0]} ${name}`))
            rows.set(`${op.tags?.[0]} ${name}`, [op.tags?.[0], name, rulesOf(property).join('; ')]);
      }
      for (const [name, schema] of schemas) {
        if (rulesOf(schema, false).length > 0)
          rows.set(`${op.tags?.[0]} ${name}`, [op.tags?.[0], `\`${name}\` (query)`, rulesOf(schema).join('; ')]);
      }
    }
  }
  return ['## Limits', '', ...table(['Resource', 'Field', 'Rules'], [...rows.values()])];
}

/** The page, from the OpenAPI document of every route (`wsm serve` without `--api-only`). */
export function renderApiReference(document: Json): string {
  const byTag = new Map<string, string[]>();
  for (const tag of document.tags as Array<{ name: string; description?: string }>) {
    byTag.set(tag.name, [`## ${tag.name}`, '', ...(tag.description ? [tag.description, ''] : [])]);
  }
  for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(operations)) {
      const tag = op.tags?.[0] ?? 'Other';
      if (!byTag.has(tag)) byTag.set(tag, [`## ${tag}`, '']);
      byTag.get(tag)!.push(...operationSection(method, path, op));
    }
  }
  const body = [INTRO, ...errorsSection(document), ...limitsSection(document), ...[...byTag.values()].flat()].join('\n');
  return `${body.replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
