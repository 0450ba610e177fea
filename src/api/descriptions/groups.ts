// Contact groups: api.md lists and creates them; reading one, renaming and deleting are ours.
import * as s from '../schemas/groups.js';
import { CATALOG } from './catalog.js';
import { collectionOperations, withCrudCalls } from './crud.js';
import { collection, describe } from './types.js';

const crud = withCrudCalls(
  'groups',
  collectionOperations(
    CATALOG.groups,
    s.groupRecord,
    { query: s.groupListQuery, create: s.groupCreateBody, update: s.groupUpdateBody },
    {
      extensions: ['get', 'update', 'delete'],
      instead: { get: 'find it in `wsm groups list`' },
    },
  ),
);

export const groups = collection(describe('groups', CATALOG.groups, { record: s.groupRecord }, crud), {
  record: s.groupRecord,
  create: s.groupCreateBody,
  update: s.groupUpdateBody,
});
