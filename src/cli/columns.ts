// What a column of the output is (a table's, a CSV's, a record's), and the value it prints for a row.
import { isStatusKey, type Tone, toneOf } from './present.js';

export interface Column<T = Record<string, unknown>> {
  /** Field name (dotted paths like `role.name` reach into nested objects); also the CSV header. */
  key: string;
  /** Table header on a terminal. */
  header: string;
  /** Computes the value instead of reading `key`: what piped and CSV output print. */
  get?: (row: T) => unknown;
  /** How the value reads on a terminal (table, record), when that differs from the data (`VIP (3)`). */
  show?: (row: T) => unknown;
  /** Never cut to fit the terminal (ids, numbers, counts and statuses are never cut whatever this says). */
  fixed?: boolean;
}

export interface RenderOptions<T> {
  columns?: Column<T>[];
  /** Field printed by -q (default `id`). */
  idKey?: string;
}

export function toneFor<T>(column: Column<T>, value: unknown): Tone | undefined {
  return isStatusKey(column.key) ? toneOf(value) : undefined;
}

export function columnsOf<T extends object>(record: T): Column<T>[] {
  return Object.keys(record).map((key) => ({ key, header: key }));
}

/** The value a column prints for `row` (its `get`, or the field at its key). */
export function valueOf<T>(row: T, column: Column<T>): unknown {
  if (column.get) return column.get(row);
  let value: unknown = row;
  for (const part of column.key.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
