// What `wsm contacts export` writes, page by page. CSV by default: fixed columns, then one per
// contact field, so the file imports back (decisions.md §3): the groups as a JSON array of their
// names, cells a spreadsheet would run as formulas neutralised (OWASP CSV injection; the import
// takes the `'` back off). `-o json` / `-o ndjson` write the contact records instead and `-q`
// their ids: never CSV under another format's name.
import { encodeGroupNames, hasLineBreak } from '../../api/csv-cells.js';
import type { Contact } from '../../api/schemas/index.js';
import { cellText, csvCell, type OutputFormat } from '../../cli/output.js';
import { safeJson } from '../../cli/text.js';

export const EXPORT_COLUMNS = ['id', 'number', 'name', 'email', 'gender', 'status', 'contact_groups', 'created_at', 'updated_at'] as const;

export interface ExportWriter {
  /** What precedes the first contact (the CSV header, `[`). */
  start(): string;
  page(contacts: Contact[]): string;
  end(): string;
  /** CSV: how many contacts written so far hold a line break in a value (the import cannot read those back). */
  readonly withLineBreaks: number;
}

/** The contact's cells in EXPORT_COLUMNS order, then its field values. */
function csvRow(contact: Contact, fieldNames: string[]): unknown[] {
  const fixed = EXPORT_COLUMNS.map((column): unknown => {
    // Names, not ids: ids mean nothing in another workspace; JSON, since a name may hold any character.
    if (column === 'contact_groups') return encodeGroupNames((contact.contact_groups ?? []).map((g) => g.name));
    const value = contact[column];
    return typeof value === 'boolean' ? cellText(value) : value;
  });
  return [...fixed, ...fieldNames.map((name) => contact.fields?.[name] ?? '')];
}

/** `terminal`: stdout is a terminal, where control characters in cells are made visible. */
export function exportWriter(format: OutputFormat, quiet: boolean, fieldNames: string[], terminal: boolean): ExportWriter {
  const line = (cells: unknown[]) => cells.map((cell) => csvCell(cell, terminal)).join(',') + '\n';
  if (quiet) return { start: () => '', page: (contacts) => contacts.map((c) => `${c.id}\n`).join(''), end: () => '', withLineBreaks: 0 };
  if (format === 'ndjson') return { start: () => '', page: (contacts) => contacts.map((c) => safeJson(JSON.stringify(c)) + '\n').join(''), end: () => '', withLineBreaks: 0 };
  if (format === 'json') {
    // The same bytes as JSON.stringify(contacts, null, 2), written a page at a time.
    let first = true;
    return {
      withLineBreaks: 0,
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
  let withLineBreaks = 0;
  const row = (contact: Contact) => {
    const cells = csvRow(contact, fieldNames);
    if (cells.some((cell) => typeof cell === 'string' && hasLineBreak(cell))) withLineBreaks += 1;
    return line(cells);
  };
  return {
    start: () => line([...EXPORT_COLUMNS, ...fieldNames]),
    page: (contacts) => contacts.map(row).join(''),
    end: () => '',
    get withLineBreaks() {
      return withLineBreaks;
    },
  };
}
