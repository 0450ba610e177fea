/**
 * Access promises beyond "the route's permission" (decisions.md §7, §8), in one place:
 * - a role only ever holds permissions its editor holds, and those the workspace enables;
 * - a role holding something its would-be editor lacks cannot be edited by it;
 * - role and status belong to the membership: in W they are changed by an owner of W, or by a
 *   holder of `users.manage` in W whose permissions there cover the member's (an owner of W only
 *   by another owner), whatever the member holds elsewhere; nobody changes their own;
 * - what belongs to the person (password, e-mail, name, time zone, avatar) is changed by someone
 *   else only when that authority holds in every workspace the person belongs to (the password
 *   opens all of them), and a partner's only by a partner; password and e-mail need `users.manage`;
 * - only an owner gives the built-in role, so that no one else can make an owner.
 */
import type { FastifyRequest } from 'fastify';
import type { FieldErrors, Role } from '../../api/schemas/index.js';
import type { Repositories } from '../repositories/index.js';
import type { Membership } from '../repositories/workspaces.js';
import { forbidden, invalidField, validationFailed } from './errors.js';

const MEMBERSHIP_FIELDS = ['role_id', 'status'] as const;
const PERSON_FIELDS = ['password', 'email', 'name', 'timezone', 'client', 'avatar'] as const;
/** Of the person's fields, those that open the account: only `users.manage` changes them on someone else. */
const ACCOUNT_FIELDS = ['password', 'email'] as const;
/** What a user update may change: the membership's fields, and the person's. */
export type UserChanges = Partial<Record<(typeof MEMBERSHIP_FIELDS)[number] | (typeof PERSON_FIELDS)[number], unknown>>;

/** Why a change is refused: the 403's message, so that the user learns what stands in the way. */
export const REFUSALS = {
  manage: "Changing another user's password, e-mail, status or role needs the users.manage permission.",
  outranks: 'This user holds permissions in this workspace that you do not.',
  owner: 'This user is an owner of this workspace: only an owner can change them.',
  elsewhere: 'This user also belongs to a workspace you do not manage.',
  partner: 'This user is a partner: only a partner can change their account.',
};

/** What `names` hold that `held` does not, in their order. */
const lacking = (names: string[], held: string[]) => {
  const have = new Set(held);
  return names.filter((name) => !have.has(name));
};

/**
 * Why the holder of `mine` may not change the member `theirs` of the same workspace (undefined: it
 * may). An owner may change anyone else; a manager needs `users.manage` (when asked) and
 * permissions covering the member's, and never reaches an owner. An inactive membership is no authority.
 */
function refusalIn(mine: Membership | undefined, theirs: Membership, needsManage: boolean): string | undefined {
  if (!mine?.active) return REFUSALS.elsewhere;
  if (mine.owner) return undefined;
  if (needsManage && !mine.permissions.includes('users.manage')) return REFUSALS.manage;
  if (theirs.owner) return REFUSALS.owner;
  if (lacking(theirs.permissions, mine.permissions).length > 0) return REFUSALS.outranks;
  return undefined;
}

const touches = (changes: UserChanges, fields: readonly string[]) =>
  fields.some((field) => changes[field as keyof UserChanges] !== undefined);

export type AccessRules = ReturnType<typeof createAccessRules>;

export function createAccessRules({ users, workspaces }: Pick<Repositories, 'users' | 'workspaces'>) {
  /** The permissions a role's list actually grants in a workspace (the rest is inert). */
  const effective = (workspaceId: string, permissions: string[]) => {
    const enabled = new Set(workspaces.enabledPermissions(workspaceId));
    return permissions.filter((permission) => enabled.has(permission));
  };

  /** Why the caller may not change what belongs to the person `targetId`, wherever it is a member. */
  function personRefusal(request: FastifyRequest, targetId: number, needsManage: boolean): string | undefined {
    if (users.findById(targetId)?.partner === 1 && request.user.partner !== 1) return REFUSALS.partner;
    // This workspace first, so that the reason named is the one the caller can see.
    const theirs = workspaces
      .membershipsOf(targetId)
      .sort((a, b) => Number(b.workspace_id === request.workspaceId) - Number(a.workspace_id === request.workspaceId));
    for (const membership of theirs) {
      const here = membership.workspace_id === request.workspaceId;
      const refusal = refusalIn(
        here ? request.membership : workspaces.membership(membership.workspace_id, request.user.id),
        membership,
        needsManage,
      );
      if (refusal) return here ? refusal : REFUSALS.elsewhere;
    }
    return undefined;
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

    /** Editing a role that grants what the caller lacks: a 403. */
    assertEditableRole(request: FastifyRequest, rolePermissions: string[]): void {
      if (lacking(effective(request.workspaceId, rolePermissions), request.membership.permissions).length > 0) throw forbidden();
    },

    /** Giving a role (on create or update) whose grants the caller lacks, or the built-in role by a non-owner: a 422 on role_id. */
    assertAssignableRole(request: FastifyRequest, role: Role): void {
      if (role.builtin && !request.membership.owner)
        throw invalidField('role_id', `Only an owner of this workspace can give the ${role.name} role.`);
      const missing = lacking(effective(request.workspaceId, role.permissions), request.membership.permissions);
      if (missing.length > 0) throw invalidField('role_id', `The role holds permissions you do not have: ${missing.join(', ')}.`);
    },

    /** The checks of a user update that depend on who is changed (`target`, its membership here), and what. */
    assertMayUpdateUser(request: FastifyRequest, target: Membership, changes: UserChanges): void {
      if (target.user_id === request.user.id) {
        if (changes.role_id !== undefined && changes.role_id !== target.role_id)
          throw invalidField('role_id', 'You cannot change your own role.');
        if (changes.status !== undefined && changes.status !== target.active)
          throw invalidField('status', 'You cannot change your own status.');
        return;
      }
      const account = touches(changes, ACCOUNT_FIELDS);
      const mine = request.membership;
      if ((account || touches(changes, MEMBERSHIP_FIELDS)) && !mine.owner && !mine.permissions.includes('users.manage'))
        throw forbidden(REFUSALS.manage);
      const refusal =
        (touches(changes, MEMBERSHIP_FIELDS) ? refusalIn(mine, target, true) : undefined) ??
        (touches(changes, PERSON_FIELDS) ? personRefusal(request, target.user_id, account) : undefined);
      if (refusal) throw forbidden(refusal);
    },
  };
}
