/**
 * Contacts for the search tests (key-scan, search-pages) and the rule they are checked against,
 * written out plainly: a contact matches when the query's folded key is inside one of its stored
 * keys, or a number-looking query's digits inside its number.
 */
import type { Db } from '../../src/server/db.js';
import { createImportWriter } from '../../src/server/imports/writer.js';
import { searchKey } from '../../src/server/repositories/search-key.js';

const NAMES = [
  'Ana Silva',
  'Bruno Okafor',
  'José Álvarez',
  'ÉLODIE Moreau',
  'straße Ïnes',
  'Zoë Ñúñez',
  'ΟΔΟΣ Θ',
  '😀 Emoji',
  'nul\u0000byte',
];
export const write = (i: number) => ({
  name: `${NAMES[i % NAMES.length]} ${i}`,
  email: i % 3 ? `user${i}@mail${i % 7}.example` : null,
  gender: null,
  status: true,
});
export const numberOf = (i: number) => String(3510000000 + i * 7919);

/** Contacts i = from..to-1 as an import writes them (above the search index's line). */
export function importRows(db: Db, workspaceId: string, from: number, to: number): void {
  const writer = createImportWriter(db);
  db.transaction(() => {
    writer.beginBatch();
    for (let i = from; i < to; i++)
      writer.write(
        workspaceId,
        { number: numberOf(i), name: write(i).name, ...(write(i).email ? { email: write(i).email! } : {}) },
        [],
        [],
      );
    writer.endBatch();
  })();
}

/** The ids (ascending) of the workspace's contacts each query finds, by the rule. */
export function scanIds(db: Db, workspaceId: string, queries: string[]): number[][] {
  const rows = db
    .prepare('SELECT id, name_key, number, email_key FROM contacts WHERE workspace_id = ? ORDER BY id')
    .raw()
    .all(workspaceId) as Array<[number, string, string, string | null]>;
  return queries.map((query) => {
    const key = searchKey(query);
    const digits = query
      .trim()
      .replace(/^\+/, '')
      .replace(/[\s\-.()]/g, '');
    const numberLike = /^\d+$/.test(digits) && !/[^\d\s\-.()+]/.test(query);
    return rows
      .filter(([, ...keys]) => keys.some((text) => text?.includes(key)) || (numberLike && keys[1]!.includes(digits)))
      .map(([id]) => id);
  });
}

export const scanCounts = (db: Db, workspaceId: string, queries: string[]): number[] =>
  scanIds(db, workspaceId, queries).map((ids) => ids.length);
