// decisions.md §4: every permission is `<group>.<action>`. Zod-free, so that the catalog (which
// start-up reads) can name each resource's group with its type.

export const PERMISSION_GROUPS = {
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

export type PermissionGroup = keyof typeof PERMISSION_GROUPS;

/** The actions of one group: `view | create | delete` for contact_fields. */
type ActionOf<G extends PermissionGroup> = (typeof PERMISSION_GROUPS)[G][number];

export type Permission = { [G in PermissionGroup]: `${G}.${ActionOf<G>}` }[PermissionGroup];

export const ALL_PERMISSIONS: Permission[] = (Object.keys(PERMISSION_GROUPS) as PermissionGroup[]).flatMap((group) =>
  PERMISSION_GROUPS[group].map((action: string) => `${group}.${action}` as Permission),
);

const KNOWN = new Set<string>(ALL_PERMISSIONS);

export const isPermission = (name: string): name is Permission => KNOWN.has(name);
