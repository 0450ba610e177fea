// What the server and its tools say to an agent as a whole, written for one: never a wsm command
// it cannot run, never the HTTP forms it does not see. An argument is described on its zod field
// (src/api/schemas, or a tool's own argument), not here. The operations' summaries (shared with
// the OpenAPI document and the CLI) are a tool's default description; these take their place where
// they speak of the CLI or of multipart forms.
// test/cli/mcp-descriptions.test.ts fails on an undescribed property or a command in any text.

import { CATALOG, type ResourceIdentity } from '../api/descriptions/catalog.js';

/** The workspace's resources, as the catalog lists them: those with permissions of their own. */
const RESOURCES = Object.values(CATALOG as Record<string, ResourceIdentity>).flatMap((identity) =>
  identity.permissionGroup ? [identity.cli] : [],
);

/** The server's instructions: what holds for every tool, said once rather than in each. */
export const INSTRUCTIONS =
  `Administers one Workspace Messaging workspace (${RESOURCES.join(', ')}). ` +
  'Lists return one page: pass next_cursor back as cursor for the next; `fields` keeps only the fields named of each row. ' +
  'Deletes and bulk changes need confirm: true (without it nothing is done and the tool says what it would do). ' +
  'workspace_file.diff plans a workspace file against the workspace, workspace_file.apply makes that plan. ' +
  'A failed call is an error whose text ends with the exit code and its meaning (2 bad input, nothing sent; 3 not permitted; ' +
  '4 not found; 5 rejected, with the fields at fault; 6 unavailable, try later). ' +
  'Tools marked "Extension" need a server with wsm\'s extensions: the hosted service answers them "this server does not support …"; ' +
  'there, find a record by id through the list tools instead.';

/** A tool's description in place of the one its operation gives (keyed by tool name). */
export const TOOL_DESCRIPTIONS: Record<string, string> = {
  'contacts.create':
    'Create a contact. Returns the contact created (id, number as stored: digits only, groups, custom field values). ' +
    'A number already in the workspace is refused (exit 5).',
  'contacts.update':
    'Update a contact: only the arguments given change (the name is kept when not given). contact_groups replaces every group; [] takes the contact out of all.',
  'contacts.list':
    'List contacts. `search`: part of the name, number or e-mail (a number is found however it is written). ' +
    '`field_values`: custom field values held exactly (all); a server without that extension has every contact read and filtered here, and `note` says so.',
  'contacts.get': 'Get one contact by id (Extension).',
  'fields.get': 'Get one contact field by id (Extension).',
  'fields.update': 'Rename a contact field (Extension; elsewhere delete it and create it under the new name).',
  'groups.get': 'Get one contact group by id (Extension).',
  'groups.update': 'Rename a contact group (Extension).',
  'groups.delete': 'Delete a contact group; its contacts stay (Extension).',
  'imports.get': 'Get a contact import: status, processed_rows of total_rows, failures (Extension).',
  'imports.errors':
    'Every error of a contact import, in file order: `row` (spreadsheet row, header = 1), `line`, `failed` (false for a note such as a column ignored) (Extension).',
  'labels.list': 'List labels (Extension; elsewhere keep the ids labels.create returns and read each with labels.get).',
  'labels.delete': 'Delete a label (Extension).',
  'roles.get': 'Get one role by id (Extension).',
  'roles.delete': 'Delete a role. A built-in role, or a role still assigned to a member, cannot be deleted: exit 5 naming why (Extension).',
  'roles.update':
    'Change a role: its name and/or its permissions (the whole list). The built-in Owner role cannot be changed: exit 5 naming why (Extension).',
  'templates.create':
    'Create a message template; it is submitted to the provider for review and starts PENDING (follow it with templates.sync). ' +
    'A media header (image, video, document) needs a file upload, which a tool call cannot carry: give a text header or none.',
  'templates.list':
    'List templates, a page at a time, filtered by status, category and part of the name (Extension; elsewhere read each with templates.get).',
  'users.create': 'Create a user who joins this workspace with the role given (Extension).',
  'users.update':
    "Update a user: role and status in this workspace; name, e-mail, time zone, password (another person's need users.manage wherever they belong). " +
    'Nobody changes their own role or status; a refusal is exit 3 naming why.',
  'users.get': 'Get one user by id (Extension).',
  'workspaces.create': 'Create a workspace; the caller becomes its owner (Extension).',
  'permissions.list':
    'List the permission names a role can hold, grouped by what they govern: [{"contacts": ["contacts.view", ...]}, ...].',
};
