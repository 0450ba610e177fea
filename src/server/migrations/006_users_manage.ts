/**
 * `users.manage` is new (decisions.md §7: another user's password, e-mail, status or role). What
 * held every permission before it holds it too: the Owner roles, workspaces with everything
 * enabled, and partner defaults that named everything. Nothing else gains it: a role with only
 * `users.update` is exactly what may no longer change others' passwords.
 */
import type { Db } from '../db.js';

/** The whole list as it was before this migration (decisions.md §4). */
const BEFORE = [
  'workspace.view', 'workspace.update',
  'contacts.view', 'contacts.create', 'contacts.update', 'contacts.delete',
  'contact_groups.view', 'contact_groups.create', 'contact_groups.update', 'contact_groups.delete',
  'contact_fields.view', 'contact_fields.create', 'contact_fields.delete',
  'contact_imports.view', 'contact_imports.create', 'contact_imports.delete',
  'labels.view', 'labels.create', 'labels.update', 'labels.delete',
  'roles.view', 'roles.create', 'roles.update', 'roles.delete',
  'users.view', 'users.create', 'users.update',
  'templates.view', 'templates.create', 'templates.delete', 'templates.sync',
  'permissions.view', 'permissions.manage',
];

export function run(db: Db): void {
  const holdsAll = (column: string) => `(SELECT count(DISTINCT value) FROM json_each(${column}) WHERE value IN (SELECT value FROM json_each(@before))) = @count
    AND NOT EXISTS (SELECT 1 FROM json_each(${column}) WHERE value = 'users.manage')`;
  const params = { before: JSON.stringify(BEFORE), count: BEFORE.length };
  // json_insert with '$[#]' appends to the array.
  db.prepare(`UPDATE roles SET permissions = json_insert(permissions, '$[#]', 'users.manage') WHERE ${holdsAll('roles.permissions')}`).run(params);
  db.prepare(`UPDATE workspaces SET permissions = json_insert(permissions, '$[#]', 'users.manage') WHERE ${holdsAll('workspaces.permissions')}`).run(params);
  db.prepare(
    `UPDATE users SET partner_permissions = json_insert(partner_permissions, '$[#]', 'users.manage')
      WHERE partner_permissions IS NOT NULL AND ${holdsAll('users.partner_permissions')}`,
  ).run(params);
}
