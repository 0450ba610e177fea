/**
 * 1. The search index is no longer filled by a per-row INSERT trigger: a single
 *    create indexes its one row (repositories/contacts.ts) and an import indexes
 *    each committed batch in bulk inside the same transaction (imports/writer.ts),
 *    ~4x faster than a trigger firing once per row. Updates and deletes keep
 *    their triggers. The index is complete when this runs (the dropped trigger
 *    kept it), so nothing needs rebuilding.
 * 2. `counters` gains a per-workspace count of contact deletions. A new contact
 *    always gets an id above every existing one, so only a deletion moves the
 *    position of existing rows in `ORDER BY id`: the list's page checkpoints
 *    (repositories/contact-pages.ts) stay exact while this number is unchanged.
 */
export const sql = /* sql */ `
DROP TRIGGER IF EXISTS contacts_fts_ai;
CREATE TRIGGER contacts_deletions_ad AFTER DELETE ON contacts BEGIN
  INSERT INTO counters (workspace_id, resource, count) VALUES (old.workspace_id, 'contacts_deleted', 1)
    ON CONFLICT (workspace_id, resource) DO UPDATE SET count = count + 1;
END;
`;
