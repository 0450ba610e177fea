// How roles print, and where the verbs find them on the client. api.md shows no role fields
// beyond `name`: permissions may be names, objects with a `name`, or not sent at all (unknown,
// which is not the same as none).
import { permissionNames } from '../../api/answers.js';
import type { WsmClient } from '../../api/client.js';
import type { Role } from '../../api/schemas/index.js';
import type { Presentation } from '../shared/crud.js';

export const pick = (client: WsmClient) => client.roles;

const permissionsOf = (role: Role) => permissionNames(role.permissions);

export const show: Presentation<Role> = {
  noun: 'role',
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
