/**
 * An import file may name contact groups by name (decisions.md §3, `contact_groups`); a group it
 * names that does not exist is created only when the user who uploaded the file held
 * `contact_groups.create` in that workspace. The worker runs outside any request, so the answer is
 * taken at upload and kept with the import: 1 may create, 0 may not.
 */
export const sql = /* sql */ `
ALTER TABLE contact_imports ADD COLUMN may_create_groups INTEGER NOT NULL DEFAULT 0;
`;
