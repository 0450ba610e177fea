/**
 * The table of a plain collection (decisions.md §1): records of one workspace, whose fields are
 * columns, with the field its description names unique in the workspace (`name`), or none. Read from its description: the table is its path segment
 * (`contact-groups` -> contact_groups), a record is the record schema's fields in their order, and
 * a write sets the fields its create and update bodies may carry. Its count is the one the
 * counters table keeps by trigger (migration 001 makes them for its tables; a new table's
 * migration makes its own).
 */
import type { z } from 'zod';
import type { ResourceDescription } from '../../api/descriptions/index.js';
import type { Db } from '../db.js';
import { nowIso } from '../db.js';
import { createCounters } from './counters.js';

export interface CollectionRecords<T = Record<string, unknown>> {
  list(workspaceId: string, offset: number, limit: number): T[];
  count(workspaceId: string): number;
  find(workspaceId: string, id: number): T | undefined;
  /** The id holding this value of the unique field, to answer a clash with a 422 instead of a constraint error; never one without a unique field. */
  idHolding(workspaceId: string, value: unknown): number | undefined;
  /** A new record with these fields; a field not given is null. */
  insert(workspaceId: string, values: Record<string, unknown>): T;
  /** Every writable field set to these values (the caller merges the current record with the body). */
  replace(workspaceId: string, id: number, values: Record<string, unknown>): T;
  delete(workspaceId: string, id: number): boolean;
}

export interface CollectionTable {
  table: string;
  /** The record's fields, in the order an answer lists them. */
  select: readonly string[];
  /** The fields a create or update body sets. */
  writes: readonly string[];
  /** The field unique in the workspace, or null (the description's `unique`). */
  unique: string | null;
}

const fieldsOf = (schema: unknown): string[] =>
  schema && typeof schema === 'object' && 'shape' in schema ? Object.keys((schema as z.ZodObject).shape) : [];

/**
 * The table of a described resource that is a plain collection (a record, its five operations and
 * a stated unique field or none), else undefined. A unique field no body writes is a mistake of
 * the description, said at start-up.
 */
export function collectionTable(description: ResourceDescription): CollectionTable | undefined {
  const { record, operations, segment, unique } = description;
  const writes = [...new Set([...fieldsOf(operations.create?.body), ...fieldsOf(operations.update?.body)])];
  const plain = record !== undefined && ['list', 'get', 'create', 'update', 'delete'].every((name) => name in operations);
  if (!plain || unique === undefined) return undefined;
  if (unique !== null && !writes.includes(unique))
    throw new TypeError(`${description.key}: its unique field "${unique}" is in neither its create nor its update body`);
  return { table: segment.replaceAll('-', '_'), select: Object.keys(record.shape), writes, unique };
}

export function createCollectionRecords<T>(db: Db, { table, select, writes, unique }: CollectionTable): CollectionRecords<T> {
  const counters = createCounters(db);
  const columns = select.join(', ');
  const page = db.prepare<[string, number, number], T>(
    `SELECT ${columns} FROM ${table} WHERE workspace_id = +? ORDER BY id LIMIT ?+0 OFFSET ?+0`,
  );
  const byId = db.prepare<[string, number], T>(`SELECT ${columns} FROM ${table} WHERE workspace_id = ? AND id = ?`);
  const byUnique = unique
    ? db.prepare<[string, unknown], { id: number }>(`SELECT id FROM ${table} WHERE workspace_id = ? AND ${unique} = ?`)
    : undefined;
  const insert = db.prepare(
    `INSERT INTO ${table} (workspace_id, ${writes.join(', ')}, created_at, updated_at) VALUES (?, ${writes.map(() => '?').join(', ')}, ?, ?)`,
  );
  const update = db.prepare(
    `UPDATE ${table} SET ${writes.map((field) => `${field} = ?`).join(', ')}, updated_at = ? WHERE workspace_id = ? AND id = ?`,
  );
  const remove = db.prepare(`DELETE FROM ${table} WHERE workspace_id = ? AND id = ?`);
  const valuesOf = (values: Record<string, unknown>) => writes.map((field) => values[field] ?? null);

  return {
    list: (workspaceId, offset, limit) => page.all(workspaceId, limit, offset),
    count: (workspaceId) => counters.count(workspaceId, table),
    find: (workspaceId, id) => byId.get(workspaceId, id),
    idHolding: (workspaceId, value) => byUnique?.get(workspaceId, value)?.id,
    insert(workspaceId, values) {
      const now = nowIso();
      const info = insert.run(workspaceId, ...valuesOf(values), now, now);
      return byId.get(workspaceId, Number(info.lastInsertRowid))!;
    },
    replace(workspaceId, id, values) {
      update.run(...valuesOf(values), nowIso(), workspaceId, id);
      return byId.get(workspaceId, id)!;
    },
    delete: (workspaceId, id) => remove.run(workspaceId, id).changes > 0,
  };
}

/** The records of a described plain collection; a description that is not one is a mistake of ours, said at start. */
export function describedRecords<T>(db: Db, description: ResourceDescription): CollectionRecords<T> {
  const table = collectionTable(description);
  if (!table) throw new TypeError(`${description.key} is not a plain collection: it needs a repository of its own`);
  return createCollectionRecords<T>(db, table);
}
