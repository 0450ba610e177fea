/**
 * An import is run by the one worker that claimed it: the claim is taken and every
 * batch committed under a condition on this column, so a second worker (another connection, or
 * a second process before the database lock existed) can never run the same rows. NULL: free.
 */
export const sql = /* sql */ `
ALTER TABLE contact_imports ADD COLUMN claimed_by TEXT;
`;
