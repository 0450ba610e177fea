// How contact groups print, and where the verbs find them on the client.
import type { WsmClient } from '../../api/client.js';
import type { ContactGroup } from '../../api/schemas/index.js';
import type { Presentation } from '../shared/crud.js';

export const pick = (client: WsmClient) => client.groups;

export const show: Presentation<ContactGroup> = {
  noun: 'contact group',
  describe: (g) => `${g.name} (id ${g.id}, ${g.contacts_count} contact${g.contacts_count === 1 ? '' : 's'})`,
  columns: [
    { key: 'id', header: 'ID' },
    { key: 'name', header: 'NAME' },
    { key: 'contacts_count', header: 'CONTACTS' },
    { key: 'created_at', header: 'CREATED' },
  ],
};
