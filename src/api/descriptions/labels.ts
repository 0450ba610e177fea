// Labels: api.md creates, reads and updates them; listing and deleting are ours.
import * as s from '../schemas/labels.js';
import { CATALOG } from './catalog.js';
import { collectionOperations, withCrudCalls } from './crud.js';
import { collection, describe } from './types.js';

const crud = withCrudCalls(
  'labels',
  collectionOperations(
    CATALOG.labels,
    s.labelRecord,
    { query: s.labelListQuery, create: s.labelCreateBody, update: s.labelUpdateBody },
    {
      extensions: ['list', 'delete'],
      instead: { list: 'keep the ids that `wsm labels create -q` prints and read each with `wsm labels get <id>`' },
    },
  ),
);

export const labels = collection(
  describe(
    'labels',
    CATALOG.labels,
    { record: s.labelRecord },
    {
      ...crud,
      update: { ...crud.update, description: 'Sets the name and/or the colour; contacts keep the label.', sendsCurrent: ['name'] },
    },
  ),
  { record: s.labelRecord, create: s.labelCreateBody, update: s.labelUpdateBody },
);
