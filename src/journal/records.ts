// What the journal keeps of a change: who made it where (the meta), and per record its kind, id
// and its values before and after. A contact's values are kept whole (number, name, e-mail,
// gender, status, custom fields, groups by id and name), so a deleted contact can be made again;
// any other resource's record is kept as the server answered it (resource-image.ts), under the key
// of its description (`roles`, `permissions`).
import * as z from 'zod';
import { RESOURCE_KEYS, type ResourceKey } from '../api/descriptions/catalog.js';
import type { Contact } from '../api/schemas/index.js';
import type { ContactState } from '../commands/contacts/plan.js';
import { type ResourceImage, resourceImageSchema } from './resource-image.js';

/** Ids by the resource each names. */
export type FailedIds = Partial<Record<ResourceKey, number[]>>;

/** A contact's values as the journal keeps them. */
export interface ContactImage {
  id: number;
  number: string;
  name: string;
  email: string | null;
  gender: string | null;
  status: boolean;
  fields: Record<string, string>;
  contact_groups: Array<{ id: number; name: string }>;
}

export type RecordOp = 'create' | 'update' | 'delete';

/** One contact a change touched: before is null for a create, after for a delete. */
export interface ContactRecord {
  kind: 'contact';
  op: RecordOp;
  id: number | null;
  /** The number a record is known by where its id is not (an import's new contact). */
  number?: string;
  before: ContactImage | null;
  after: ContactImage | null;
  /**
   * An import's contact (after null): its values as the import's rows leave them, predicted from
   * the rows sent, never read back. Groups by name; the contact (a new one has no id here) is found
   * by its number when undone.
   */
  predicted?: ContactState;
  /** Why no before-image was taken, said at the time of the change. */
  unknown?: string;
}

/**
 * One record of another resource a change touched: a label, a role, a user, a template, an
 * import, the partner defaults (id null: one set per partner, no record of its own). Written
 * only once its request succeeded. before is null for a create, after for a delete.
 */
export interface ResourceRecord {
  kind: 'resource';
  /** The key of the resource's description (src/api/descriptions): how the undo finds its operations. */
  resource: ResourceKey;
  op: RecordOp;
  id: number | null;
  before: ResourceImage | null;
  after: ResourceImage | null;
  /** Why no before-image (or no after-image) was taken, said at the time of the change. */
  unknown?: string;
  /** Fields the change sent that no image shows (a password, an avatar): an undo cannot set them back. */
  unkept?: string[];
  /**
   * Made for the change's contacts, not asked for itself: a group an import's rows named that the
   * workspace lacked, or one an undo made again to bring back contacts that were in it. An undo
   * deletes it only while no contact is left in it.
   */
  implied?: true;
}

/** One record a change touched, of either kind. */
export type JournalRecord = ContactRecord | ResourceRecord;

/** Who made a change, where, with what. */
export interface ChangeMeta {
  id: string;
  /** ISO time the change began. */
  when: string;
  profile: string;
  base_url: string;
  workspace: string;
  /** The command line, secrets masked (or the MCP tool called). */
  command: string;
  /** What the change did in a few words (`contacts update --from people.csv`). */
  summary: string;
  /** The records it names; each is in the record file. */
  records: number;
  /** Sentences said at the time: records without a before-image, and why. */
  notes: string[];
  /** Set when the change ended: the ids of the records whose request failed. */
  ended?: string;
  failed?: number[];
  /** The same ids by the resource each names (`{ "contacts": [7] }`, `{ "labels": [3] }`): a failed request leaves no record to say it. */
  failed_resources?: FailedIds;
  /** The contacts a delete found not in the workspace (already gone): nothing was deleted, so no record holds them. */
  gone?: number[];
  /** The change this one undid. */
  undoes?: string;
  /** While the change is written: the process writing it (gone once it ended). */
  pid?: number;
}

export function contactImage(contact: Contact): ContactImage {
  const fields = Object.fromEntries(Object.entries(contact.fields ?? {}).filter(([, value]) => typeof value === 'string' && value !== ''));
  return {
    id: Number(contact.id),
    number: String(contact.number),
    name: contact.name,
    email: contact.email ?? null,
    gender: contact.gender ?? null,
    status: typeof contact.status === 'boolean' ? contact.status : Boolean(contact.status),
    fields,
    contact_groups: (contact.contact_groups ?? []).map((group) => ({ id: Number(group.id), name: group.name })),
  };
}

/**
 * A created contact's record as a record file may hold it, in one JSON array line: `[number, name,
 * email, gender, status, fields, contact_groups]` of its predicted values, the last four left out
 * together where they are null, true, {} and [] (a million-row import writes half a million such
 * records at its end: a third of the bytes to write and gzip). Read back as the record it stands for.
 */
export function createdLine(
  number: string,
  name: string | null,
  email: string | null,
  gender: string | null = null,
  status: boolean | null = true,
  fields?: Record<string, string>,
  groups?: readonly string[],
): string {
  const head = `["${number}",${JSON.stringify(name)},${JSON.stringify(email)}`;
  const filled = fields !== undefined && Object.keys(fields).length > 0;
  if (gender === null && status === true && !filled && (groups?.length ?? 0) === 0) return `${head}]\n`;
  return `${head},${JSON.stringify(gender)},${status},${filled ? JSON.stringify(fields) : '{}'},${JSON.stringify(groups ?? [])}]\n`;
}

/** The record a createdLine array stands for (left as it is when it has no such length: the schema then refuses it). */
export function createdRecordOf(line: unknown[]): unknown {
  if (line.length !== 3 && line.length !== 7) return line;
  const [number, name, email, gender = null, status = true, fields = {}, contact_groups = []] = line;
  return {
    kind: 'contact',
    op: 'create',
    id: null,
    number,
    before: null,
    after: null,
    predicted: { name, email, gender, status, fields, contact_groups },
  };
}

/** A change's id, `20261128-171522-483`: the name of its files, and nothing else. */
export const CHANGE_ID = /^\d{8}-\d{6}-\d{3,}$/;

// The shapes a journal file is checked against when read back: the config folder is local input,
// and a file there may be cut short, edited or planted.
const contactImageSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  gender: z.string().nullable(),
  status: z.boolean(),
  fields: z.record(z.string(), z.string()),
  contact_groups: z.array(z.object({ id: z.number().int(), name: z.string() })),
});

const recordOp = z.enum(['create', 'update', 'delete']);

const predictedSchema = z.object({
  name: z.string().nullable(),
  email: z.string().nullable(),
  gender: z.string().nullable(),
  status: z.boolean().nullable(),
  fields: z.record(z.string(), z.string()),
  contact_groups: z.array(z.string()),
});

const contactRecordSchema = z.object({
  kind: z.literal('contact'),
  op: recordOp,
  id: z.number().int().nullable(),
  number: z.string().optional(),
  before: contactImageSchema.nullable(),
  after: contactImageSchema.nullable(),
  predicted: predictedSchema.optional(),
  unknown: z.string().optional(),
});

const resourceRecordSchema = z.object({
  kind: z.literal('resource'),
  resource: z.enum(RESOURCE_KEYS.filter((key) => key !== 'contacts') as [ResourceKey, ...ResourceKey[]]),
  op: recordOp,
  id: z.number().int().nullable(),
  before: resourceImageSchema.nullable(),
  after: resourceImageSchema.nullable(),
  unknown: z.string().optional(),
  unkept: z.array(z.string().max(255)).max(64).optional(),
  implied: z.literal(true).optional(),
});

/** A record of a journal file, either kind: a file written before the resource kind holds contact records alone. */
export const journalRecordSchema: z.ZodType<JournalRecord> = z.discriminatedUnion('kind', [contactRecordSchema, resourceRecordSchema]);

/** A meta as stored; its id is left out, since a change's id is its file's name. */
export const storedMetaSchema = z.object({
  when: z.iso.datetime(),
  profile: z.string(),
  base_url: z.string(),
  workspace: z.string(),
  command: z.string(),
  summary: z.string(),
  records: z.number().int().nonnegative(),
  notes: z.array(z.string()),
  ended: z.iso.datetime().optional(),
  failed: z.array(z.number().int()).optional(),
  failed_resources: z.partialRecord(z.enum(RESOURCE_KEYS as [ResourceKey, ...ResourceKey[]]), z.array(z.number().int())).optional(),
  gone: z.array(z.number().int()).optional(),
  undoes: z.string().regex(CHANGE_ID).optional(),
  pid: z.number().int().positive().optional(),
});
