// Which planned changes this server cannot carry out: deleting a group or a label and updating or
// deleting a role are extensions (decisions.md §6), absent from the published API. Asked before
// anything changes, without side effects (an extension read of the same resource), so that diff
// marks them and apply refuses the plan instead of failing half-way.
import type { WsmClient } from '../../api/client.js';
import type { z } from 'zod';
import type { CrudOperation, CrudResource } from '../../api/resources/crud.js';
import type { WorkspaceSection } from '../../api/schemas/index.js';
import type { Action, Observation, Plan } from './plan.js';
import { specOf } from './sections.js';

const OPERATIONS: Record<Action, CrudOperation[]> = {
  create: ['create'],
  update: ['update'],
  delete: ['delete'],
  replace: ['delete', 'create'],
  blocked: [],
};

/**
 * Sets `unsupported` on each change needing an operation the server lacks. Where the list itself
 * is an extension (labels), observing the section already asked it: no second read. Otherwise
 * one read per section at most.
 */
export async function markUnsupported(client: WsmClient, plan: Plan, observation: Observation): Promise<void> {
  const has = new Map<WorkspaceSection, boolean | undefined>();
  for (const [section, view] of Object.entries(observation) as [WorkspaceSection, NonNullable<Observation[WorkspaceSection]>][]) {
    if (await specOf(section).resource?.(client).isExtension('list')) has.set(section, view.complete);
  }
  for (const change of plan.changes) {
    const resource = specOf(change.section).resource?.(client);
    const extensions = resource === undefined ? [] : await extensionsOf(resource, OPERATIONS[change.action]);
    if (resource === undefined || extensions.length === 0) continue;
    if (!has.has(change.section)) has.set(change.section, await resource.hasExtensions(change.id));
    if (has.get(change.section) === false)
      change.unsupported = await Promise.all(extensions.map((operation) => resource.operationName(operation)));
  }
  await noteRolesMadeBare(client, plan, observation, has);
}

/**
 * A role the plan creates with permissions: the published API creates a role by its name alone,
 * and apply gives it the permissions by a role update where the server's create did not keep
 * them. On a server without that update the role may be made without them, which the plan says
 * (an existing role's id asks the server, as for the other changes); its create may still keep them.
 */
async function noteRolesMadeBare(
  client: WsmClient,
  plan: Plan,
  observation: Observation,
  has: Map<WorkspaceSection, boolean | undefined>,
): Promise<void> {
  const given = plan.changes.filter(
    (change) =>
      change.action === 'create' &&
      change.section === 'roles' &&
      ((change.entry as { permissions?: string[] }).permissions ?? []).length > 0,
  );
  const known = observation.roles?.items[0]?.id;
  if (given.length === 0 || known === undefined) return;
  if (!has.has('roles')) has.set('roles', await client.roles.hasExtensions(known));
  if (has.get('roles') !== false) return;
  const names = given.map((change) => change.key).join(', ');
  plan.notes.push(
    `roles ${names}: this server has no role update, and the published API creates a role by its name alone: unless its create keeps the permissions, ${given.length === 1 ? 'the role is' : 'the roles are'} made without them, and apply says so (exit 1)`,
  );
}

/** Those of `operations` that are extensions of `resource`. */
async function extensionsOf(resource: CrudResource<unknown, z.ZodType, z.ZodType>, operations: CrudOperation[]): Promise<CrudOperation[]> {
  const extension = await Promise.all(operations.map((operation) => resource.isExtension(operation)));
  return operations.filter((_, index) => extension[index]);
}

/** `updating a role (roles Agent), deleting a label (labels stray)`: what apply refuses, or undefined. */
export function unsupportedSummary(plan: Plan): string | undefined {
  const parts = plan.changes.filter((c) => c.unsupported).map((c) => `${c.unsupported!.join(' and ')} (${c.section} ${c.key})`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}
