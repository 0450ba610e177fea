// How users print.
import type { User } from '../../api/schemas/index.js';
import type { Column } from '../../cli/columns.js';

export const userColumns: Column<User>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'NAME' },
  { key: 'email', header: 'EMAIL' },
  { key: 'role.name', header: 'ROLE' },
  { key: 'status', header: 'ACTIVE' },
  { key: 'client', header: 'CLIENT' },
];

export const userDetailColumns: Column<User>[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'Name' },
  { key: 'email', header: 'E-mail' },
  { key: 'role', header: 'Role', show: (u) => (u.role ? `${u.role.name} (${u.role.id})` : '') },
  { key: 'timezone', header: 'Time zone' },
  { key: 'status', header: 'Active' },
  { key: 'client', header: 'Client' },
  { key: 'avatar_url', header: 'Avatar' },
  { key: 'created_at', header: 'Created' },
  { key: 'updated_at', header: 'Updated' },
];

/** The user body's fields as users type them, for the server's field errors. */
export const USER_FLAGS: Record<string, string> = {
  name: '--name',
  email: '--email',
  password: '--password',
  confirm_password: '--password',
  role_id: '--role',
  timezone: '--timezone',
  status: '--active/--inactive',
  client: '--client',
  avatar: '--avatar',
};
