// The workspace itself, its permissions, and the partner defaults for new workspaces.
import { isJsonObject, permissionName, requireRecord, written, type Written } from '../answers.js';
import { APIStatusError, AuthenticationError, UnusableResponseError } from '../errors.js';
import { encodePath } from '../request-parts.js';
import type { Single, Workspace } from '../schemas/index.js';
import { callOperation, checkBody, describedOperation, type CallOptions, type ResourceContext } from './base.js';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
/** A probe is a diagnosis, never worth the user's whole request timeout. */
const PROBE_TIMEOUT_MS = 5_000;

export class WorkspacesResource {
  constructor(private readonly ctx: ResourceContext) {}

  async get(options?: CallOptions): Promise<Single<Workspace>> {
    const body = await callOperation(this.ctx, await describedOperation('workspaces', 'get'), {}, options);
    return { data: requireRecord<Workspace>(body, 'getting the workspace') };
  }

  /**
   * Whether the base URL answers like the Workspace Messaging API: the published API has every endpoint answer
   * a request without a token with 401, so GET /workspaces/{workspace} without one does, whatever
   * the workspace; a router with no such route answers 404 (or a web page 200) instead. Undefined
   * when the server cannot be asked (down, too slow). Costs one request: only ever asked after a
   * request failed in a way a wrong base URL would explain, on a client without a token that
   * never retries (cli/base-url-check.ts probeWith).
   */
  async answersLikeApi(workspace = NIL_UUID, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean | undefined> {
    try {
      await this.ctx.transport.request({ method: 'GET', path: encodePath`/workspaces/${workspace}`, timeoutMs });
      return false;
    } catch (error) {
      if (error instanceof AuthenticationError) return true;
      return error instanceof APIStatusError ? false : undefined;
    }
  }

  /** Extension: POST /workspaces; the caller becomes its owner. */
  async create(name: string, options?: CallOptions): Promise<Written<Workspace>> {
    const operation = await describedOperation('workspaces', 'create');
    const json = checkBody(operation.body!, { name }, 'workspace');
    return written<Workspace>(await callOperation(this.ctx, operation, { json }, options));
  }
}

/** One permission as listed: its group (the key it was listed under; empty when none) and name. */
export interface PermissionEntry {
  group: string;
  name: string;
}

export class PermissionsResource {
  constructor(private readonly ctx: ResourceContext) {}

  /**
   * GET /workspaces/{ws}/permissions, one entry a permission. The published API shows `{data: [{<group>:
   * [...]}]}` and leaves the element type open: names or objects with a `name` are both read, and
   * so is a flat list of them.
   */
  async list(options?: CallOptions): Promise<PermissionEntry[]> {
    const body = await callOperation(this.ctx, await describedOperation('permissions', 'list'), {}, options);
    const data = isJsonObject(body) ? body.data : undefined;
    const groups = Array.isArray(data) ? data : isJsonObject(data) ? [data] : undefined;
    if (groups === undefined) throw new UnusableResponseError("the server's answer to listing permissions has no `data` list");
    return groups.flatMap((entry): PermissionEntry[] => {
      const alone = permissionName(entry);
      if (alone !== undefined && !Object.values(entry as object).some(Array.isArray))
        return [{ group: alone.split('.')[0] ?? '', name: alone }];
      if (!isJsonObject(entry)) return [];
      return Object.entries(entry).flatMap(([group, names]) =>
        (Array.isArray(names) ? names : [])
          .map(permissionName)
          .filter((name): name is string => name !== undefined)
          .map((name) => ({ group, name })),
      );
    });
  }

  /**
   * Replaces the permissions given to partner workspaces created later (not workspace-scoped).
   * Only the list's shape is checked here: which names are valid is the server's to say.
   */
  async setPartnerDefaults(permissions: string[], options?: CallOptions): Promise<Written<{ permissions?: unknown }>> {
    // Our server's body schema also holds the names to decisions.md §4; another server's names are its own.
    const { partnerPermissionsShape } = await import('../schemas/permissions.js');
    const json = checkBody(partnerPermissionsShape, { permissions }, 'permission list');
    // Setting the same list twice gives the same defaults: safe to retry.
    return written(
      await callOperation(this.ctx, await describedOperation('permissions', 'setPartnerDefaults'), { json, idempotent: true }, options),
    );
  }
}
