// The workspace itself (the published API) and creating one (an extension: the caller becomes its owner).
import * as s from '../schemas/workspaces.js';
import { CATALOG } from './catalog.js';
import { WORKSPACE } from './crud.js';
import { can, describe, sends } from './types.js';

export const workspaces = describe(
  'workspaces',
  CATALOG.workspaces,
  { record: s.workspaceRecord },
  {
    get: {
      method: 'GET',
      path: WORKSPACE,
      access: can('workspace.view'),
      summary: 'Get a workspace',
      response: s.workspaceResponse,
      client: (client, { options }) => client.workspaces.get(options),
    },
    create: {
      method: 'POST',
      path: '/workspaces',
      published: false,
      summary: 'Create a workspace',
      description: 'The caller becomes its owner, with the built-in Owner role.',
      ...sends(s.workspaceCreateBody, (client, { body, options }) => client.workspaces.create(body.name, options)),
      response: s.workspaceCreatedResponse,
      status: 201,
      unsupported: 'creating workspaces',
    },
  },
);
