// The one way a single write to a resource is journaled, driven by its operation's description
// (resource key, method, path): the CLI's verbs and the MCP operation tools both send through
// journaledWrite. A delete or an update has its record's before-image read first (resource-read.ts,
// unless the caller read it already); the change is recorded once the server has answered (a
// failed request changed nothing to record). Contacts keep their own journal (contact-change.ts),
// which the MCP tools of contacts reach through here too; a contact import, a template sync and
// what is no workspace data (tokens, workspaces) are not journaled here.
import type { z } from 'zod';
import type { WsmClient } from '../api/client.js';
import { describedOperation } from '../api/resources/base.js';
import type { ResourceKey } from '../api/descriptions/catalog.js';
import type { OperationDescription } from '../api/descriptions/types.js';
import { pathParameters } from '../api/descriptions/paths.js';
import type { Contact } from '../api/schemas/index.js';
import type { Context } from '../cli/context.js';
import { beforeSingle, beforeUpdate, recordCreate, recordSingle } from './contact-change.js';
import { journalOff, journalReady, recordChange } from './journal.js';
import type { RecordOp, ResourceRecord } from './records.js';
import { resourceImage } from './resource-image.js';
import { recordLabel } from './resource-plan.js';
import { imageOf, type ReadRecord, readRecord } from './resource-read.js';

/** What one write sends, as its journal needs it. */
export interface ResourceWrite {
  resource: ResourceKey;
  /** The operation's name in its description (`update`, `setPartnerDefaults`). */
  operation: string;
  id?: number | string;
  body?: unknown;
  /** The record as the caller read it just before (a delete's question names it): no read of its own. */
  known?: unknown;
  /** The check the client makes of this body where it is not the operation's own (a list's shape alone). */
  check?: z.ZodType;
}

/** The resources whose records the journal keeps (the workspace's data beyond contacts). */
const JOURNALED = new Set<ResourceKey>(['groups', 'fields', 'labels', 'roles', 'users', 'templates', 'imports', 'permissions']);

/** Body fields a change may send that no record shows: the journal keeps that they were sent, never their values. */
const UNKEPT = ['password', 'avatar'];

/** What a write does to a record, or undefined for one the journal does not keep. */
function opOf(operation: OperationDescription): RecordOp | undefined {
  if (operation.hints.readOnly) return undefined;
  if (operation.method === 'DELETE') return 'delete';
  const named = pathParameters(operation.path).some((name) => name !== 'workspace');
  if (named) return 'update';
  if (operation.name === 'create') return operation.resource === 'imports' ? undefined : 'create';
  return operation.hints.destructive ? 'update' : undefined;
}

const dataOf = (answer: unknown) => (answer as { data?: unknown } | undefined)?.data;

/** A body's fields that no image keeps, by name. */
function unkeptOf(body: unknown, files: string[]): string[] {
  const fields =
    typeof body === 'object' && body !== null
      ? Object.keys(body).filter((key) => (body as Record<string, unknown>)[key] !== undefined)
      : [];
  return UNKEPT.filter((field) => fields.includes(field) || files.includes(field));
}

async function journaledContact<T>(
  ctx: Context,
  client: WsmClient,
  op: RecordOp,
  write: ResourceWrite,
  send: () => Promise<T>,
): Promise<T> {
  const id = Number(write.id);
  if (op === 'create') {
    const answer = await send();
    await recordCreate(ctx, dataOf(answer) as Contact | undefined);
    return answer;
  }
  const before =
    op === 'update'
      ? await beforeUpdate(ctx, client, id, write.body as never)
      : await beforeSingle(ctx, client, id, write.known as Contact | undefined);
  const answer = await send();
  await recordSingle(ctx, op, id, before, op === 'update' ? (dataOf(answer) as Contact | undefined) : undefined);
  return answer;
}

/**
 * Sends `send` (the write `write` describes) and journals it: the record before, the record the
 * server answered, under the command line or the MCP tool's name (ctx.journalCommand). A journal
 * that cannot be written stops it before anything is sent; WSM_HISTORY=off sends it alone.
 */
export async function journaledWrite<T>(
  ctx: Context,
  client: WsmClient,
  write: ResourceWrite,
  send: () => Promise<T>,
  files: string[] = [],
): Promise<T> {
  const operation = await describedOperation(write.resource, write.operation);
  const op = opOf(operation);
  // An id that is no whole number names no record the server has: its own answer says so, with nothing to keep.
  const wholeId = write.id === undefined || /^[1-9]\d{0,15}$/.test(String(write.id));
  if (op === undefined || journalOff(ctx) || !wholeId) return send();
  if (write.resource === 'contacts') return journaledContact(ctx, client, op, write, send);
  if (!JOURNALED.has(write.resource)) return send();
  // A body the client will refuse is sent as it is: its check stays the first thing said.
  const check = write.check ?? operation.body;
  if (check !== undefined && write.body !== undefined && !check.safeParse(write.body).success) return send();
  await journalReady(ctx);
  const id = write.id === undefined ? null : Number(write.id);
  const what = recordLabel({ resource: write.resource, id });
  let before: ReadRecord | undefined;
  if (op !== 'create') before = write.known !== undefined ? imageOf(write.known, what) : await readRecord(client, write.resource, id, what);
  const answer = await send();
  const after = op === 'delete' ? null : resourceImage(dataOf(answer));
  const createdId = op === 'create' && typeof after !== 'string' && after !== null ? Number(after.id) : null;
  const record: ResourceRecord = {
    kind: 'resource',
    resource: write.resource,
    op,
    id: op === 'create' ? (Number.isInteger(createdId) ? createdId : null) : id,
    before: before !== undefined && 'image' in before ? before.image : null,
    after: typeof after === 'string' ? null : after,
  };
  const unknown = [
    ...(before !== undefined && 'unknown' in before ? [before.unknown] : []),
    ...(before !== undefined && 'gone' in before ? [`${what}: not found before the change`] : []),
    ...(typeof after === 'string' ? [`${what}: no after-image (${after})`] : []),
  ];
  if (unknown.length > 0) record.unknown = unknown.join('; ');
  const unkept = unkeptOf(write.body, files);
  if (unkept.length > 0) record.unkept = unkept;
  const verb = operation.verb ?? `${operation.resource}.${operation.name}`;
  await recordChange(
    ctx,
    op === 'create' ? `${verb}${record.id === null ? '' : ` (${recordLabel(record)})`}` : `${verb}${id === null ? '' : ` ${id}`}`,
    [record],
  );
  return answer;
}
