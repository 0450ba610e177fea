/**
 * The contacts whose search keys hold a NUL. FTS5's trigram tokenizer skips a NUL character, so
 * the index finds `ana` in `a<NUL>na`, where the key holds no such substring: search checks these
 * few contacts against their keys (repositories/contact-search.ts), and this index finds them
 * without a scan. Search compares the same expression, which is what lets SQLite use it.
 */
export const NUL_KEYS = 'instr(name_key, char(0)) > 0 OR instr(email_key, char(0)) > 0';

export const sql = /* sql */ `
CREATE INDEX contacts_nul_keys ON contacts (workspace_id, id) WHERE ${NUL_KEYS};
`;
