// The workspace itself, its permissions, and the partner defaults for new workspaces.
import {
  partnerPermissionsBody,
  workspaceCreateBody,
  type Created,
  type Single,
  type Updated,
  type Workspace,
} from '../schemas/index.js';
import { checkBody, extension, workspacePath, type ResourceContext } from './base.js';

export class WorkspacesResource {
  constructor(private readonly ctx: ResourceContext) {}

  async get(): Promise<Single<Workspace>> {
    return this.ctx.transport.request({ method: 'GET', path: workspacePath(this.ctx) });
  }

  /** Extension: POST /workspaces; the caller becomes its owner. */
  async create(name: string): Promise<Created<Workspace>> {
    const json = checkBody(workspaceCreateBody, { name }, 'workspace');
    return extension('creating workspaces', () => this.ctx.transport.request({ method: 'POST', path: '/workspaces', json }));
  }
}

/** `{data: [{<group>: [permission, ...]}, ...]}` as api.md shows it. */
export type PermissionGroups = Array<Record<string, string[]>>;

export class PermissionsResource {
  constructor(private readonly ctx: ResourceContext) {}

  async list(): Promise<Single<PermissionGroups>> {
    return this.ctx.transport.request({ method: 'GET', path: workspacePath(this.ctx, '/permissions') });
  }

  /** Replaces the permissions given to partner workspaces created later (not workspace-scoped). */
  async setPartnerDefaults(permissions: string[]): Promise<Updated<{ permissions: string[] }>> {
    const json = checkBody(partnerPermissionsBody, { permissions }, 'permission list');
    // Setting the same list twice gives the same defaults: safe to retry.
    return this.ctx.transport.request({ method: 'PATCH', path: '/workspaces/partner/permissions', json, idempotent: true });
  }
}
