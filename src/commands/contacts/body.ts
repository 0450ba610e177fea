// Turns the create/update flags into the request body, checked with the contract's schemas
// before anything is sent (exit 2 with the same field messages the server would give).
import { contactCreateBody, contactUpdateBody, AVATAR_MAX_BYTES, type Contact, type ContactCreateBody, type ContactUpdateBody } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { checkLocal, checkUploadFile, keyValues, parseId, str } from '../shared/verb.js';

export interface ContactRequest<B> {
  body: B;
  avatar?: string;
}

function common(opts: Record<string, unknown>): Omit<ContactCreateBody, 'number'> {
  const body: Omit<ContactCreateBody, 'number'> = {};
  const email = str(opts.email);
  if (email !== undefined) body.email = email;
  const gender = str(opts.gender);
  if (gender !== undefined) body.gender = gender as ContactCreateBody['gender'];
  if (opts.active === true && opts.inactive === true) throw new UsageError('--active and --inactive cannot be used together');
  if (opts.inactive === true) body.status = false;
  if (opts.active === true) body.status = true;
  if (Array.isArray(opts.group)) body.contact_groups = opts.group.map((g) => parseId(g, '--group'));
  const fields = keyValues(opts.field, '--field');
  if (fields !== undefined) body.fields = fields;
  return body;
}

async function avatarOf(opts: Record<string, unknown>): Promise<string | undefined> {
  const avatar = str(opts.avatar);
  if (avatar !== undefined) await checkUploadFile(avatar, 'avatar', AVATAR_MAX_BYTES);
  return avatar;
}

export async function createRequest(opts: Record<string, unknown>): Promise<ContactRequest<ContactCreateBody>> {
  const body: ContactCreateBody = { number: str(opts.number) ?? '', ...common(opts) };
  const name = str(opts.name);
  if (name !== undefined) body.name = name;
  checkLocal(contactCreateBody, body, 'contact');
  return { body, avatar: await avatarOf(opts) };
}

/** The changes the flags give every row of `contacts update --from` (checked with each row). */
export function bulkUpdateFlags(opts: Record<string, unknown>): Partial<ContactUpdateBody> {
  const name = str(opts.name);
  return { ...common(opts), ...(name !== undefined ? { name } : {}) };
}

export async function updateRequest(opts: Record<string, unknown>): Promise<ContactRequest<ContactUpdateBody>> {
  const body: ContactUpdateBody = { name: str(opts.name) ?? '', ...common(opts) };
  checkLocal(contactUpdateBody, body, 'contact');
  return { body, avatar: await avatarOf(opts) };
}

/**
 * Custom field values (`--field`) are an extension of wsm serve: a server without it answers 2xx
 * and drops them. Names each value the answer does not hold, so the loss is never silent.
 */
export function warnUnkeptFields(ctx: Context, sent: Record<string, string> | undefined, record: Contact | undefined): void {
  if (sent === undefined || Object.keys(sent).length === 0) return;
  const kept = (record as { fields?: unknown } | undefined)?.fields;
  const lost = Object.entries(sent)
    .filter(([name, value]) => typeof kept !== 'object' || kept === null || (kept as Record<string, unknown>)[name] !== value)
    .map(([name]) => name);
  if (lost.length === 0) return;
  ctx.output.warn(
    `the server did not keep the custom field value${lost.length === 1 ? '' : 's'} of ${lost.join(', ')}: ` +
      'custom field values need the wsm serve extension (the published API has no field for them)',
  );
}
