// Turns the create/update flags into the request body, which the client checks with the contract's
// schemas before anything is sent (exit 2 with the same field messages the server would give).
import { RequestValidationError } from '../../api/errors.js';
import { checkBody } from '../../api/resources/base.js';
import {
  check,
  contactCreateBody,
  contactUpdateBody,
  fieldValues,
  AVATAR_MAX_BYTES,
  GENDERS,
  type Contact,
  type ContactCreateBody,
  type ContactUpdateBody,
} from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { FlagOptions } from '../declare.js';
import { checkUploadFile, keyValues, parseId, requireSomething } from '../shared/verb.js';
import type { CONTACT_BODY_FLAGS, CONTACT_CREATE_FLAGS, CONTACT_UPDATE_FLAGS } from '../contacts.js';

/** The flags of `contacts update`, one contact's or every row's of --from. */
export type ContactUpdateFlags = FlagOptions<typeof CONTACT_UPDATE_FLAGS>;

export interface ContactRequest<B> {
  body: B;
  avatar?: string;
}

/** The flags create and update share; update's --active too, which create reads as not given. */
type CommonOptions = FlagOptions<typeof CONTACT_BODY_FLAGS> & { active?: true };

const ids = (values: string[] | undefined, flag: string): number[] | undefined => values?.map((value) => parseId(value, flag));

function common(opts: CommonOptions): Omit<ContactCreateBody, 'number'> {
  const body: Omit<ContactCreateBody, 'number'> = {};
  // An empty value is none: `--email ''` clears the e-mail, `--gender ''` the gender (null, as the API takes it).
  if (opts.email !== undefined) body.email = opts.email.trim() === '' ? null : opts.email;
  // The client's check refuses another value, in the flag's words (inFlagWords), before anything is sent.
  if (opts.gender !== undefined) body.gender = opts.gender.trim() === '' ? null : (opts.gender as ContactCreateBody['gender']);
  if (opts.active === true && opts.inactive === true) throw new UsageError('--active and --inactive cannot be used together');
  if (opts.inactive === true) body.status = false;
  if (opts.active === true) body.status = true;
  // `--group ''` alone: no group at all (an update takes the contact out of every group).
  const groups = opts.group?.length === 1 && opts.group[0].trim() === '' ? [] : ids(opts.group, '--group');
  if (groups !== undefined) body.contact_groups = groups;
  const fields = keyValues(opts.field, '--field');
  if (fields !== undefined) body.fields = fields;
  return body;
}

/**
 * A refusal of the client's check in the words of the flags: `--gender robot` lists the values
 * there are. A server's 422 keeps its own words.
 */
export function inFlagWords(opts: CommonOptions): (error: unknown) => never {
  return (error) => {
    if (!(error instanceof RequestValidationError) || error.errors.gender === undefined) throw error;
    const gender = `--gender takes one of ${GENDERS.join(', ')}, got "${String(opts.gender)}"`;
    throw new RequestValidationError(error.message, { ...error.errors, gender: [gender] });
  };
}

/** The client's check of a contact's body, called early where a step comes before the client's turn; refused in the flags' words. */
function checkInFlagWords(schema: typeof contactCreateBody | typeof contactUpdateBody, body: unknown, opts: CommonOptions): void {
  try {
    checkBody(schema, body, 'contact');
  } catch (error) {
    inFlagWords(opts)(error);
  }
}

async function avatarOf(ctx: Context, opts: CommonOptions): Promise<string | undefined> {
  const { avatar } = opts;
  if (avatar !== undefined) await checkUploadFile(ctx, avatar, 'avatar', AVATAR_MAX_BYTES);
  return avatar;
}

export async function createRequest(
  ctx: Context,
  opts: FlagOptions<typeof CONTACT_CREATE_FLAGS>,
): Promise<ContactRequest<ContactCreateBody>> {
  const body: ContactCreateBody = { number: opts.number ?? '', ...common(opts) };
  if (opts.name !== undefined) body.name = opts.name;
  // Refused before the avatar file is read; the client checks the body again as it sends it.
  if (opts.avatar !== undefined) checkInFlagWords(contactCreateBody, body, opts);
  return { body, avatar: await avatarOf(ctx, opts) };
}

/** The changes the flags give every row of `contacts update --from` (checked with each row). */
export function bulkUpdateFlags(opts: ContactUpdateFlags): Partial<ContactUpdateBody> {
  const { name } = opts;
  return { ...common(opts), ...(name !== undefined ? { name } : {}) };
}

/** An update as the flags give it; the name and group edits may still need the current contact. */
export interface ContactUpdate extends ContactRequest<Omit<ContactUpdateBody, 'name'> & { name?: string }> {
  addGroups: number[];
  removeGroups: number[];
  /** The contact must be read first: the flags leave its name, or the groups an edit starts from, to the server. */
  readsCurrent: boolean;
}

export async function updateRequest(ctx: Context, opts: ContactUpdateFlags): Promise<ContactUpdate> {
  const body: ContactUpdate['body'] = common(opts);
  if (opts.name !== undefined) body.name = opts.name;
  const addGroups = ids(opts.addGroup, '--add-group') ?? [];
  const removeGroups = ids(opts.removeGroup, '--remove-group') ?? [];
  const avatar = await avatarOf(ctx, opts);
  const flags = [
    '--name',
    '--email',
    '--gender',
    '--active',
    '--inactive',
    '--group',
    '--add-group',
    '--remove-group',
    '--field',
    '--avatar',
  ];
  const editsGroups = addGroups.length > 0 || removeGroups.length > 0;
  requireSomething(body, flags, editsGroups || avatar !== undefined);
  const readsCurrent = body.name === undefined || (editsGroups && body.contact_groups === undefined);
  // Refused before the contact is read (the client's check, the name it may not give aside); the client checks the whole body as it sends it.
  if (readsCurrent) checkInFlagWords(contactUpdateBody, { name: 'checked later', ...body }, opts);
  return { body, avatar, addGroups, removeGroups, readsCurrent };
}

/** The body to send: the flags' changes on top of what the contact holds now (when it was read). */
export function mergeUpdate(
  update: ContactUpdate,
  current: { name: string; contact_groups: Array<{ id: number }> } | undefined,
): ContactUpdateBody {
  const body: ContactUpdateBody = { ...update.body, name: update.body.name ?? current?.name ?? '' };
  if (update.addGroups.length > 0 || update.removeGroups.length > 0) {
    const base = (update.body.contact_groups as number[] | undefined) ?? (current?.contact_groups ?? []).map((g) => g.id);
    const next = new Set([...base, ...update.addGroups]);
    for (const id of update.removeGroups) next.delete(id);
    body.contact_groups = [...next];
  }
  return body;
}

/**
 * Custom field values (`--field`) are an extension of wsm serve: a server without it answers 2xx
 * and drops them. The names of the values sent that the answer does not hold. A value is compared
 * as the contract stores it (trimmed, NFC): what the server normalised is not lost, and an empty
 * value removes the field.
 */
export function unkeptFields(sent: Record<string, string> | undefined, record: Contact | undefined): string[] {
  if (sent === undefined || Object.keys(sent).length === 0) return [];
  const fields = (record as { fields?: unknown } | undefined)?.fields;
  const kept = (typeof fields === 'object' && fields !== null ? fields : {}) as Record<string, unknown>;
  const normalised = check(fieldValues, sent);
  const stored = normalised.ok ? normalised.value : sent;
  return Object.entries(stored)
    .filter(([name, value]) => (value === '' ? kept[name] !== undefined && kept[name] !== '' : kept[name] !== value))
    .map(([name]) => name);
}

/** The sentence naming the custom fields a server did not keep, so the loss is never silent. */
export function unkeptFieldsSentence(lost: string[]): string {
  return (
    `the server did not keep the custom field value${lost.length === 1 ? '' : 's'} of ${lost.join(', ')}: ` +
    'custom field values need the wsm serve extension (the published API has no field for them)'
  );
}

export function warnUnkeptFields(ctx: Context, sent: Record<string, string> | undefined, record: Contact | undefined): void {
  const lost = unkeptFields(sent, record);
  if (lost.length > 0) ctx.output.warn(unkeptFieldsSentence(lost));
}

/** The contact body's fields as users type them, for the server's field errors. */
export const CONTACT_FLAGS: Record<string, string> = {
  number: '--number',
  name: '--name',
  email: '--email',
  gender: '--gender',
  status: '--active/--inactive',
  contact_groups: '--group',
  avatar: '--avatar',
  fields: '--field',
};
