/**
 * The workspace file of `wsm pull`, `wsm diff` and `wsm apply`: a workspace's configuration as
 * the create bodies of its resources, identified by name (templates by name + language). It is
 * composed from the create schemas the server validates with, so the file is checked exactly as
 * each create would be; `workspaceFileJsonSchema()` turns the same composition into the JSON
 * Schema that wsm ships for editors.
 */
import * as z from 'zod';
import { fieldCreateBody } from './fields.js';
import { groupCreateBody } from './groups.js';
import { labelCreateBody } from './labels.js';
import { ALL_PERMISSIONS, permissionName } from './permissions.js';
import { roleCreateBody } from './roles.js';
import { templateCreateBody } from './templates.js';

/** The sections in dependency order: apply creates and updates in this order, deletes in reverse. */
export const WORKSPACE_SECTIONS = ['fields', 'groups', 'labels', 'roles', 'templates'] as const;
export type WorkspaceSection = (typeof WORKSPACE_SECTIONS)[number];

/** Templates are one per name and language: `order_update/en`. */
export function templateKey(template: { name: string; language: string }): string {
  return `${template.name}/${template.language}`;
}

// Items are strict, unlike request bodies: in a file kept under review, a misspelt `colour:` or
// a stray `id:` must be an error, not a setting silently left out.
const sections = {
  fields: z.array(fieldCreateBody.shape.name).describe('Contact field names: lowercase letters and underscores'),
  groups: z.array(groupCreateBody.shape.name).describe('Contact group names'),
  labels: z.array(labelCreateBody.strict()).describe('Labels: name and optional colour (#rgb or #rrggbb)'),
  roles: z.array(roleCreateBody.strict()).describe('Roles: name and permissions (compared as a set)'),
  templates: z.array(templateCreateBody.strict()).describe('Message templates, exactly as `wsm templates create --file` takes them'),
};

const fileShape = z
  .object({
    $schema: z.string().optional().describe('Where editors find this JSON Schema'),
    ...Object.fromEntries(WORKSPACE_SECTIONS.map((section) => [section, sections[section].optional()])),
  } as { $schema: z.ZodOptional<z.ZodString> } & { [S in WorkspaceSection]: z.ZodOptional<(typeof sections)[S]> })
  .strict()
  .describe('A workspace configuration for `wsm diff` and `wsm apply`. A section left out is not managed.');

type Ctx = z.RefinementCtx;

/** Identity is the name (templates: name + language): two entries with one identity are a mistake. */
function checkUnique(items: unknown[] | undefined, section: WorkspaceSection, keyOf: (item: unknown) => string | undefined, ctx: Ctx) {
  const seen = new Map<string, number>();
  items?.forEach((item, index) => {
    const key = keyOf(item);
    if (key === undefined) return;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else {
      const path = typeof item === 'string' ? [section, index] : [section, index, 'name'];
      ctx.addIssue({ code: 'custom', path, message: `"${key}" is already declared at ${section}.${first}.` });
    }
  });
}

/** A media header is uploaded from a file: in the workspace file, a path relative to it. */
function checkMediaFiles(templates: unknown[] | undefined, ctx: Ctx) {
  templates?.forEach((template, index) => {
    const media = (template as { header?: { type?: unknown; media?: { file?: unknown } } | null }).header;
    if (media?.type !== 'media' || media.media?.file === undefined) return;
    if (typeof media.media.file !== 'string' || media.media.file === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['templates', index, 'header', 'media', 'file'],
        message: 'The file field must be the path of the media file, relative to the workspace file.',
      });
    }
  });
}

const name = (item: unknown) =>
  typeof item === 'string' ? item : typeof (item as { name?: unknown })?.name === 'string' ? (item as { name: string }).name : undefined;

export const workspaceFile = fileShape.superRefine(
  (file, ctx) => {
    for (const section of ['fields', 'groups', 'labels', 'roles'] as const) checkUnique(file[section], section, name, ctx);
    checkUnique(
      file.templates,
      'templates',
      (item) => {
        const t = item as { name?: unknown; language?: unknown };
        return typeof t?.name === 'string' && typeof t.language === 'string'
          ? templateKey({ name: t.name, language: t.language })
          : undefined;
      },
      ctx,
    );
    checkMediaFiles(file.templates, ctx);
  },
  { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
);
export type WorkspaceFileInput = z.input<typeof workspaceFile>;
export type WorkspaceFile = z.output<typeof workspaceFile>;

/** The JSON Schema of the workspace file (draft 2020-12), for editors and other tools. */
export function workspaceFileJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(workspaceFile, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      // The permission check is a refinement, which JSON Schema cannot carry: name the values.
      if (zodSchema === permissionName) jsonSchema.enum = [...ALL_PERMISSIONS];
    },
  });
  return { ...schema, title: 'wsm workspace file' };
}
