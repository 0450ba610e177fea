/**
 * New permissions go to what held every permission before them (decisions.md §4, §8): the built-in
 * Owner roles, workspaces with everything enabled, and partner defaults that named everything;
 * nothing else gains them. ADDED says which migration brought which permissions, so "everything
 * before" is never copied by hand: a migration that adds permissions (a new resource's group) gets
 * its line here and calls `grantAdded(db, <its version>)`. test/server/grants-migration.test.ts
 * fails when ALL_PERMISSIONS holds a permission no line brings, or an upgraded Owner lacks one.
 */
import type { Db } from '../db.js';

/** The permissions each migration version added, in order. */
export const ADDED: Readonly<Record<number, readonly string[]>> = {
  1: [
    'workspace.view',
    'workspace.update',
    'contacts.view',
    'contacts.create',
    'contacts.update',
    'contacts.delete',
    'contact_groups.view',
    'contact_groups.create',
    'contact_groups.update',
    'contact_groups.delete',
    'contact_fields.view',
    'contact_fields.create',
    'contact_fields.delete',
    'contact_imports.view',
    'contact_imports.create',
    'contact_imports.delete',
    'labels.view',
    'labels.create',
    'labels.update',
    'labels.delete',
    'roles.view',
    'roles.create',
    'roles.update',
    'roles.delete',
    'users.view',
    'users.create',
    'users.update',
    'templates.view',
    'templates.create',
    'templates.delete',
    'templates.sync',
    'permissions.view',
    'permissions.manage',
  ],
  6: ['users.manage'],
};

/** Every permission the migrations before `version` had added: "everything" as of then. */
export function permissionsBefore(version: number): string[] {
  return Object.entries(ADDED).flatMap(([added, names]) => (Number(added) < version ? names : []));
}

/** Gives what held every permission before `version` the permissions that version adds. */
export function grantAdded(db: Db, version: number): void {
  const added = ADDED[version];
  if (!added) throw new Error(`migration ${version} adds no permissions (migrations/grants.ts ADDED)`);
  const before = permissionsBefore(version);
  const params = { before: JSON.stringify(before), count: before.length, added: JSON.stringify(added) };
  // Held all of `before`; and gains each added name it lacks, appended in order.
  const holdsAll = (column: string) =>
    `(SELECT count(DISTINCT value) FROM json_each(${column}) WHERE value IN (SELECT value FROM json_each(@before))) = @count`;
  const grant = (column: string) =>
    `(SELECT json_group_array(value) FROM (SELECT value FROM json_each(${column}) UNION ALL
       SELECT value FROM json_each(@added) WHERE value NOT IN (SELECT value FROM json_each(${column}))))`;
  db.prepare(`UPDATE roles SET permissions = ${grant('roles.permissions')} WHERE ${holdsAll('roles.permissions')}`).run(params);
  db.prepare(`UPDATE workspaces SET permissions = ${grant('workspaces.permissions')} WHERE ${holdsAll('workspaces.permissions')}`).run(
    params,
  );
  db.prepare(
    `UPDATE users SET partner_permissions = ${grant('users.partner_permissions')} WHERE partner_permissions IS NOT NULL AND ${holdsAll('users.partner_permissions')}`,
  ).run(params);
}
