// `wsm groups` verbs: how contact groups print, and each verb's run (declared in ../groups.ts).
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import type { ContactGroup } from '../../api/schemas/index.js';
import { create as createSpec, update as updateSpec } from '../groups.js';
import { createRun, deleteCollectionRun, getRun, listRun, updateRun, type Presentation } from '../shared/crud.js';
import type { VerbRun } from '../shared/verb.js';

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

export const list: VerbRun = listRun(show);
export const get: VerbRun = getRun(show);
export const create: VerbRun = createRun(show, createSpec);
export const update: VerbRun = updateRun(show, updateSpec);
export const remove: VerbRun = deleteCollectionRun(show);
