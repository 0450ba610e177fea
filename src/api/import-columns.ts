/**
 * How the header of an import file maps onto a contact (decisions.md §3): `number, name, email,
 * gender, status, contact_groups`, then columns named after contact fields; anything else is
 * ignored and named once in the import's errors. The server's import worker and the CLI's local
 * check both read rows through here, so they agree on every cell.
 */
import { headerName } from './import-csv.js';

export const CONTACT_COLUMNS = ['number', 'name', 'email', 'gender', 'status', 'contact_groups'] as const;
type ContactColumn = (typeof CONTACT_COLUMNS)[number];

/** Columns `contacts export` writes that an import cannot set (contacts are matched by number): part of the format, skipped without a note. */
const EXPORT_ONLY = new Set(['id', 'created_at', 'updated_at']);

export interface ColumnPlan {
  /** Column index of each contact attribute present in the header. */
  contact: Partial<Record<ContactColumn, number>>;
  /** Columns that fill contact fields. */
  fields: Array<{ index: number; fieldId: number }>;
  /** Notes about ignored columns, reported once with row 1. */
  notes: string[];
}

/** `fieldIds`: the workspace's contact fields by name (the CLI, which does not know them, passes none). */
export function planColumns(header: string[], fieldIds: Map<string, number> = new Map()): ColumnPlan {
  const plan: ColumnPlan = { contact: {}, fields: [], notes: [] };
  const seen = new Set<string>();
  header.forEach((cell, index) => {
    const name = headerName(cell);
    if (name === '') {
      plan.notes.push(`Column ${index + 1} has no name and was ignored.`);
      return;
    }
    if (seen.has(name)) {
      plan.notes.push(`Column "${cell.trim()}" appears more than once; only the first was used.`);
      return;
    }
    seen.add(name);
    if ((CONTACT_COLUMNS as readonly string[]).includes(name)) plan.contact[name as ContactColumn] = index;
    else if (fieldIds.has(name)) plan.fields.push({ index, fieldId: fieldIds.get(name)! });
    else if (!EXPORT_ONLY.has(name)) plan.notes.push(`Unknown column "${cell.trim()}" was ignored.`);
  });
  return plan;
}

/**
 * The row as `importRow` expects it, and its field values. Only non-empty
 * cells count: an empty cell never blanks what an existing contact has.
 */
export function readRow(cells: string[], plan: ColumnPlan): { input: Record<string, string>; fieldValues: Array<[number, string]> } {
  const input: Record<string, string> = {};
  for (const [column, index] of Object.entries(plan.contact)) {
    const value = cells[index]?.trim();
    if (value) input[column] = value;
  }
  const fieldValues: Array<[number, string]> = [];
  for (const { index, fieldId } of plan.fields) {
    const value = cells[index]?.trim();
    if (value) fieldValues.push([fieldId, value]);
  }
  return { input, fieldValues };
}
