// `wsm labels` verbs: how labels print, and each verb's run (declared in ../labels.ts).
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import type { Label } from '../../api/schemas/index.js';
import { create as createSpec, update as updateSpec } from '../labels.js';
import { createRun, deleteCollectionRun, getRun, listRun, updateRun, type Presentation } from '../shared/crud.js';
import type { VerbRun } from '../shared/verb.js';

export const show: Presentation<Label> = {
  resource: DESCRIPTIONS.labels,
  describe: (l) => `${l.name} (id ${l.id})`,
  columns: [
    { key: 'id', header: 'ID' },
    { key: 'name', header: 'NAME' },
    { key: 'color', header: 'COLOR' },
    { key: 'created_at', header: 'CREATED' },
  ],
};

export const list: VerbRun = listRun(show);
export const get: VerbRun = getRun(show);
export const create: VerbRun = createRun(show, createSpec);
export const update: VerbRun = updateRun(show, updateSpec);
export const remove: VerbRun = deleteCollectionRun(show);
