/**
 * `users.manage` is new (decisions.md §7: another user's password, e-mail, status or role). What
 * held every permission before it holds it too: the Owner roles, workspaces with everything
 * enabled, and partner defaults that named everything (grants.ts). Nothing else gains it: a role
 * with only `users.update` is exactly what may no longer change others' passwords.
 */
import type { Db } from '../db.js';
import { grantAdded } from './grants.js';

export function run(db: Db): void {
  grantAdded(db, 6);
}
