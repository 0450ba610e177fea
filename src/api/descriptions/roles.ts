// Roles: the published API lists and creates them; reading one, changing and deleting are ours.
import * as s from '../schemas/roles.js';
import { plainCollection } from './crud.js';

export const roles = plainCollection(
  'roles',
  { record: s.roleRecord, query: s.roleListQuery, create: s.roleCreateBody, update: s.roleUpdateBody },
  {
    unique: 'name',
    extensions: ['get', 'update', 'delete'],
    instead: { get: 'find it in `wsm roles list`' },
  },
  {
    update: {
      description:
        'Sets the name and/or the permissions. A built-in role (`builtin: true`, the Owner role every workspace is created with) ' +
        'cannot be renamed or re-permissioned: 422 naming why; a body repeating what it is changes nothing.',
    },
    delete: {
      description: 'A built-in role, or a role still assigned to a member, cannot be deleted: 422 naming why.',
      errors: [422],
    },
  },
);
