// Contact groups: api.md lists and creates them; reading one, renaming and deleting are ours.
import * as s from '../schemas/groups.js';
import { CATALOG } from './catalog.js';
import { collectionOperations } from './crud.js';
import { describe } from './types.js';

export const groups = describe('groups', CATALOG.groups, { record: s.groupRecord }, collectionOperations(CATALOG.groups, s.groupRecord, { query: s.groupListQuery, create: s.groupCreateBody, update: s.groupUpdateBody }, {
  extensions: ['get', 'update', 'delete'],
  instead: { get: 'find it in `wsm groups list`' },
}));
