import * as z from 'zod';
import { listOf, nonEmptyName, paginationQuery, timestamps } from './common.js';
import { PERMISSION_LIST, permissionName } from './permissions.js';

export const roleRecord = z.object({
  id: z.number().int(),
  workspace_id: z.uuid(),
  name: z.string(),
  permissions: z.array(z.string()),
  /** Extension (decisions.md §8): the workspace's own role (its owner's), which cannot be renamed, re-permissioned or deleted. */
  builtin: z.boolean().optional().describe('Extension: a built-in role (the Owner role) cannot be renamed, re-permissioned or deleted.'),
  ...timestamps,
});
export type Role = z.infer<typeof roleRecord>;

const permissions = listOf(permissionName).describe(PERMISSION_LIST);

export const roleCreateBody = z.object({
  name: nonEmptyName(255).describe('Name of the new role.'),
  /** Extension: a role can be created with its permissions. */
  permissions: permissions.optional(),
});

/** Extension: PUT /roles/{id} sets the name and/or the permissions. */
export const roleUpdateBody = z
  .object({ name: nonEmptyName(255).optional().describe('New name of the role.'), permissions: permissions.optional() })
  .superRefine((body, ctx) => {
    if (body.name === undefined && body.permissions === undefined) {
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'The name field is required when permissions is not present.' });
    }
  })
  .meta({ anyOf: [{ required: ['name'] }, { required: ['permissions'] }] });
export type RoleUpdateBody = z.infer<typeof roleUpdateBody>;

export const roleListQuery = paginationQuery;
