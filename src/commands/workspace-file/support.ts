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
