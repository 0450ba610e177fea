// The columns of `wsm contacts export` (written by Output.pages). CSV by default: fixed columns, then one per
// contact field, so the file imports back (decisions.md §3): the groups as a JSON array of their
// names, cells a spreadsheet would run as formulas neutralised (OWASP CSV injection; the import
// takes the `'` back off). `-o json` / `-o ndjson` write the contact records instead and `-q`
// their ids: never CSV under another format's name.
import { encodeGroupNames } from '../../formats/csv/cells.js';
import type { Contact } from '../../api/schemas/index.js';
import type { WsmClient } from '../../api/client.js';
import type { Context } from '../../cli/context.js';
import type { Column } from '../../cli/columns.js';

import { EXPORT_COLUMNS } from '../../formats/csv/cells.js';

export { EXPORT_COLUMNS };

/**
 * The contact fields' names, the export's last columns. A field named like a fixed column is left
 * out (the fixed column wins: an import reads that column as the contact's own, and has no other
 * column for such a field), and `warn` names each such field, so its values are never dropped unsaid.
 */
export async function exportFieldNames(client: WsmClient, warn: (text: string) => void): Promise<string[]> {
  const names: string[] = [];
  const clashing: string[] = [];
  for await (const field of client.fields.list()) {
    if ((EXPORT_COLUMNS as readonly string[]).includes(field.name)) clashing.push(field.name);
    else names.push(field.name);
  }
  if (clashing.length > 0) warn(leftOutSentence(clashing));
  return names;
}

/** Why fields named like the export's own columns are not in it, and what to do. */
function leftOutSentence(names: string[]): string {
  const one = names.length === 1;
  return (
    `contact field${one ? '' : 's'} ${names.map((name) => `"${name}"`).join(', ')} ${one ? 'is' : 'are'} left out of the export: ` +
    `${one ? 'its name is' : 'their names are'} the contact's own column${one ? '' : 's'}, which an import reads as the contact's; ` +
    `rename the field${one ? '' : 's'} to export ${one ? 'its' : 'their'} values`
  );
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
    ...EXPORT_COLUMNS.map(
      (key): Column<Contact> => (key === 'contact_groups' ? { key, header: key, get: groupsCell } : { key, header: key }),
    ),
    ...fieldNames.map((name): Column<Contact> => ({ key: name, header: name, get: (contact) => contact.fields?.[name] ?? '' })),
  ];
}

/** The columns `contacts list` and `get` print: the export's with `-o csv`, so a contact has one CSV shape. */
export async function contactColumnsFor(ctx: Context, client: WsmClient, columns: Column<Contact>[]): Promise<Column<Contact>[]> {
  const { output } = ctx;
  return output.format === 'csv' && !output.quiet && !output.selecting
    ? exportColumns(await exportFieldNames(client, (text) => output.warn(text)))
    : columns;
}
