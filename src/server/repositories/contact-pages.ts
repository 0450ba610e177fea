/**
 * Exact deep pages without large OFFSET scans (decisions.md §2: order by id).
 *
 * Per workspace, the id found at every STEP-th position of `ORDER BY id` is
 * kept in memory, learnt lazily from the (workspace_id, id) index only as far
 * as the pages asked for. A page then starts at the checkpoint below it and
 * skips fewer than STEP index entries:
 *   WHERE workspace_id = ? AND id >= <checkpoint> ORDER BY id LIMIT n OFFSET <STEP.
 *
 * Why it stays exact: a new contact always gets an id above every existing one
 * (AUTOINCREMENT, migration 004: above every id ever given), so an insert appends at the end and
 * moves no position; only a deletion moves positions, and every deletion bumps
 * the workspace's `contacts_deleted` counter (migration 002, a trigger, so
 * every code path and any other connection is covered, and a rolled back
 * delete rolls the bump back too). The checkpoints carry the counter value
 * they were learnt under and are dropped when it differs.
 */
import type { Db } from '../db.js';

export const PAGE_STEP = 128;
/** Workspaces whose checkpoints are kept (least recently used beyond this are dropped). */
const MAX_WORKSPACES = 256;

interface Checkpoints {
  deletions: number;
  /** ids[k] is the id at position k * PAGE_STEP. */
  ids: number[];
}

const caches = new WeakMap<Db, Map<string, Checkpoints>>();

export function createContactPages(db: Db) {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const workspaces = cache;

  const state = db.prepare<[string], { resource: string; count: number }>(
    "SELECT resource, count FROM counters WHERE workspace_id = ? AND resource IN ('contacts', 'contacts_deleted')",
  );
  // `+?` and `?+0`: one plan for every call (db.ts, "Re-planned statements").
  const firstId = db.prepare<[string], number>('SELECT id FROM contacts WHERE workspace_id = +? ORDER BY id LIMIT 1').pluck();
  // The id PAGE_STEP positions after a known one.
  const stepFrom = db
    .prepare<[string, number, number], number>('SELECT id FROM contacts WHERE workspace_id = +? AND id >= ? ORDER BY id LIMIT 1 OFFSET ?+0')
    .pluck();
  const pageFrom = db
    .prepare<[string, number, number, number], number>(
      'SELECT id FROM contacts WHERE workspace_id = +? AND id >= ? ORDER BY id LIMIT ?+0 OFFSET ?+0',
    )
    .pluck();

  function checkpointsFor(workspaceId: string, deletions: number): Checkpoints {
    let entry = workspaces.get(workspaceId);
    if (entry && entry.deletions === deletions) {
      // Most recently used last.
      workspaces.delete(workspaceId);
      workspaces.set(workspaceId, entry);
      return entry;
    }
    entry = { deletions, ids: [] };
    workspaces.delete(workspaceId);
    workspaces.set(workspaceId, entry);
    while (workspaces.size > MAX_WORKSPACES) workspaces.delete(workspaces.keys().next().value!);
    return entry;
  }

  /** The id at position k * PAGE_STEP, learning the checkpoints up to it; undefined past the end. */
  function checkpoint(workspaceId: string, entry: Checkpoints, k: number): number | undefined {
    if (entry.ids.length === 0) {
      const first = firstId.get(workspaceId);
      if (first === undefined) return undefined;
      entry.ids.push(first);
    }
    while (entry.ids.length <= k) {
      const next = stepFrom.get(workspaceId, entry.ids[entry.ids.length - 1], PAGE_STEP);
      if (next === undefined) return undefined;
      entry.ids.push(next);
    }
    return entry.ids[k];
  }

  /** The ids of one page of the workspace's contacts in id order, and the total, read in one transaction. */
  const page = db.transaction((workspaceId: string, offset: number, limit: number): { ids: number[]; total: number } => {
    let total = 0;
    let deletions = 0;
    for (const { resource, count } of state.all(workspaceId)) {
      if (resource === 'contacts') total = count;
      else deletions = count;
    }
    if (offset >= total || limit <= 0) return { ids: [], total };
    const entry = checkpointsFor(workspaceId, deletions);
    const k = Math.floor(offset / PAGE_STEP);
    const start = checkpoint(workspaceId, entry, k);
    if (start === undefined) return { ids: [], total };
    return { ids: pageFrom.all(workspaceId, start, limit, offset - k * PAGE_STEP), total };
  });

  return { page };
}
