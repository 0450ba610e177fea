// How contacts print: the list keeps to what fits a terminal row, `get` shows every field.
import type { Contact } from '../../api/schemas/index.js';
import type { Column } from '../../cli/output.js';

const groupNames = (contact: Contact) => (contact.contact_groups ?? []).map((g) => g.name).join(', ');

export const contactColumns: Column<Contact>[] = [
  { key: 'id', header: 'ID' },
  { key: 'number', header: 'NUMBER', fixed: true },
  { key: 'name', header: 'NAME' },
  { key: 'email', header: 'EMAIL' },
  { key: 'status', header: 'ACTIVE' },
  { key: 'contact_groups', header: 'GROUPS', get: groupNames },
];

export const contactDetailColumns: Column<Contact>[] = [
  { key: 'id', header: 'ID' },
  { key: 'number', header: 'Number' },
  { key: 'name', header: 'Name' },
  { key: 'email', header: 'E-mail' },
  { key: 'gender', header: 'Gender' },
  { key: 'status', header: 'Active' },
  { key: 'contact_groups', header: 'Groups', get: groupNames },
  { key: 'fields', header: 'Fields' },
  { key: 'avatar_url', header: 'Avatar' },
  { key: 'created_at', header: 'Created' },
  { key: 'updated_at', header: 'Updated' },
];

/** How a contact is named in a question: `Ann Lee (id 42, 14155550100)`. */
export const describeContact = (contact: Contact) => `${contact.name} (id ${contact.id}, ${contact.number})`;
