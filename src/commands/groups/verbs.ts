// `wsm groups` verbs: how contact groups print, and each verb's run (declared in ../groups.ts).
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import type { ContactGroup } from '../../api/schemas/index.js';
import { verbs } from '../groups.js';
import type { CollectionRuns } from '../collection.js';
import { collectionRuns, type Presentation } from '../shared/crud.js';

export const show: Presentation<ContactGroup> = {
  resource: DESCRIPTIONS.groups,
  describe: (g) => `${g.name} (id ${g.id}, ${g.contacts_count} contact${g.contacts_count === 1 ? '' : 's'})`,
  columns: [
    { key: 'id', header: 'ID' },
    { key: 'name', header: 'NAME' },
    { key: 'contacts_count', header: 'CONTACTS' },
    { key: 'created_at', header: 'CREATED' },
  ],
};

export const { list, get, create, update, remove }: CollectionRuns = collectionRuns(show, verbs);