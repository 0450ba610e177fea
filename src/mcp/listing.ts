// The `tools/list` answer, made here rather than by the SDK: the same zod schemas as JSON Schema,
// leaner (no ±2^53-1 bounds that every integer carried, no pattern beside a format, no `$schema`), each argument
// described by its zod field (src/api/schemas, or the tool's own argument), and output schemas only where a tool declares
// one. The SDK's own listing was 82,777 bytes for 45 tools, more than half of it output schemas.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { VISIBLE_PATTERN } from '../api/schemas/common.js';
import type { ToolSpec } from './tool.js';

type Json = Record<string, unknown>;
const SAFE = Number.MAX_SAFE_INTEGER;
const QUIET_PATTERNS = new Set([VISIBLE_PATTERN, '^[^/?#]+$']);

/** The schema without what costs bytes and tells nothing (recursively). */
function leaner(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(leaner);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if ((key === 'minimum' && value === -SAFE) || (key === 'maximum' && value === SAFE)) continue;
    // A format says it (uuid, email); the not-blank and no-slash patterns restate minLength and an id.
    if (key === 'pattern' && ((node as Json).format !== undefined || QUIET_PATTERNS.has(value as string))) continue;
    if (key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') continue;
    if (key === 'additionalProperties' && typeof value === 'object' && value !== null && Object.keys(value).length === 0) continue;
    out[key] = leaner(value);
  }
  // An id given as a number or a string: one type list rather than two schemas.
  if (JSON.stringify(out.anyOf) === '[{"type":"integer","exclusiveMinimum":0},{"type":"string"}]') {
    delete out.anyOf;
    return { type: ['integer', 'string'], ...out };
  }
  return out;
}

/** Unknown arguments are refused when the call is checked, so `additionalProperties: false` is not repeated. */
function withoutAdditional(schema: Json): Json {
  delete schema.additionalProperties;
  return schema;
}

/** The hints, leaving out a false readOnlyHint or idempotentHint (their defaults); destructiveHint and openWorldHint default to true. */
function annotationsOf(tool: ToolSpec): Tool['annotations'] {
  const { readOnly, destructive, idempotent } = tool.hints;
  return {
    ...(readOnly ? { readOnlyHint: true } : { destructiveHint: destructive }),
    ...(idempotent ? { idempotentHint: true } : {}),
    openWorldHint: false,
  };
}

export function toolListing(tools: readonly ToolSpec[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: withoutAdditional(
      leaner(toJsonSchemaCompat(tool.input, { strictUnions: true, pipeStrategy: 'input' })) as Json,
    ) as Tool['inputSchema'],
    ...(tool.output !== undefined
      ? { outputSchema: leaner(toJsonSchemaCompat(tool.output, { strictUnions: true, pipeStrategy: 'output' })) as Tool['outputSchema'] }
      : {}),
    annotations: annotationsOf(tool),
  }));
}
