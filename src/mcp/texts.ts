// What the tools say to an agent, written for one: what each argument is, its units, and where its
// value comes from ("ids from groups.list"); never a wsm command it cannot run, never the HTTP
// forms it does not see. The API's descriptions (shared with the OpenAPI document and the CLI)
// are the default; these take their place where they speak of the CLI or of multipart forms.
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

/** An argument's description, by `<tool>.<argument>` first, then by `<argument>` alone. */
export const ARGUMENT_DESCRIPTIONS: Record<string, string> = {
  // contacts
  'contacts.create.number': 'Phone number, with or without + and separators (+351 912 345 601); stored as its 7 to 15 digits.',
  'contacts.create.name': 'Display name, at most 50 characters (default "Unknown").',
  email: 'E-mail address, or null to clear it.',
  gender: 'male, female or other; null clears it.',
  'contacts.create.status': 'Active (true, the default) or inactive (false).',
  'contacts.update.status': 'Active (true) or inactive (false).',
  contact_groups: 'Ids of contact groups (from groups.list) the contact is in; replaces every group, [] for none.',
  'contacts.create.fields': 'Custom field values by field name (names from fields.list): {"city": "Lisbon"}.',
  'contacts.update.fields': 'Custom field values to set, by field name (names from fields.list); an empty value removes the field.',
  'contacts.update.name': 'New display name, at most 50 characters; kept when not given.',
  'contacts.list.search': 'Part of the name, number or e-mail, in any case.',
  'contacts.list.field_values':
    'Custom field values the contacts must hold exactly, by field name (names from fields.list): {"city": "Lisbon"}.',
  // plain collections
  'fields.create.name': 'Name of the new contact field (how contacts.create and field_values name it).',
  'fields.update.name': 'New name of the field.',
  'groups.create.name': 'Name of the new contact group.',
  'groups.update.name': 'New name of the group.',
  'labels.create.name': 'Name of the new label.',
  'labels.update.name': 'New name of the label.',
  color: 'Hex colour such as #1a2b3c.',
  // roles and permissions
  'roles.create.name': 'Name of the new role.',
  'roles.update.name': 'New name of the role.',
  permissions: 'Permission names (from permissions.list), the whole list.',
  // templates
  'templates.create.name': 'Template name: lowercase letters and underscores (order_update).',
  'templates.create.language': 'Language code such as en or pt_BR.',
  'templates.create.category': 'MARKETING, UTILITY or AUTHENTICATION.',
  'templates.create.header': 'Optional text header; a media header cannot be sent by a tool call.',
  'templates.create.body': 'The message (AUTHENTICATION templates take the code settings below instead).',
  'templates.create.footer': 'Footer text without emojis, or null.',
  'templates.create.buttons': 'Up to 3 buttons: URL, PHONE_NUMBER or QUICK_REPLY.',
  'templates.create.unsubscribeButton': 'MARKETING: add an unsubscribe button.',
  'templates.create.blockButton': 'MARKETING: add a block button.',
  'templates.create.addSecurityRecommendation': 'AUTHENTICATION: add the security recommendation to the code message.',
  'templates.create.codeExpirationMinutes': 'AUTHENTICATION: minutes the code stays valid, 1 to 1440.',
  'templates.create.copyCodeButton': 'AUTHENTICATION: add a copy-code button.',
  'templates.list.status': 'Only templates in this review status.',
  'templates.list.category': 'Only templates of this category.',
  'templates.list.search': 'Part of the template name.',
  // users
  'users.create.name': 'Full name of the user.',
  'users.create.email': 'E-mail address the user signs in with.',
  password: 'Password, at least 8 characters.',
  confirm_password: 'The same password again, when changing it.',
  role_id: 'Id of the role (from roles.list) the user holds in this workspace.',
  timezone: 'IANA time zone such as Europe/Lisbon.',
  'users.update.name': 'New full name.',
  'users.update.email': 'New e-mail address.',
  'users.update.status': 'Active (true) or deactivated (false) in this workspace.',
  'users.update.client': 'Whether the user is a client (true) rather than staff.',
  // workspaces
  'workspaces.create.name': 'Name of the new workspace.',
};
