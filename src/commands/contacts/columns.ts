// How contacts print: the list keeps to what fits a terminal row, `get` shows every field. Piped
// output prints the data as the export writes it (groups as a JSON array of names, fields as a
// JSON object); `-o csv` prints the export's own columns (export-format.ts).
import type { Contact } from '../../api/schemas/index.js';
import type { Column } from '../../cli/columns.js';
import { groupsCell } from './export-format.js';

const groupNames = (contact: Contact) => (contact.contact_groups ?? []).map((g) => g.name).join(', ');
/** `VIP (3), News (5)`: the ids are what --group, --add-group and --remove-group take. */
const groupsWithIds = (contact: Contact) => (contact.contact_groups ?? []).map((g) => `${g.name} (${g.id})`).join(', ');
/** One custom field a line: `city: Lisbon`. */
const fieldLines = (contact: Contact) =>
  Object.entries(contact.fields ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

export const contactColumns: Column<Contact>[] = [
  { key: 'id', header: 'ID' },
  { key: 'number', header: 'NUMBER', fixed: true },
  { key: 'name', header: 'NAME' },
  { key: 'email', header: 'EMAIL' },
  { key: 'status', header: 'ACTIVE' },
  { key: 'contact_groups', header: 'GROUPS', get: groupsCell, show: groupNames },
];

export const contactDetailColumns: Column<Contact>[] = [
  { key: 'id', header: 'ID' },
  { key: 'number', header: 'Number' },
  { key: 'name', header: 'Name' },
  { key: 'email', header: 'E-mail' },
  { key: 'gender', header: 'Gender' },
  { key: 'status', header: 'Active' },
  { key: 'contact_groups', header: 'Groups', get: groupsCell, show: groupsWithIds },
  { key: 'fields', header: 'Fields', get: (contact) => contact.fields ?? {}, show: fieldLines },
  { key: 'avatar_url', header: 'Avatar' },
  { key: 'created_at', header: 'Created' },
  { key: 'updated_at', header: 'Updated' },
];

/** How a contact is named in a question: `Ann Lee (id 42, 14155550100)`. */
export const describeContact = (contact: Contact) => `${contact.name} (id ${contact.id}, ${contact.number})`;
