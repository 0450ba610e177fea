// `wsm fields` verbs: how contact fields print, and each verb's run (declared in ../fields.ts).
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import type { ContactField } from '../../api/schemas/index.js';
import { create as createSpec, update as updateSpec } from '../fields.js';
import { createRun, deleteCollectionRun, getRun, listRun, updateRun, type Presentation } from '../shared/crud.js';
import type { VerbRun } from '../shared/verb.js';

export const show: Presentation<ContactField> = {
  resource: DESCRIPTIONS.fields,
  describe: (f) => `${f.name} (id ${f.id})`,
  columns: [
    { key: 'id', header: 'ID' },
    { key: 'name', header: 'NAME' },
    { key: 'created_at', header: 'CREATED' },
  ],
};

export const list: VerbRun = listRun(show);
export const get: VerbRun = getRun(show);
export const create: VerbRun = createRun(show, createSpec);
export const update: VerbRun = updateRun(show, updateSpec);
export const remove: VerbRun = deleteCollectionRun(show);
