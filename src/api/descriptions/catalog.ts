// Who each resource is, in words: the part of its description that start-up needs (the top-level
// help's summaries, the resource names) and error messages need (status sentences). No schema
// here, and no static import: `wsm contacts --help` reads this without loading zod. Each
// resource's operations and schemas are in ./<resource>.ts, which spreads its identity from here
// and is loaded on first use (`descriptionOf`): `wsm contacts list` builds the contacts schemas alone.
import type { PermissionGroup } from './permission-groups.js';
import type { ResourceDescription } from './types.js';

export interface ResourceIdentity {
  /** The CLI command (`wsm groups …`), or undefined where the CLI has none. */
  cli?: string;
  /** One line for `wsm --help`. */
  summary?: string;
  /** The singular noun in the client's and the verbs' messages (`contact group`). */
  noun: string;
  /** Its path segment: under the workspace (`contact-groups`), or from the root (`workspaces`). */
  segment: string;
  /** The name of the record's path parameter (`{group}`), when it has records by id. */
  idParam?: string;
  /** The group of its permissions (decisions.md §4): `contact_groups` for `contact_groups.view`. */
  permissionGroup?: PermissionGroup;
  /** The OpenAPI tag and its description. */
  tag: string;
  tagDescription: string;
  /** How a status sentence names it, as the CLI does (`group 4 not found`, `may not delete groups`). */
  sentence?: readonly [singular: string, plural: string];
  /**
   * A plain collection (list, get, create, update, delete of records with a name unique in the
   * workspace), the one fact every side reads: the client's property is the CRUD resource typed by
   * its description (types.ts `collection`), its commands are its entry in commands/collections.ts,
   * and the server serves it from its description (collectionRoutes) unless routes/index.ts gives it
   * rules of its own. Without it, a resource has its own client class, command module and route
   * plugin. test/api/one-kind.test.ts fails where a side disagrees.
   */
  collection?: true;
  /** False where no agent should drive it (`wsm mcp` offers no tools): its own token, raw file downloads. */
  agents?: false;
}

export const CATALOG = {
  auth: {
    cli: 'auth',
    summary: 'log in to a server and check the saved credentials',
    noun: 'token',
    segment: 'auth',
    agents: false,
    tag: 'Auth',
    tagDescription: 'Bearer tokens and the calling user (extensions of the embedded server).',
  },
  workspaces: {
    cli: 'workspace',
    summary: 'the workspace in use, the ones you can reach, or a new one',
    noun: 'workspace',
    segment: 'workspaces',
    tag: 'Workspaces',
    tagDescription: 'Workspaces and their permissions.',
  },
  permissions: {
    cli: 'permissions',
    summary: 'workspace permissions and the partner defaults',
    noun: 'permission',
    segment: 'permissions',
    tag: 'Workspaces',
    tagDescription: 'Workspaces and their permissions.',
    sentence: ['permission', 'permissions'],
  },
  contacts: {
    cli: 'contacts',
    summary: 'list, create, update, import and export contacts',
    noun: 'contact',
    segment: 'contacts',
    idParam: 'contact',
    permissionGroup: 'contacts',
    tag: 'Contacts',
    tagDescription: 'Contacts, identified by their phone number.',
    sentence: ['contact', 'contacts'],
  },
  groups: {
    cli: 'groups',
    summary: 'contact groups',
    noun: 'contact group',
    segment: 'contact-groups',
    idParam: 'group',
    collection: true,
    permissionGroup: 'contact_groups',
    tag: 'Contact groups',
    tagDescription: 'Named groups of contacts.',
    sentence: ['group', 'groups'],
  },
  fields: {
    cli: 'fields',
    summary: 'custom contact fields (lowercase letters and underscores)',
    noun: 'contact field',
    segment: 'contact-fields',
    idParam: 'field',
    collection: true,
    permissionGroup: 'contact_fields',
    tag: 'Contact fields',
    tagDescription: 'Custom field definitions for contacts.',
    sentence: ['field', 'fields'],
  },
  imports: {
    cli: 'imports',
    summary: 'contact imports: upload CSV files and follow their progress',
    noun: 'contact import',
    segment: 'contact-imports',
    idParam: 'import',
    permissionGroup: 'contact_imports',
    tag: 'Contact imports',
    tagDescription: 'CSV imports of contacts, processed in the background.',
    sentence: ['import', 'imports'],
  },
  labels: {
    cli: 'labels',
    summary: 'labels that categorise contacts',
    noun: 'label',
    segment: 'labels',
    idParam: 'label',
    collection: true,
    permissionGroup: 'labels',
    tag: 'Labels',
    tagDescription: 'Labels that categorise contacts.',
    sentence: ['label', 'labels'],
  },
  roles: {
    cli: 'roles',
    summary: 'roles: the permissions a member has in the workspace',
    noun: 'role',
    segment: 'roles',
    idParam: 'role',
    collection: true,
    permissionGroup: 'roles',
    tag: 'Roles',
    tagDescription: 'Roles and the permissions they grant.',
    sentence: ['role', 'roles'],
  },
  users: {
    cli: 'users',
    summary: 'users of the workspace',
    noun: 'user',
    segment: 'users',
    idParam: 'user',
    permissionGroup: 'users',
    tag: 'Users',
    tagDescription: 'Users who are members of a workspace.',
    sentence: ['user', 'users'],
  },
  templates: {
    cli: 'templates',
    summary: 'message templates: create, validate offline, sync approval statuses',
    noun: 'template',
    segment: 'templates',
    idParam: 'template',
    permissionGroup: 'templates',
    tag: 'Templates',
    tagDescription: 'Message templates submitted to the template provider for approval.',
    sentence: ['template', 'templates'],
  },
  files: {
    noun: 'file',
    segment: 'files',
    idParam: 'file',
    agents: false,
    tag: 'Files',
    tagDescription: 'Stored uploads such as avatars.',
  },
} as const satisfies Record<string, ResourceIdentity>;

export type ResourceKey = keyof typeof CATALOG;

/** The CLI name of each plain collection (`collection: true`): the keys commands/collections.ts must have, no more, no fewer. */
export type CollectionCli = {
  [K in ResourceKey]: (typeof CATALOG)[K] extends { collection: true; cli: infer C extends string } ? C : never;
}[ResourceKey];

/** The resources, in the order above (the order of DESCRIPTIONS, the OpenAPI tags and the MCP tools). */
export const RESOURCE_KEYS = Object.keys(CATALOG) as ResourceKey[];

/** The resources `wsm mcp` makes tools of, each a toolset of its own, alphabetically (as `--toolsets` lists them). */
export const AGENT_RESOURCES: readonly ResourceKey[] = RESOURCE_KEYS.filter(
  (key) => (CATALOG[key] as ResourceIdentity).agents !== false,
).sort();

/** Each resource's description module, imported when first used (a chunk of its own in the bundle). */
const MODULES = {
  auth: async () => (await import('./auth.js')).auth,
  workspaces: async () => (await import('./workspaces.js')).workspaces,
  permissions: async () => (await import('./permissions.js')).permissions,
  contacts: async () => (await import('./contacts.js')).contacts,
  groups: async () => (await import('./groups.js')).groups,
  fields: async () => (await import('./fields.js')).fields,
  imports: async () => (await import('./imports.js')).imports,
  labels: async () => (await import('./labels.js')).labels,
  roles: async () => (await import('./roles.js')).roles,
  users: async () => (await import('./users.js')).users,
  templates: async () => (await import('./templates.js')).templates,
  files: async () => (await import('./files.js')).files,
} satisfies Record<ResourceKey, () => Promise<ResourceDescription>>;

/** The description of `key`, with its own type (a plain collection's carries its record's). */
export type DescriptionOf<K extends ResourceKey> = Awaited<ReturnType<(typeof MODULES)[K]>>;

const loaded = new Map<ResourceKey, Promise<ResourceDescription>>();

/** A resource's description: its module is loaded (and its zod schemas built) once, on first use. */
export function descriptionOf(key: ResourceKey): Promise<ResourceDescription> {
  let description = loaded.get(key);
  if (description === undefined) loaded.set(key, (description = MODULES[key]()));
  return description;
}
