import type { Db } from '../db.js';
import { nowIso } from '../db.js';

export interface OutboxRow {
  id: number;
  workspace_id: string;
  provider_id: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
}

/**
 * provider_outbox: deletions still owed to the template provider
 * (decisions.md §5). A row is written in the same transaction that removes the
 * template, so a crash can lose neither; the outbox worker drains it.
 */
export function createOutboxRepository(db: Db) {
  const insert = db.prepare('INSERT INTO provider_outbox (workspace_id, provider_id, next_attempt_at, created_at) VALUES (?, ?, ?, ?)');
  // ISO 8601 UTC strings of one format compare correctly as text.
  const due = db.prepare<[string, number], OutboxRow>(
    'SELECT * FROM provider_outbox WHERE next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?',
  );
  const remove = db.prepare('DELETE FROM provider_outbox WHERE id = ?');
  const reschedule = db.prepare('UPDATE provider_outbox SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ?');
  const all = db.prepare<[], OutboxRow>('SELECT * FROM provider_outbox ORDER BY id');
  const dueNow = db.prepare('UPDATE provider_outbox SET next_attempt_at = ? WHERE next_attempt_at > ?');

  return {
    /** Owes the provider a deletion, due at once. */
    enqueue(workspaceId: string, providerId: string): void {
      const now = nowIso();
      insert.run(workspaceId, providerId, now, now);
    },
    due: (atIso: string, limit: number) => due.all(atIso, limit),
    done: (id: number) => void remove.run(id),
    retryLater(id: number, attempts: number, nextAttemptAt: string, error: string): void {
      reschedule.run(attempts, nextAttemptAt, error, id);
    },
    all: () => all.all(),
    /** Makes every waiting deletion due now; returns how many were waiting. */
    allDueNow(): number {
      const now = nowIso();
      return dueNow.run(now, now).changes;
    },
  };
}
export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
