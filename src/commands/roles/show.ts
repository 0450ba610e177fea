// How roles print, and where the verbs find them on the client.
import type { WsmClient } from '../../api/client.js';
import type { Role } from '../../api/schemas/index.js';
import type { Presentation } from '../shared/crud.js';

export const pick = (client: WsmClient) => client.roles;

export const show: Presentation<Role> = {
  noun: 'role',
  describe: (r) => `${r.name} (id ${r.id}, ${(r.permissions ?? []).length} permissions)`,
  columns: [
    { key: 'id', header: 'ID' },
    { key: 'name', header: 'NAME' },
    { key: 'permissions', header: 'PERMISSIONS', get: (r) => (r.permissions ?? []).length },
  ],
  detail: [
    { key: 'id', header: 'ID' },
    { key: 'name', header: 'Name' },
    { key: 'permissions', header: 'Permissions', get: (r) => (r.permissions ?? []).join(' ') },
    { key: 'created_at', header: 'Created' },
    { key: 'updated_at', header: 'Updated' },
  ],
};
