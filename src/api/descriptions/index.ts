/**
 * Every resource of the API, described once: the client's resource classes, the command
 * declarations (`--json` fields, completion values, status sentences, summaries), the server's
 * route table and OpenAPI document, and the MCP tools all derive from these. Imports zod (the
 * schemas), never undici, fastify or SQLite; `wsm --help` does not load it (catalog.ts is what
 * start-up reads). test/api/descriptions.test.ts walks every operation and fails where a client
 * method, a command, a route, an OpenAPI operation or a record-field list is missing.
 */
import { descriptionOf, RESOURCE_KEYS, type ResourceKey } from './catalog.js';
import type { OperationDescription, ResourceDescription } from './types.js';

export type { HttpMethod, OperationDescription, ResourceDescription } from './types.js';
export { CATALOG, type ResourceIdentity, type ResourceKey } from './catalog.js';

/**
 * Every description at once, for what reads them all (the server's routes, the OpenAPI document,
 * the MCP tools, completion). The client loads only the ones it uses (`descriptionOf`).
 */
export const DESCRIPTIONS = Object.fromEntries(
  await Promise.all(RESOURCE_KEYS.map(async (key) => [key, await descriptionOf(key)])),
) as Readonly<Record<ResourceKey, ResourceDescription>>;

/** Every operation of every resource, in the order above. */
export const OPERATIONS: readonly OperationDescription[] = Object.values(DESCRIPTIONS).flatMap((d: ResourceDescription) =>
  Object.values(d.operations),
);

/** `GET /workspaces/{}/labels/{}`: a method and a path with every parameter as `{}`, whatever its name or form (`{label}`, `:label`). */
const operationKey = (method: string, path: string): string => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}|:[^/]+/g, '{}')}`;

const byKey = new Map(OPERATIONS.map((operation) => [operationKey(operation.method, operation.path), operation]));

/** The operation of a method and a path under /api/v3 (parameters as `{name}` or `:name`). */
export function findOperation(method: string, path: string): OperationDescription | undefined {
  return byKey.get(operationKey(method, path));
}
