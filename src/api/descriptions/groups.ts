// Contact groups: the published API lists and creates them; reading one, renaming and deleting are ours.
import * as s from '../schemas/groups.js';
import { plainCollection } from './crud.js';

export const groups = plainCollection(
  'groups',
  { record: s.groupRecord, query: s.groupListQuery, create: s.groupCreateBody, update: s.groupUpdateBody },
  {
    unique: 'name',
    extensions: ['get', 'update', 'delete'],
    instead: { get: 'find it in `wsm groups list`' },
  },
);
