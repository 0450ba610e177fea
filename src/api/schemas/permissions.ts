import * as z from 'zod';
import { single, updated } from './common.js';

import { ALL_PERMISSIONS, isPermission, PERMISSION_GROUPS } from '../descriptions/permission-groups.js';

export { ALL_PERMISSIONS, type Permission } from '../descriptions/permission-groups.js';

/** What a list of permission names in a body is, for an agent and the document. */
export const PERMISSION_LIST = 'Permission names (from permissions.list), the whole list.';

export const permissionName = z
  .string()
  .refine(isPermission, { message: 'The selected permission is invalid.' })
  .meta({ enum: ALL_PERMISSIONS });

/** Groups a flat list the way GET /permissions answers: [{group: [names]}]. */
export function groupPermissions(names: Iterable<string>): Array<Record<string, string[]>> {
  const byGroup = new Map<string, string[]>();
  for (const group of Object.keys(PERMISSION_GROUPS)) byGroup.set(group, []);
  for (const name of names) byGroup.get(name.split('.')[0])?.push(name);
  return [...byGroup].filter(([, list]) => list.length > 0).map(([group, list]) => ({ [group]: list }));
}

export const permissionsListResponse = single(z.array(z.record(z.string(), z.array(z.string()))));

function distinct(list: string[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  list.forEach((name, index) => {
    if (seen.has(name)) ctx.addIssue({ code: 'custom', path: [index], message: 'The permission is a duplicate.' });
    seen.add(name);
  });
}

/**
 * What the published API states of the partner defaults: a non-empty list of distinct names. Which names
 * are valid is each server's own (the published API: "from the permissions listing"): the client checks
 * this shape and the server's listing, our server checks `partnerPermissionsBody`.
 */
export const partnerPermissionsShape = z.object({
  permissions: z.array(z.string().trim().min(1)).min(1).superRefine(distinct).meta({ uniqueItems: true }),
});

/** Our server's rule: the shape, with names from decisions.md §4. */
export const partnerPermissionsBody = z.object({
  permissions: z.array(permissionName).min(1).superRefine(distinct).meta({ uniqueItems: true }).describe(PERMISSION_LIST),
});
export const partnerPermissionsDefaults = single(z.object({ permissions: z.array(z.string()) }));
export const partnerPermissionsResponse = updated(z.object({ permissions: z.array(z.string()) }));
