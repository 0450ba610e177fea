// What each section of the workspace file means against the API: its identity, the attributes
// that are compared (in one canonical form for the file's entry and the server's record, so
// that a pulled file diffs as identical), and the client calls that read and change it.
import { createdRecord } from '../../api/answers.js';
import { MadeInPart } from './made-in-part.js';
import { resolve } from 'node:path';
import type { z } from 'zod';
import type { WsmClient } from '../../api/client.js';
import type { CrudResource } from '../../api/resources/crud.js';
import {
  ALL_PERMISSIONS,
  templateKey,
  type Label,
  type Role,
  type Template,
  type TemplateCreateBody,
  type WorkspaceFile,
  type WorkspaceSection,
} from '../../api/schemas/index.js';

/** One resource as the plan compares it: its identity and its compared attributes (dotted paths). */
export interface Item {
  key: string;
  attrs: Record<string, unknown>;
  /** Attributes the server did not report: they are not compared (the plan says so). */
  unreported?: string[];
}

/** A resource on the server: its id, its canonical item, and the entry `wsm pull` writes for it. */
export interface Observed extends Item {
  id: number;
  entry: unknown;
  /** The record as the server gave it: the before-image the change journal keeps (observe.ts sets it). */
  record?: unknown;
  /**
   * Made by the server itself and never changed by it (the Owner role): the file neither lists
   * nor prunes it, and an entry naming it is not applied.
   */
  builtIn?: boolean;
}

/** How attributes compare: `set` ignores order and repeats (role permissions). */
type Comparison = 'value' | 'set';

export type Entry<S extends WorkspaceSection> = NonNullable<WorkspaceFile[S]>[number];

export interface SectionSpec<S extends WorkspaceSection = WorkspaceSection> {
  section: S;
  /** Singular noun for messages. */
  noun: string;
  /** Attributes changed in place by an update; a change to any other attribute needs a replacement. */
  updatable: string[];
  comparison: Record<string, Comparison>;
  item(entry: Entry<S>): Item;
  observe(record: unknown): Observed;
  iterate(client: WsmClient): AsyncIterable<unknown>;
  get(client: WsmClient, id: number): Promise<unknown>;
  create(client: WsmClient, entry: Entry<S>, fileDir: string): Promise<{ id: number; record: unknown }>;
  /** The record as the server answered the update (undefined when its answer held none). */
  update(client: WsmClient, id: number, entry: Entry<S>): Promise<unknown>;
  delete(client: WsmClient, id: number): Promise<void>;
  /** The client resource behind the section, which knows its extension operations (templates have none the plan needs). */
  resource?(client: WsmClient): CrudResource<unknown, z.ZodType, z.ZodType>;
}

/** Fields and groups: a name and nothing else, so they are only created or deleted. */
function namedSection<S extends 'fields' | 'groups'>(section: S, noun: string, pick: (client: WsmClient) => WsmClient[S]): SectionSpec<S> {
  return {
    section,
    noun,
    updatable: [],
    comparison: {},
    item: (name) => ({ key: name as string, attrs: {} }),
    observe(record) {
      const { id, name } = record as { id: number; name: string };
      return { id, key: name, attrs: {}, entry: name };
    },
    iterate: (client) => pick(client).list(),
    get: async (client, id) => (await pick(client).get(id)).data,
    async create(client, name) {
      const data = createdRecord(await pick(client).create({ name: name as string }), noun);
      return { id: data.id, record: data };
    },
    async update() {
      throw new Error(`a ${noun} has nothing to update`);
    },
    async delete(client, id) {
      await pick(client).delete(id);
    },
    resource: (client) => pick(client) as CrudResource<unknown, z.ZodType, z.ZodType>,
  };
}

const labels: SectionSpec<'labels'> = {
  section: 'labels',
  noun: 'label',
  updatable: ['color'],
  comparison: { color: 'value' },
  // The published API: a colour omitted on create is null, so a file without one means "no colour".
  item: (entry) => ({ key: entry.name, attrs: { color: entry.color ?? null } }),
  observe(record) {
    const label = record as Label;
    const color = label.color ?? null;
    return { id: label.id, key: label.name, attrs: { color }, entry: color === null ? { name: label.name } : { name: label.name, color } };
  },
  iterate: (client) => client.labels.list(),
  get: async (client, id) => (await client.labels.get(id)).data,
  async create(client, entry) {
    const data = createdRecord(
      await client.labels.create(entry.color == null ? { name: entry.name } : { name: entry.name, color: entry.color }),
      'a label',
    );
    return { id: data.id, record: data };
  },
  async update(client, id, entry) {
    // The name goes along: the published API lists it as required on PUT (and it is the label's identity here).
    return (await client.labels.update(id, { name: entry.name, color: entry.color ?? null })).data;
  },
  async delete(client, id) {
    await client.labels.delete(id);
  },
  resource: (client) => client.labels as CrudResource<unknown, z.ZodType, z.ZodType>,
};

const PERMISSION_ORDER = new Map<string, number>(ALL_PERMISSIONS.map((name, index) => [name, index]));

/** Permissions as a set, in the order of decisions.md §4 (unknown names last, alphabetically). */
function permissionSet(names: readonly string[]): string[] {
  const rank = (name: string) => PERMISSION_ORDER.get(name) ?? ALL_PERMISSIONS.length;
  return [...new Set(names)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The role the server gives every workspace; its permissions follow the workspace's. The server
 * says which role it is (`builtin`, decisions.md §8); one that does not say (the published API)
 * is read by this name.
 */
const OWNER_ROLE = 'Owner';

const roles: SectionSpec<'roles'> = {
  section: 'roles',
  noun: 'role',
  updatable: ['permissions'],
  comparison: { permissions: 'set' },
  item: (entry) => ({ key: entry.name, attrs: { permissions: permissionSet(entry.permissions ?? []) } }),
  observe(record) {
    const role = record as Partial<Role> & { id: number; name: string };
    const builtIn = typeof role.builtin === 'boolean' ? role.builtin : role.name === OWNER_ROLE;
    // The published API does not describe the role record: a server may leave the permissions out.
    if (!Array.isArray(role.permissions))
      return { id: role.id, key: role.name, attrs: {}, unreported: ['permissions'], entry: { name: role.name }, builtIn };
    const permissions = permissionSet(role.permissions);
    return { id: role.id, key: role.name, attrs: { permissions }, entry: { name: role.name, permissions }, builtIn };
  },
  iterate: (client) => client.roles.list(),
  get: async (client, id) => (await client.roles.get(id)).data,
  async create(client, entry) {
    const permissions = permissionSet(entry.permissions ?? []);
    const data = createdRecord(await client.roles.create({ name: entry.name, permissions }), 'a role');
    // Permissions on create are our extension: a server that ignored them gets them by update.
    const given = Array.isArray(data.permissions) ? permissionSet(data.permissions) : [];
    if (given.join() === permissions.join()) return { id: data.id, record: data };
    try {
      const updated = (await client.roles.update(data.id, { permissions })).data;
      return { id: data.id, record: updated ?? { ...data, permissions } };
    } catch (error) {
      throw new MadeInPart(data.id, data, 'without its permissions', error);
    }
  },
  async update(client, id, entry) {
    return (await client.roles.update(id, { permissions: permissionSet(entry.permissions ?? []) })).data;
  },
  async delete(client, id) {
    await client.roles.delete(id);
  },
  resource: (client) => client.roles as CrudResource<unknown, z.ZodType, z.ZodType>,
};

type TemplateEntry = Entry<'templates'>;
const OPTION_FLAGS = ['unsubscribeButton', 'blockButton', 'addSecurityRecommendation', 'copyCodeButton'] as const;

/**
 * A template in the create shape, as the file would hold it: absent, null and empty parts left
 * out, false flags left out (false is the default), a media header by its type only (the file
 * is uploaded, the provider's handle is not ours to compare).
 */
function canonicalTemplate(source: {
  name: string;
  language: string;
  category: string;
  header?: unknown;
  body?: { text: string; variables?: string[]; otp_code?: string } | null;
  footer?: string | null;
  buttons?: unknown[] | null;
  options: Partial<Record<(typeof OPTION_FLAGS)[number], boolean>> & { codeExpirationMinutes?: number };
}): Record<string, unknown> {
  const out: Record<string, unknown> = { name: source.name, language: source.language, category: source.category };
  const header = source.header as
    | { type?: string; text?: { content: string; variables?: string[] }; media?: { type: string } }
    | null
    | undefined;
  if (header?.type === 'text' && header.text) {
    out.header = {
      type: 'text',
      text: { content: header.text.content, ...(header.text.variables?.length ? { variables: header.text.variables } : {}) },
    };
  } else if (header?.type === 'media' && header.media) {
    out.header = { type: 'media', media: { type: header.media.type } };
  }
  if (source.body) {
    const { text, variables, otp_code } = source.body;
    out.body = { text, ...(variables?.length ? { variables } : {}), ...(otp_code !== undefined ? { otp_code } : {}) };
  }
  if (source.footer) out.footer = source.footer;
  if (source.buttons?.length) out.buttons = source.buttons;
  for (const flag of OPTION_FLAGS) if (source.options[flag] === true) out[flag] = true;
  if (source.options.codeExpirationMinutes !== undefined) out.codeExpirationMinutes = source.options.codeExpirationMinutes;
  return out;
}

/** Nested objects become dotted paths (`body.text`); arrays and other values are leaves. */
function flatten(value: Record<string, unknown>, prefix = '', into: Record<string, unknown> = {}): Record<string, unknown> {
  for (const [key, inner] of Object.entries(value)) {
    const path = prefix + key;
    if (inner !== null && typeof inner === 'object' && !Array.isArray(inner)) flatten(inner as Record<string, unknown>, path + '.', into);
    else into[path] = inner;
  }
  return into;
}

function templateItem(canonical: Record<string, unknown>): Item {
  const { name, language, ...content } = canonical;
  return { key: templateKey({ name: name as string, language: language as string }), attrs: flatten(content) };
}

const templates: SectionSpec<'templates'> = {
  section: 'templates',
  noun: 'template',
  updatable: [],
  comparison: {},
  item(entry) {
    const { unsubscribeButton, blockButton, addSecurityRecommendation, codeExpirationMinutes, copyCodeButton, ...rest } = entry;
    return templateItem(
      canonicalTemplate({
        ...rest,
        options: { unsubscribeButton, blockButton, addSecurityRecommendation, codeExpirationMinutes, copyCodeButton },
      }),
    );
  },
  observe(record) {
    const template = record as Template;
    const components = template.components ?? { header: null, body: null, footer: null, buttons: [] };
    const entry = canonicalTemplate({ ...template, ...components, options: template.options ?? {} });
    return { id: template.id, ...templateItem(entry), entry };
  },
  iterate: (client) => client.templates.list(),
  get: async (client, id) => (await client.templates.get(id)).data,
  async create(client, entry, fileDir) {
    const media = mediaFileOf(entry);
    const body = entry as TemplateCreateBody;
    const data = createdRecord(
      media === undefined
        ? await client.templates.create(body)
        : await client.templates.create(body, { headerFile: resolve(fileDir, media) }),
      'a template',
    );
    return { id: data.id, record: data };
  },
  async update() {
    throw new Error('templates cannot be updated: they are replaced');
  },
  async delete(client, id) {
    await client.templates.delete(id);
  },
};

/** The path of a media header's file, as the workspace file gives it. */
export function mediaFileOf(entry: TemplateEntry): string | undefined {
  const header = entry.header;
  if (header?.type !== 'media') return undefined;
  return typeof header.media.file === 'string' ? header.media.file : undefined;
}

export const SECTIONS: { [S in WorkspaceSection]: SectionSpec<S> } = {
  fields: namedSection('fields', 'contact field', (client) => client.fields),
  groups: namedSection('groups', 'contact group', (client) => client.groups),
  labels,
  roles,
  templates,
};

/** One section's spec when the section is only known at run time (entries then come from the file as parsed). */
export function specOf(section: WorkspaceSection): SectionSpec {
  return SECTIONS[section] as unknown as SectionSpec;
}
