// `wsm contacts get <id>` (an extension endpoint: a backend without it is told apart from a 404).
import type { Contact } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import type { Column } from '../../cli/columns.js';
import type { CommandLine } from '../declare.js';
import { parseId, workspaceClient } from '../shared/verb.js';
import { contactDetailColumns } from './columns.js';
import { contactColumnsFor } from './export-format.js';

/** The contact, and the columns it prints in (with -o csv, the workspace's field names too). */
export interface ContactRead {
  contact: Contact;
  columns: Column<Contact>[];
}

export function parse({ args }: CommandLine): number {
  return parseId(args[0], 'contact id');
}

export async function run(ctx: Context, id: number): Promise<ContactRead> {
  const client = await workspaceClient(ctx);
  // With -o csv the field names (columns) are read while the contact is.
  const [{ data }, columns] = await Promise.all([client.contacts.get(id), contactColumnsFor(ctx, client, contactDetailColumns)]);
  return { contact: data, columns };
}

export function render(ctx: Context, { contact, columns }: ContactRead): Promise<void> {
  return ctx.output.record(contact, { columns });
}
