// The journal's side of the single contact verbs: the before-image taken before the request, the
// change recorded once the server has answered (a failed request changed nothing to record).
import type { WsmClient } from '../api/client.js';
import type { Contact, ContactUpdateBody } from '../api/schemas/index.js';
import type { Context } from '../cli/context.js';
import { contactBefore, type BeforeImage } from './before-image.js';
import { journalOff, journalReady, recordChange } from './journal.js';
import { contactImage } from './records.js';

/** The contact before a single update or delete, unless the journal is off; a journal that cannot be written stops it first. */
export async function beforeSingle(ctx: Context, client: WsmClient, id: number, known?: Contact): Promise<BeforeImage | undefined> {
  await journalReady(ctx);
  return journalOff(ctx) ? undefined : contactBefore(ctx, client, id, known);
}

/**
 * The contact before a single update: not read for a body the client will refuse (its check,
 * which needs no server, stays the first thing said).
 */
export async function beforeUpdate(
  ctx: Context,
  client: WsmClient,
  id: number,
  body: ContactUpdateBody,
  known?: Contact,
): Promise<BeforeImage | undefined> {
  const { contactUpdateBody } = await import('../api/schemas/index.js');
  return contactUpdateBody.safeParse(body).success ? beforeSingle(ctx, client, id, known) : undefined;
}

const imageOf = (contact: Contact | undefined) => (contact === undefined ? null : contactImage(contact));

export async function recordCreate(ctx: Context, created: Contact | undefined): Promise<void> {
  const id = created === undefined ? null : Number(created.id);
  await recordChange(ctx, `contacts create${id === null ? '' : ` (contact ${id})`}`, [
    {
      kind: 'contact',
      op: 'create',
      id,
      before: null,
      after: imageOf(created),
      ...(created === undefined ? { unknown: "the server's answer held no record: the new contact is unknown" } : {}),
    },
  ]);
}

export async function recordSingle(
  ctx: Context,
  op: 'update' | 'delete',
  id: number,
  before: BeforeImage | undefined,
  after: Contact | undefined,
): Promise<void> {
  if (before === undefined) return;
  await recordChange(ctx, `contacts ${op} ${id}`, [
    {
      kind: 'contact',
      op,
      id,
      before: 'image' in before ? before.image : null,
      after: op === 'delete' ? null : imageOf(after),
      ...('unknown' in before ? { unknown: before.unknown } : {}),
    },
  ]);
}
