/**
 * Search (decisions.md §3): case-insensitive substrings of name, number and
 * email, with the results a LIKE scan gives, read through the trigram index.
 *
 * - Pages walk the index in rowid (= id) order and stop after the page.
 * - The total is counted from the index alone (no row is read) when the
 *   workspace holds every contact, which is the common local case; otherwise
 *   each match is checked against the workspace.
 * - The trigram index folds case beyond ASCII while LIKE folds ASCII only, so
 *   a query with a non-ASCII character also checks each match with LIKE.
 * - Queries under 3 characters (no trigram) scan with LIKE.
 * - A total is kept per (workspace, query) until the database changes: walking every page of a
 *   search (`--all`) counted the whole match on each page, 50-70 ms a page at 100k matches.
 */
import type { Db } from '../db.js';

/** The trigram index needs at least 3 characters; shorter queries scan with LIKE. */
const FTS_MIN_CHARS = 3;

/** `%`, `_` and the escape character itself are literal in a search. */
export const likePattern = (query: string) => `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** An FTS5 string: the query as one phrase, so no character of it is FTS syntax. */
const ftsPhrase = (query: string) => `"${query.replaceAll('"', '""')}"`;
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/** Totals kept at most: a walk needs one; this bounds memory against many distinct queries. */
const KEPT_TOTALS = 256;

export function createContactSearch(db: Db) {
  // What identifies the database's content: `total_changes()` moves with this connection's own
  // writes (any table), `data_version` with every other connection's commits.
  const changes = db.prepare<[], number>('SELECT total_changes()').pluck();
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const totals = new Map<string, { version: string; total: number }>();
  const keptTotal = (workspaceId: string, query: string, count: () => number): number => {
    const key = `${workspaceId}\0${query}`;
    const version = `${dataVersion.get()}:${changes.get()}`;
    const kept = totals.get(key);
    if (kept?.version === version) return kept.total;
    const total = count();
    totals.delete(key);
    totals.set(key, { version, total });
    if (totals.size > KEPT_TOTALS) totals.delete(totals.keys().next().value!);
    return total;
  };

  const likeWhere = `c.workspace_id = @ws AND (c.name LIKE @pattern ESCAPE '\\' OR c.number LIKE @pattern ESCAPE '\\' OR c.email LIKE @pattern ESCAPE '\\')`;
  const likePage = db
    .prepare<[{ ws: string; pattern: string; limit: number; offset: number }], number>(
      `SELECT c.id FROM contacts c WHERE ${likeWhere} ORDER BY c.id LIMIT @limit OFFSET @offset`,
    )
    .pluck();
  const likeCount = db.prepare<[{ ws: string; pattern: string }], number>(`SELECT count(*) FROM contacts c WHERE ${likeWhere}`).pluck();

  // Whole table == this workspace: the index alone answers.
  const workspaceCount = db.prepare<[string], number>("SELECT count FROM counters WHERE workspace_id = ? AND resource = 'contacts'").pluck();
  const allCount = db.prepare<[], number | null>("SELECT sum(count) FROM counters WHERE resource = 'contacts'").pluck();
  const indexIds = db
    .prepare<[{ match: string; limit: number; offset: number }], number>(
      'SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH @match ORDER BY rowid LIMIT @limit OFFSET @offset',
    )
    .pluck();
  const indexCount = db.prepare<[{ match: string }], number>('SELECT count(*) FROM contacts_fts WHERE contacts_fts MATCH @match').pluck();

  // Any workspace mix, and the LIKE check for non-ASCII queries (@pattern null: no check).
  const joined = `contacts_fts f JOIN contacts c ON c.id = f.rowid WHERE contacts_fts MATCH @match AND c.workspace_id = @ws
    AND (@pattern IS NULL OR c.name LIKE @pattern ESCAPE '\\' OR c.number LIKE @pattern ESCAPE '\\' OR c.email LIKE @pattern ESCAPE '\\')`;
  const joinedPage = db
    .prepare<[{ ws: string; match: string; pattern: string | null; limit: number; offset: number }], number>(
      `SELECT c.id FROM ${joined} ORDER BY f.rowid LIMIT @limit OFFSET @offset`,
    )
    .pluck();
  const joinedCount = db
    .prepare<[{ ws: string; match: string; pattern: string | null }], number>(`SELECT count(*) FROM ${joined}`)
    .pluck();

  const search = db.transaction((workspaceId: string, query: string, offset: number, limit: number): { ids: number[]; total: number } => {
    if ([...query].length < FTS_MIN_CHARS) {
      const pattern = likePattern(query);
      return { ids: likePage.all({ ws: workspaceId, pattern, limit, offset }), total: keptTotal(workspaceId, query, () => likeCount.get({ ws: workspaceId, pattern })!) };
    }
    const match = ftsPhrase(query);
    const ascii = ASCII.test(query);
    const mine = workspaceCount.get(workspaceId) ?? 0;
    if (mine === 0) return { ids: [], total: 0 };
    if (ascii && mine === (allCount.get() ?? 0)) {
      return { ids: indexIds.all({ match, limit, offset }), total: keptTotal(workspaceId, query, () => indexCount.get({ match })!) };
    }
    const params = { ws: workspaceId, match, pattern: ascii ? null : likePattern(query) };
    return { ids: joinedPage.all({ ...params, limit, offset }), total: keptTotal(workspaceId, query, () => joinedCount.get(params)!) };
  });

  return { search };
}
