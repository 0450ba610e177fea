/**
 * Access promises beyond "the route's permission" (decisions.md §7), in one place:
 * - a role only ever holds permissions its editor holds, and those the workspace enables;
 * - a role holding something its would-be editor lacks cannot be edited by it;
 * - another user's password, e-mail, status or role needs `users.manage`;
 * - nobody changes their own role;
 * - a user holding permissions the caller lacks, in any workspace (the password and e-mail
 *   open all of them), or a partner when the caller is not one, is out of the caller's reach.
 */
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db.js';
import type { FieldErrors } from '../../api/schemas/index.js';
import { createUsersRepository } from '../repositories/users.js';
import { createWorkspacesRepository } from '../repositories/workspaces.js';
import { forbidden, invalidField, validationFailed } from './errors.js';

/** What a user update changes that only `users.manage` may change on someone else. */
const MANAGED_FIELDS = ['password', 'email', 'status', 'role_id'] as const;

export function createAccessRules(db: Db) {
  const users = createUsersRepository(db);
  const workspaces = createWorkspacesRepository(db);

  /** What `names` hold that `held` does not, in their order. */
  const lacking = (names: string[], held: string[]) => {
    const have = new Set(held);
    return names.filter((name) => !have.has(name));
  };
  /** The permissions a role's list actually grants in a workspace (the rest is inert). */
  const effective = (workspaceId: string, permissions: string[]) => {
    const enabled = new Set(workspaces.enabledPermissions(workspaceId));
    return permissions.filter((permission) => enabled.has(permission));
  };

  /** Does `targetId` hold anything the caller lacks, anywhere, or is it a partner and the caller not? */
  function outranks(targetId: number, caller: FastifyRequest['user']): boolean {
    if (targetId === caller.id) return false;
    const target = users.findById(targetId);
    if (!target) return false;
    if (target.partner === 1 && caller.partner !== 1) return true;
    return workspaces.membershipsOf(targetId).some((theirs) => {
      const mine = workspaces.membership(theirs.workspace_id, caller.id);
      return lacking(theirs.permissions, mine?.permissions ?? []).length > 0;
    });
  }

  return {
    /** A role create or update may only list permissions enabled here that the caller holds: 422 by index. */
    assertGrantable(request: FastifyRequest, permissions: string[]): void {
      const enabled = new Set(workspaces.enabledPermissions(request.workspaceId));
      const held = new Set(request.membership.permissions);
      const errors: FieldErrors = {};
      permissions.forEach((permission, index) => {
        if (!enabled.has(permission)) errors[`permissions.${index}`] = [`The permission ${permission} is not enabled in this workspace.`];
        else if (!held.has(permission)) errors[`permissions.${index}`] = [`You cannot grant ${permission}: you do not hold it.`];
      });
      if (Object.keys(errors).length > 0) throw validationFailed(errors);
    },

    /** Editing a role that grants what the caller lacks (the Owner role, say) is a 403. */
    assertEditableRole(request: FastifyRequest, rolePermissions: string[]): void {
      if (lacking(effective(request.workspaceId, rolePermissions), request.membership.permissions).length > 0) throw forbidden();
    },

    /** Giving a role (on create or update) whose grants the caller lacks: a 422 on role_id. */
    assertAssignableRole(request: FastifyRequest, rolePermissions: string[]): void {
      const missing = lacking(effective(request.workspaceId, rolePermissions), request.membership.permissions);
      if (missing.length > 0) throw invalidField('role_id', `The role holds permissions you do not have: ${missing.join(', ')}.`);
    },

    /** The checks of a user update that depend on who is changed, and what. */
    assertMayUpdateUser(request: FastifyRequest, targetId: number, changes: Partial<Record<(typeof MANAGED_FIELDS)[number], unknown>>, currentRoleId: number | null): void {
      const self = targetId === request.user.id;
      if (!self) {
        const managed = MANAGED_FIELDS.some((field) => changes[field] !== undefined);
        if (managed && !request.membership.permissions.includes('users.manage')) throw forbidden();
        if (outranks(targetId, request.user)) throw forbidden();
      } else if (changes.role_id !== undefined && changes.role_id !== currentRoleId) {
        throw invalidField('role_id', 'You cannot change your own role.');
      }
    },
  };
}
