// The permissions enabled in a workspace, and the defaults of partner workspaces created later.
import * as s from '../schemas/permissions.js';
import { CATALOG } from './catalog.js';
import { WORKSPACE } from './crud.js';
import { can, describe, sends } from './types.js';

export const permissions = describe(
  'permissions',
  CATALOG.permissions,
  {},
  {
    list: {
      method: 'GET',
      path: `${WORKSPACE}/permissions`,
      access: can('permissions.view'),
      summary: 'List the permissions enabled in a workspace',
      description: 'Grouped by what they govern: `[{contacts: ["contacts.view", ...]}, ...]`.',
      response: s.permissionsListResponse,
      client: (client, { options }) => client.permissions.list(options),
    },
    getPartnerDefaults: {
      method: 'GET',
      path: '/workspaces/partner/permissions',
      access: 'partner',
      published: false,
      summary: 'Get the default permissions of new partner workspaces',
      description: 'Partner users only. Every permission until PATCH has set a list.',
      response: s.partnerPermissionsDefaults,
      // Read back by whoever set it; the CLI sets the list, and `permissions list` shows a workspace's.
      verb: null,
      client: null,
    },
    setPartnerDefaults: {
      method: 'PATCH',
      path: '/workspaces/partner/permissions',
      access: 'partner',
      summary: 'Set the default permissions of new partner workspaces',
      description: 'Partner users only. Replaces the whole list; names come from the permissions listing.',
      ...sends(s.partnerPermissionsBody, (client, { body, options }) => client.permissions.setPartnerDefaults(body.permissions, options)),
      response: s.partnerPermissionsResponse,
      verb: 'permissions set',
    },
  },
);
