/**
 * Tokens issued by POST /auth/tokens expire (decisions.md §7): `expires_at` (ISO 8601 UTC, which
 * compares as text); NULL for the server's own admin token, which `wsm serve` keeps in the
 * `local` profile across restarts.
 */
export const sql = /* sql */ `
ALTER TABLE tokens ADD COLUMN expires_at TEXT;
CREATE INDEX tokens_user ON tokens (user_id);
`;
