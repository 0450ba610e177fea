// Labels: the published API creates, reads and updates them; listing and deleting are ours.
import * as s from '../schemas/labels.js';
import { plainCollection } from './crud.js';

export const labels = plainCollection(
  'labels',
  { record: s.labelRecord, query: s.labelListQuery, create: s.labelCreateBody, update: s.labelUpdateBody },
  {
    unique: 'name',
    extensions: ['list', 'delete'],
    instead: { list: 'keep the ids that `wsm labels create -q` prints and read each with `wsm labels get <id>`' },
  },
  { update: { description: 'Sets the name and/or the colour; contacts keep the label.', sendsCurrent: ['name'] } },
);
