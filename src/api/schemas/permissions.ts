import * as z from 'zod';
import { single, updated } from './common.js';

/** decisions.md §4: every permission is `<group>.<action>`. */
const PERMISSION_GROUPS = {
  workspace: ['view', 'update'],
  contacts: ['view', 'create', 'update', 'delete'],
  contact_groups: ['view', 'create', 'update', 'delete'],
  contact_fields: ['view', 'create', 'delete'],
  contact_imports: ['view', 'create', 'delete'],
  labels: ['view', 'create', 'update', 'delete'],
  roles: ['view', 'create', 'update', 'delete'],
  // users.manage (decisions.md §7): another user's password, e-mail, status or role.
  users: ['view', 'create', 'update', 'manage'],
  templates: ['view', 'create', 'delete', 'sync'],
  permissions: ['view', 'manage'],
} as const;

type PermissionGroup = keyof typeof PERMISSION_GROUPS;
export type Permission = {
  [G in PermissionGroup]: `${G}.${(typeof PERMISSION_GROUPS)[G][number]}`;
}[PermissionGroup];

export const ALL_PERMISSIONS = Object.entries(PERMISSION_GROUPS).flatMap(([group, actions]) =>
  actions.map((action) => `${group}.${action}`),
) as Permission[];

const KNOWN = new Set<string>(ALL_PERMISSIONS);
const isPermission = (name: string): name is Permission => KNOWN.has(name);

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
 * What api.md states of the partner defaults: a non-empty list of distinct names. Which names
 * are valid is each server's own (api.md: "from the permissions listing"): the client checks
 * this shape and the server's listing, our server checks `partnerPermissionsBody`.
 */
export const partnerPermissionsShape = z.object({ permissions: z.array(z.string().trim().min(1)).min(1).superRefine(distinct) });

/** Our server's rule: the shape, with names from decisions.md §4. */
export const partnerPermissionsBody = z.object({ permissions: z.array(permissionName).min(1).superRefine(distinct) });
export const partnerPermissionsDefaults = single(z.object({ permissions: z.array(z.string()) }));
export const partnerPermissionsResponse = updated(z.object({ permissions: z.array(z.string()) }));
