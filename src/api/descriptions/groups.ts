// Contact groups: api.md lists and creates them; reading one, renaming and deleting are ours.
import * as s from '../schemas/index.js';
import { CATALOG } from './catalog.js';
import { collectionOperations } from './crud.js';
import { describe } from './types.js';

export const groups = describe('groups', CATALOG.groups, { record: s.groupRecord }, collectionOperations({
  identity: CATALOG.groups,
  permissions: { group: 'contact_groups' },
  schemas: {
    query: s.groupListQuery,
    list: s.groupListResponse,
    one: s.groupResponse,
    create: s.groupCreateBody,
    created: s.groupCreatedResponse,
    update: s.groupUpdateBody,
    updated: s.groupUpdatedResponse,
    deleted: s.deleted,
  },
  extensions: ['get', 'update', 'delete'],
  instead: { get: 'find it in `wsm groups list`' },
}));
