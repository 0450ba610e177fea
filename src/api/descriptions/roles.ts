// Roles: api.md lists and creates them; reading one, changing and deleting are ours.
import * as s from '../schemas/roles.js';
import { CATALOG } from './catalog.js';
import { collectionOperations, withCrudCalls } from './crud.js';
import { collection, describe } from './types.js';

const crud = withCrudCalls(
  'roles',
  collectionOperations(
    CATALOG.roles,
    s.roleRecord,
    { query: s.roleListQuery, create: s.roleCreateBody, update: s.roleUpdateBody },
    {
      extensions: ['get', 'update', 'delete'],
      instead: { get: 'find it in `wsm roles list`' },
    },
  ),
);

export const roles = collection(
  describe(
    'roles',
    CATALOG.roles,
    { record: s.roleRecord },
    {
      ...crud,
      update: {
        ...crud.update,
        description:
          'Sets the name and/or the permissions. A built-in role (`builtin: true`, the Owner role every workspace is created with) ' +
          'cannot be renamed or re-permissioned: 422 naming why; a body repeating what it is changes nothing.',
      },
      delete: {
        ...crud.delete,
        description: 'A built-in role, or a role still assigned to a member, cannot be deleted: 422 naming why.',
        errors: [422],
      },
    },
  ),
  { record: s.roleRecord, create: s.roleCreateBody, update: s.roleUpdateBody },
);
