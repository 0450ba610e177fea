// `wsm labels` verbs: how labels print, and each verb's run (declared in ../labels.ts).
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import type { Label } from '../../api/schemas/index.js';
import { verbs } from '../labels.js';
import type { CollectionRuns } from '../collection.js';
import { collectionRuns, type Presentation } from '../shared/crud.js';

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

export const { list, get, create, update, remove }: CollectionRuns = collectionRuns(show, verbs);