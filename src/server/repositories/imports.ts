import type { Db } from '../db.js';
import { nowIso } from '../db.js';
import { IMPORT_ERRORS_KEPT, type ContactImport, type ImportError } from '../../api/schemas/index.js';
import { createCounters } from './counters.js';

export type { ImportError };
type ImportStatus = ContactImport['status'];

/** A row of contact_imports with its group's name; `stored_path` never leaves the server. */
export interface ImportRow {
  id: number;
  workspace_id: string;
  name: string;
  status: ImportStatus;
  contact_group_id: number | null;
  group_name: string | null;
  /** 1: groups the file names and the workspace lacks are created (the uploader held contact_groups.create). */
  may_create_groups: number;
  file_name: string;
  stored_path: string;
  total_rows: number;
  processed_rows: number;
  created_count: number;
  updated_count: number;
  failed_count: number;
  /** The first IMPORT_ERRORS_KEPT errors, as JSON. */
  errors: string;
  /** Every error noted, each a row of contact_import_errors. */
  errors_total: number;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** The counters a run advances; committed together with the rows they count. */
export interface ImportProgress {
  processed_rows: number;
  created_count: number;
  updated_count: number;
  failed_count: number;
  /** The first errors, as the import record shows them. */
  errors: ImportError[];
  errors_total: number;
  /** Errors noted since the last save: stored with the rows they are about, in the same transaction. */
  unsaved: ImportError[];
}

const SELECT = `SELECT i.*, g.name AS group_name FROM contact_imports i LEFT JOIN contact_groups g ON g.id = i.contact_group_id`;

export function toImportRecord(row: ImportRow): ContactImport {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    status: row.status,
    contact_group: row.contact_group_id !== null && row.group_name !== null ? { id: row.contact_group_id, name: row.group_name } : null,
    file_name: row.file_name,
    total_rows: row.total_rows,
    processed_rows: row.processed_rows,
    created_count: row.created_count,
    updated_count: row.updated_count,
    failed_count: row.failed_count,
    errors: JSON.parse(row.errors) as ImportError[],
    errors_total: row.errors_total,
    created_at: row.created_at,
    updated_at: row.updated_at,
    finished_at: row.finished_at,
  };
}

export const progressOf = (row: ImportRow): ImportProgress => ({
  processed_rows: row.processed_rows,
  created_count: row.created_count,
  updated_count: row.updated_count,
  failed_count: row.failed_count,
  errors: JSON.parse(row.errors) as ImportError[],
  errors_total: row.errors_total,
  unsaved: [],
});

/** Every error is kept (contact_import_errors); the record shows the first (decisions.md §3, §9). */
export function noteError(progress: ImportProgress, error: ImportError): void {
  progress.errors_total += 1;
  progress.unsaved.push(error);
  if (progress.errors.length < IMPORT_ERRORS_KEPT) progress.errors.push(error);
}

export function createImportsRepository(db: Db) {
  const counters = createCounters(db);
  const page = db.prepare<[string, number, number], ImportRow>(`${SELECT} WHERE i.workspace_id = +? ORDER BY i.id LIMIT ?+0 OFFSET ?+0`);
  const byId = db.prepare<[string, number], ImportRow>(`${SELECT} WHERE i.workspace_id = ? AND i.id = ?`);
  const byIdAnyWorkspace = db.prepare<[number], ImportRow>(`${SELECT} WHERE i.id = ?`);
  const unfinished = db.prepare<[], { id: number }>("SELECT id FROM contact_imports WHERE status IN ('pending', 'processing') ORDER BY id");
  const anyUnfinished = db
    .prepare<[], number>("SELECT EXISTS (SELECT 1 FROM contact_imports WHERE status IN ('pending', 'processing'))")
    .pluck();
  const insert = db.prepare(
    `INSERT INTO contact_imports (workspace_id, name, contact_group_id, file_name, stored_path, may_create_groups, total_rows, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const remove = db.prepare('DELETE FROM contact_imports WHERE workspace_id = ? AND id = ?');
  // Every write of a run holds the claim in its WHERE clause: a worker that lost it (or whose
  // import was deleted) changes nothing and learns so from `changes`.
  const claim = db.prepare(
    `UPDATE contact_imports SET claimed_by = @worker
      WHERE id = @id AND status IN ('pending', 'processing') AND (claimed_by IS NULL OR claimed_by = @worker)`,
  );
  const release = db.prepare('UPDATE contact_imports SET claimed_by = NULL WHERE id = @id AND claimed_by = @worker');
  const releaseAll = db.prepare('UPDATE contact_imports SET claimed_by = NULL WHERE claimed_by IS NOT NULL');
  const begin = db.prepare(
    "UPDATE contact_imports SET status = 'processing', total_rows = @total, updated_at = @now WHERE id = @id AND claimed_by = @worker",
  );
  const save = db.prepare(
    `UPDATE contact_imports SET processed_rows = @processed_rows, created_count = @created_count, updated_count = @updated_count,
            failed_count = @failed_count, errors = @errors, errors_total = @errors_total, updated_at = @now WHERE id = @id AND claimed_by = @worker`,
  );
  const insertError = db.prepare<[number, number, number, number, string, number]>(
    'INSERT INTO contact_import_errors (import_id, seq, row, line, message, failed) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const errorPage = db.prepare<[number, number, number], { row: number; line: number; message: string; failed: number }>(
    'SELECT row, line, message, failed FROM contact_import_errors WHERE import_id = ? ORDER BY seq LIMIT ? OFFSET ?',
  );
  const end = db.prepare('UPDATE contact_imports SET status = ?, finished_at = ?, updated_at = ? WHERE id = ?');

  /** Inside the caller's transaction: the counters, and the errors noted since the last save, with their numbers. */
  const saveProgress = (id: number, worker: string, progress: ImportProgress) => {
    const { unsaved, ...counters } = progress;
    if (save.run({ ...counters, errors: JSON.stringify(progress.errors), now: nowIso(), id, worker }).changes === 0) return false;
    const first = progress.errors_total - unsaved.length;
    unsaved.forEach((error, index) => insertError.run(id, first + index + 1, error.row, error.line, error.message, error.failed ? 1 : 0));
    progress.unsaved = [];
    return true;
  };

  return {
    list: (workspaceId: string, offset: number, limit: number) => page.all(workspaceId, limit, offset).map(toImportRecord),
    count: (workspaceId: string) => counters.count(workspaceId, 'contact_imports'),
    find: (workspaceId: string, id: number) => byId.get(workspaceId, id),
    /** A page of the import's errors in the order they were noted (its `errors_total` counts them). */
    errors: (importId: number, offset: number, limit: number): ImportError[] =>
      errorPage.all(importId, limit, offset).map((error) => ({ ...error, failed: error.failed === 1 })),
    create(
      workspaceId: string,
      input: { name: string; groupId: number | null; fileName: string; storedPath: string; mayCreateGroups: boolean; totalRows: number },
    ): ImportRow {
      const now = nowIso();
      const info = insert.run(
        workspaceId,
        input.name,
        input.groupId,
        input.fileName,
        input.storedPath,
        input.mayCreateGroups ? 1 : 0,
        input.totalRows,
        now,
        now,
      );
      return byId.get(workspaceId, Number(info.lastInsertRowid))!;
    },
    /** The stored file's path, for the caller to remove once the row is gone. */
    delete(workspaceId: string, id: number): string | undefined {
      const row = byId.get(workspaceId, id);
      if (!row) return undefined;
      remove.run(workspaceId, id);
      return row.stored_path;
    },

    // The worker's side: it runs outside any request, so by id alone, and only under its claim.
    job: (id: number) => byIdAnyWorkspace.get(id),
    unfinishedIds: () => unfinished.all().map((row) => row.id),
    /** Whether any import waits or runs (the search index catches up only when none does). */
    hasUnfinished: () => anyUnfinished.get() === 1,
    /** Takes the import for `worker`: false when it is finished, gone, or another worker's. */
    claim: (id: number, worker: string) => claim.run({ id, worker }).changes > 0,
    release: (id: number, worker: string) => void release.run({ id, worker }),
    /** At start-up, under the database lock: no other process can be running an import. */
    releaseClaims: () => releaseAll.run().changes,
    /** False when the claim was lost or the import deleted. */
    begin: (id: number, worker: string, totalRows: number) => begin.run({ total: totalRows, now: nowIso(), id, worker }).changes > 0,
    saveProgress,
    finish: db.transaction((id: number, worker: string, status: 'completed' | 'failed', progress: ImportProgress): void => {
      if (!saveProgress(id, worker, progress)) return;
      const now = nowIso();
      end.run(status, now, now, id);
    }),
  };
}
export type ImportsRepository = ReturnType<typeof createImportsRepository>;
