// Users of a workspace: the published API lists them and updates one (a multipart form); reading one and creating are ours.
import * as s from '../schemas/users.js';
import { CATALOG } from './catalog.js';
import { collectionOperations } from './crud.js';
import { describe, sends } from './types.js';

const crud = collectionOperations(
  CATALOG.users,
  s.userRecord,
  { query: s.userListQuery, create: s.userCreateBody },
  {
    // The update is a form of its own (below); no user is deleted through the API (decisions.md §4).
    has: ['list', 'get', 'create'],
    extensions: ['get', 'create'],
    instead: { get: 'find it in `wsm users list`' },
  },
);

export const users = describe(
  'users',
  CATALOG.users,
  { record: s.userRecord },
  {
    list: { ...crud.list, client: (client, { query, options }) => client.users.list(query, options) },
    get: { ...crud.get, unsupported: 'getting one user', client: (client, { id, options }) => client.users.get(id, options) },
    create: {
      ...crud.create,
      ...sends(s.userCreateBody, (client, { body, options }) => client.users.create(body, options)),
      summary: 'Create a user in the workspace',
      description: 'The user joins this workspace with the role given.',
      unsupported: 'creating users',
    },
    update: {
      method: 'POST',
      path: crud.get.path,
      access: { permission: 'users.update' },
      summary: 'Update a user',
      description:
        'Role and status belong to the membership in this workspace: an owner of the workspace changes them for anyone else; ' +
        'a holder of `users.manage` for a member whose permissions here it covers (never an owner). What belongs to the person ' +
        '(password, e-mail, name, time zone, avatar) is changed by someone else only when that holds in every workspace the ' +
        "person belongs to (403 naming why otherwise), a partner's only by a partner; password and e-mail need `users.manage`. " +
        'Nobody changes their own role or status; a role given must hold only permissions the caller holds, and only an owner ' +
        "gives the built-in role. A new password revokes the user's other tokens. A deactivated member gets 403 in this " +
        'workspace only; a user with no active membership left, 401 everywhere.',
      ...sends(s.userUpdateBody, (client, { id, body, files, options }) =>
        client.users.update(id, body, { avatar: files.avatar }, options),
      ),
      multipart: true,
      files: ['avatar', 'avatar.0', 'avatar.1'],
      fileParts: 3,
      response: s.userUpdatedResponse,
      errors: [413],
      hints: { destructive: true, idempotent: true },
    },
  },
);
