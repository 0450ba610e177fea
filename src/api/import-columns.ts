/**
 * How the header of an import file maps onto a contact (decisions.md §3): `number, name, email,
 * gender, status, contact_groups`, then columns named after contact fields; anything else is
 * ignored and named once in the import's errors. The server's import worker and the CLI's local
 * check both read rows through here, so they agree on every cell.
 */
import { headerName } from './import-csv.js';

export const CONTACT_COLUMNS = ['number', 'name', 'email', 'gender', 'status', 'contact_groups'] as const;
type ContactColumn = (typeof CONTACT_COLUMNS)[number];

/**
 * Columns wsm writes that an import cannot set, part of the format and skipped without a note:
 * the export's `id`, `created_at`, `updated_at` (contacts are matched by number), and the
 * `import_error`, `import_line` of a rejects file (`--rejects`), which is fixed and imported again.
 */
const SKIPPED = new Set(['id', 'created_at', 'updated_at', 'import_error', 'import_line']);

/** The header's names as an import matches them (headerName), '' for a column it never reads: one of SKIPPED, or a nameless one. */
export const readColumnNames = (header: string[]): string[] =>
  header.map((cell) => {
    const name = headerName(cell);
    return SKIPPED.has(name) ? '' : name;
  });

export interface ColumnPlan {
  /** Column index of each contact attribute present in the header. */
  contact: Partial<Record<ContactColumn, number>>;
  /** Columns that fill contact fields. */
  fields: Array<{ index: number; name: string; fieldId: number }>;
  /** Notes about ignored columns, reported once with row 1. */
  notes: string[];
  /** Named columns that are neither a contact attribute nor one of the fields given (nor one the export writes). */
  unknown: Array<{ index: number; column: string }>;
}

/** `fieldIds`: the workspace's contact fields by name (the CLI passes those it read from the server, or none). */
export function planColumns(header: string[], fieldIds: Map<string, number> = new Map()): ColumnPlan {
  const plan: ColumnPlan = { contact: {}, fields: [], notes: [], unknown: [] };
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
    else if (fieldIds.has(name)) plan.fields.push({ index, name, fieldId: fieldIds.get(name)! });
    else if (!SKIPPED.has(name)) {
      plan.unknown.push({ index, column: cell.trim() });
      plan.notes.push(`Unknown column "${cell.trim()}" was ignored.`);
    }
  });
  return plan;
}

/**
 * The row as `importRow` expects it: the contact's columns and its field values by field name.
 * Only non-empty cells count: an empty cell never blanks what an existing contact has.
 */
export function readRow(cells: string[], plan: ColumnPlan): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [column, index] of Object.entries(plan.contact)) {
    const value = cells[index]?.trim();
    if (value) input[column] = value;
  }
  let fields: Record<string, string> | undefined;
  for (const { index, name } of plan.fields) {
    const value = cells[index]?.trim();
    if (value) (fields ??= {})[name] = value;
  }
  if (fields) input.fields = fields;
  return input;
}

/** The field values of a checked row as the writer takes them: [field id, value]. */
export function fieldValuesOf(fields: Record<string, string> | undefined, plan: ColumnPlan): Array<[number, string]> {
  if (fields === undefined) return [];
  return plan.fields.filter(({ name }) => fields[name] !== undefined).map(({ name, fieldId }) => [fieldId, fields[name]]);
}

/**
 * The columns a row leaves empty, as a plan names them (`email`, `fields.city`): an import keeps
 * what the contact holds there. The number is not among them (a row without one is invalid); a
 * `contact_groups` cell that is empty or `[]` is, since an import only ever joins groups: the
 * contact stays in its own, and the plan says so.
 */
export function emptiedKeys(cells: string[], plan: ColumnPlan): string[] {
  const keys: string[] = [];
  for (const [column, index] of Object.entries(plan.contact)) {
    const text = cells[index]?.trim() ?? '';
    if (column !== 'number' && (text === '' || (column === 'contact_groups' && /^\[\s*\]$/.test(text)))) keys.push(column);
  }
  for (const { index, name } of plan.fields) if (!cells[index]?.trim()) keys.push(`fields.${name}`);
  return keys;
}
