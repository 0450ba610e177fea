import type { Db } from '../db.js';
import { nowIso } from '../db.js';
import type { Template } from '../../api/schemas/index.js';
import { createCounters } from './counters.js';
import { createOutboxRepository } from './outbox.js';

interface TemplateRow {
  id: number;
  workspace_id: string;
  name: string;
  language: string;
  category: Template['category'];
  status: string;
  provider_id: string | null;
  rejection_reason: string | null;
  components: string;
  options: string;
  created_at: string;
  updated_at: string;
}

export interface TemplateFilters {
  status?: string;
  category?: string;
  /** Substring of the name. */
  search?: string;
}

export interface NewTemplate {
  name: string;
  language: string;
  category: Template['category'];
  providerId: string;
  components: Template['components'];
  options: Template['options'];
}

/** A provider's verdict for one local template, applied by sync. */
export interface StatusChange {
  id: number;
  status: string;
  reason: string | null;
}

const toRecord = (row: TemplateRow): Template => ({
  ...row,
  components: JSON.parse(row.components) as Template['components'],
  options: JSON.parse(row.options) as Template['options'],
});

// One statement per query whatever filters are given: `? IS NULL` turns a filter off.
const FILTERED = `workspace_id = @workspace
  AND (@status IS NULL OR status = @status)
  AND (@category IS NULL OR category = @category)
  AND (@search IS NULL OR instr(name, @search) > 0)`;

export function createTemplatesRepository(db: Db) {
  const counters = createCounters(db);
  const outbox = createOutboxRepository(db);
  const page = db.prepare<[Record<string, unknown>], TemplateRow>(
    `SELECT * FROM templates WHERE ${FILTERED} ORDER BY id LIMIT @limit+0 OFFSET @offset+0`,
  );
  const filteredCount = db.prepare<[Record<string, unknown>], { count: number }>(
    `SELECT COUNT(*) AS count FROM templates WHERE ${FILTERED}`,
  );
  const byId = db.prepare<[string, number], TemplateRow>('SELECT * FROM templates WHERE workspace_id = ? AND id = ?');
  const byNameLanguage = db.prepare<[string, string, string], { id: number }>(
    'SELECT id FROM templates WHERE workspace_id = ? AND name = ? AND language = ?',
  );
  const insert = db.prepare(
    `INSERT INTO templates (workspace_id, name, language, category, status, provider_id, components, options, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'PENDING', ?, ?, ?, ?, ?)`,
  );
  const providerIdOf = db.prepare<[string, number], { provider_id: string | null }>(
    'SELECT provider_id FROM templates WHERE workspace_id = ? AND id = ?',
  );
  const remove = db.prepare('DELETE FROM templates WHERE workspace_id = ? AND id = ?');
  const pending = db.prepare<[string], { id: number; provider_id: string | null }>(
    "SELECT id, provider_id FROM templates WHERE workspace_id = ? AND status = 'PENDING' ORDER BY id",
  );
  // The status guard keeps sync from overwriting a template that left PENDING meanwhile.
  const setStatus = db.prepare(
    "UPDATE templates SET status = ?, rejection_reason = ?, updated_at = ? WHERE workspace_id = ? AND id = ? AND status = 'PENDING'",
  );

  // An empty filter (`?status=`) is no filter, for the rows and the count alike.
  const params = (workspace: string, filters: TemplateFilters) => ({
    workspace,
    status: filters.status || null,
    category: filters.category || null,
    // Names are lowercase by rule, so a lowercased needle is a case-insensitive search.
    search: filters.search ? filters.search.toLowerCase() : null,
  });
  const unfiltered = (f: TemplateFilters) => !f.status && !f.category && !f.search;

  return {
    list: (workspaceId: string, filters: TemplateFilters, offset: number, limit: number) =>
      page.all({ ...params(workspaceId, filters), limit, offset }).map(toRecord),
    /** The trigger-kept counter when nothing filters; a counted query (on the workspace index) otherwise. */
    count: (workspaceId: string, filters: TemplateFilters) =>
      unfiltered(filters) ? counters.count(workspaceId, 'templates') : filteredCount.get(params(workspaceId, filters))!.count,
    find(workspaceId: string, id: number): Template | undefined {
      const row = byId.get(workspaceId, id);
      return row && toRecord(row);
    },
    /** The id holding this name in this language, to answer a clash with a 422. */
    idOfNameLanguage: (workspaceId: string, name: string, language: string) => byNameLanguage.get(workspaceId, name, language)?.id,
    create(workspaceId: string, input: NewTemplate): Template {
      const now = nowIso();
      const info = insert.run(
        workspaceId,
        input.name,
        input.language,
        input.category,
        input.providerId,
        JSON.stringify(input.components),
        JSON.stringify(input.options),
        now,
        now,
      );
      return toRecord(byId.get(workspaceId, Number(info.lastInsertRowid))!);
    },
    /**
     * Removes the template and, in the same transaction, owes the provider its
     * deletion (decisions.md §5): a crash between the two cannot lose it.
     */
    delete: db.transaction((workspaceId: string, id: number): boolean => {
      const row = providerIdOf.get(workspaceId, id);
      if (!row) return false;
      remove.run(workspaceId, id);
      if (row.provider_id) outbox.enqueue(workspaceId, row.provider_id);
      return true;
    }),
    pending: (workspaceId: string) => pending.all(workspaceId),
    /** Applies sync's verdicts at once; returns how many templates changed. */
    applyStatuses: db.transaction((workspaceId: string, changes: StatusChange[]): number => {
      const now = nowIso();
      let changed = 0;
      for (const change of changes) changed += setStatus.run(change.status, change.reason, now, workspaceId, change.id).changes;
      return changed;
    }),
  };
}
