/**
 * Authority follows the membership (decisions.md §8).
 * - Status belongs to the membership in a workspace, not to the person: each membership takes the
 *   status its user had, and the person's column goes, so that nothing reads two answers.
 * - The role a workspace is created with (its owner's) is built in: it cannot be renamed,
 *   re-permissioned or deleted. It is the first role of its workspace, made in the same
 *   transaction as the workspace, hence with the same timestamp (repositories/workspaces.ts).
 */
export const sql = /* sql */ `
ALTER TABLE memberships ADD COLUMN status INTEGER NOT NULL DEFAULT 1;
UPDATE memberships SET status = (SELECT users.status FROM users WHERE users.id = memberships.user_id);
ALTER TABLE users DROP COLUMN status;
CREATE INDEX memberships_user ON memberships (user_id, status);

ALTER TABLE roles ADD COLUMN builtin INTEGER NOT NULL DEFAULT 0;
UPDATE roles SET builtin = 1 WHERE id IN (
  SELECT min(r.id) FROM roles r JOIN workspaces w ON w.id = r.workspace_id
   WHERE r.created_at = w.created_at GROUP BY r.workspace_id
);
`;
