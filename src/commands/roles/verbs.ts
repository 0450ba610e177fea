// `wsm roles` verbs: how roles print, and each verb's run (declared in ../roles.ts). api.md shows
// no role fields beyond `name`: permissions may be names, objects with a `name`, or not sent at all
// (unknown, which is not the same as none).
import { permissionNames } from '../../api/answers.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import type { Role } from '../../api/schemas/index.js';
import { verbs } from '../roles.js';
import type { CollectionRuns } from '../collection.js';
import { collectionRuns, type Presentation } from '../shared/crud.js';

const permissionsOf = (role: Role) => permissionNames(role.permissions);

export const show: Presentation<Role> = {
  resource: DESCRIPTIONS.roles,
  describe: (r) => `${r.name} (id ${r.id}, ${(r.permissions ?? []).length} permissions)`,
  columns: [
    { key: 'id', header: 'ID' },
    { key: 'name', header: 'NAME' },
    { key: 'permissions', header: 'PERMISSIONS', get: (r) => permissionsOf(r)?.length ?? 'unknown' },
  ],
  detail: [
    { key: 'id', header: 'ID' },
    { key: 'name', header: 'Name' },
    { key: 'permissions', header: 'Permissions', get: (r) => permissionsOf(r), show: (r) => permissionsOf(r)?.join(' ') ?? 'unknown' },
    { key: 'created_at', header: 'Created' },
    { key: 'updated_at', header: 'Updated' },
  ],
};

export const { list, get, create, update, remove }: CollectionRuns = collectionRuns(show, verbs);