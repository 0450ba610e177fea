// `wsm fields` verbs: how contact fields print, and each verb's run (declared in ../fields.ts).
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import type { ContactField } from '../../api/schemas/index.js';
import { verbs } from '../fields.js';
import type { CollectionRuns } from '../collection.js';
import { collectionRuns, type Presentation } from '../shared/crud.js';

export const show: Presentation<ContactField> = {
  resource: DESCRIPTIONS.fields,
  describe: (f) => `${f.name} (id ${f.id})`,
  columns: [
    { key: 'id', header: 'ID' },
    { key: 'name', header: 'NAME' },
    { key: 'created_at', header: 'CREATED' },
  ],
};

export const { list, get, create, update, remove }: CollectionRuns = collectionRuns(show, verbs);