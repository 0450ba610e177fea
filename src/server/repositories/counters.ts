import type { Db } from '../db.js';

/** Reads the row counts kept by triggers (see migration 001): no COUNT(*) per page. */
export function createCounters(db: Db) {
  const read = db.prepare<[string, string], { count: number }>('SELECT count FROM counters WHERE workspace_id = ? AND resource = ?');
  return {
    count(workspaceId: string, resource: string): number {
      return read.get(workspaceId, resource)?.count ?? 0;
    },
  };
}
