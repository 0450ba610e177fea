// What `wsm contacts export` writes, page by page. CSV by default: fixed columns, then one per
// contact field, so the file imports back (decisions.md §3): the groups as a JSON array of their
// names, cells a spreadsheet would run as formulas neutralised (OWASP CSV injection; the import
// takes the `'` back off). `-o json` / `-o ndjson` write the contact records instead and `-q`
// their ids: never CSV under another format's name.
import { encodeGroupNames } from '../../api/csv-cells.js';
import type { Contact } from '../../api/schemas/index.js';
import type { WsmClient } from '../../api/client.js';
import type { Context } from '../../cli/context.js';
import { csvCell, valueOf, type Column, type OutputFormat } from '../../cli/output.js';
import { safeJson } from '../../cli/text.js';

export const EXPORT_COLUMNS = ['id', 'number', 'name', 'email', 'gender', 'status', 'contact_groups', 'created_at', 'updated_at'] as const;

/** The contact fields' names, the export's last columns; a field named like a fixed column is left out (the fixed column wins). */
export async function exportFieldNames(client: WsmClient): Promise<string[]> {
  const names: string[] = [];
  for await (const field of client.fields.iterate()) {
    if (!(EXPORT_COLUMNS as readonly string[]).includes(field.name)) names.push(field.name);
  }
  return names;
}

/** The `contact_groups` cell: `["VIP","News"]`. */
export const groupsCell = (contact: Contact) => encodeGroupNames((contact.contact_groups ?? []).map((g) => g.name));

/**
 * The export's columns, EXPORT_COLUMNS then one per field: also what `contacts list -o csv` and
 * `contacts get -o csv` print, so the same contact has one CSV shape. Groups by name, not id:
 * ids mean nothing in another workspace; JSON, since a name may hold any character.
 */
export function exportColumns(fieldNames: string[]): Column<Contact>[] {
  return [
    ...EXPORT_COLUMNS.map((key): Column<Contact> => (key === 'contact_groups' ? { key, header: key, get: groupsCell } : { key, header: key })),
    ...fieldNames.map((name): Column<Contact> => ({ key: name, header: name, get: (contact) => contact.fields?.[name] ?? '' })),
  ];
}

/** The columns `contacts list` and `get` print: the export's with `-o csv`, so a contact has one CSV shape. */
export async function contactColumnsFor(ctx: Context, client: WsmClient, columns: Column<Contact>[]): Promise<Column<Contact>[]> {
  const { output } = ctx;
  return output.format === 'csv' && !output.quiet && !output.selecting ? exportColumns(await exportFieldNames(client)) : columns;
}

export interface ExportWriter {
  /** What precedes the first contact (the CSV header, `[`). */
  start(): string;
  page(contacts: Contact[]): string;
  end(): string;
}

/** `terminal`: stdout is a terminal, where control characters in cells are made visible. */
export function exportWriter(format: OutputFormat, quiet: boolean, fieldNames: string[], terminal: boolean): ExportWriter {
  const line = (cells: unknown[]) => cells.map((cell) => csvCell(cell, terminal)).join(',') + '\n';
  if (quiet) return { start: () => '', page: (contacts) => contacts.map((c) => `${c.id}\n`).join(''), end: () => '' };
  if (format === 'ndjson') return { start: () => '', page: (contacts) => contacts.map((c) => safeJson(JSON.stringify(c)) + '\n').join(''), end: () => '' };
  if (format === 'json') {
    // The same bytes as JSON.stringify(contacts, null, 2), written a page at a time.
    let first = true;
    return {
      start: () => '[',
      page: (contacts) =>
        contacts
          .map((c) => {
            const text = (first ? '\n  ' : ',\n  ') + safeJson(JSON.stringify(c, null, 2)).replace(/\n/g, '\n  ');
            first = false;
            return text;
          })
          .join(''),
      end: () => (first ? ']\n' : '\n]\n'),
    };
  }
  // RFC 4180: a value holding the separator, a quote or a line break is quoted (csvField), and
  // every reader of wsm reads it back as one value.
  const columns = exportColumns(fieldNames);
  const row = (contact: Contact) => line(columns.map((column) => valueOf(contact, column)));
  return {
    start: () => line(columns.map((column) => column.key)),
    page: (contacts) => contacts.map(row).join(''),
    end: () => '',
  };
}
