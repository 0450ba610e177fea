// Reading one record of a resource as it is now, for a before-image and for an undo's plan: through
// the description's get where the server has it, else found in the description's list (at most
// 10,000 rows, as the contacts' list is read), the partner defaults through their read where the
// server has it. What cannot be read is said in a sentence, never guessed.
import type { z } from 'zod';
import type { CollectionKey, WsmClient } from '../api/client.js';
import { CATALOG, descriptionOf, type ResourceIdentity, type ResourceKey } from '../api/descriptions/catalog.js';
import type { OperationCall } from '../api/descriptions/types.js';
import { APIStatusError, NotFoundError, UnsupportedEndpointError, UnusableResponseError } from '../api/errors.js';
import { extension } from '../api/resources/base.js';
import type { CrudResource } from '../api/resources/crud.js';
import { LIVE_READ_LIMIT } from '../commands/contacts/plan-live.js';
import type { ResourceRecord } from './records.js';
import { type ResourceImage, resourceImage } from './resource-image.js';
import { type Holder, type LiveResources, liveKey } from './resource-inverse.js';
import { recordLabel } from './resource-plan.js';

/** A record as read: its image, gone (the server says there is none), or why it could not be read. */
export type ReadRecord = { image: ResourceImage } | { gone: true } | { unknown: string };

/** The partner defaults, one set per partner: the record a `permissions` journal record names. */
const PARTNER_DEFAULTS = 'permissions';

const call = (id: number | string | undefined, query = {}): OperationCall => ({
  id: id ?? '',
  query,
  body: undefined,
  files: {},
  options: {},
});

/** A read that failed in a way the change itself will say better (no such route, a refusal, an answer of no use). */
const readRefused = (error: unknown) =>
  error instanceof UnsupportedEndpointError || error instanceof APIStatusError || error instanceof UnusableResponseError;

/** The image of a record read or answered, or why it cannot be kept. */
export function imageOf(data: unknown, what: string): ReadRecord {
  const image = resourceImage(data);
  return typeof image === 'string' ? { unknown: `${what}: ${image}` } : { image };
}

async function readPartnerDefaults(client: WsmClient, what: string): Promise<ReadRecord> {
  const operation = (await descriptionOf('permissions')).operations.getPartnerDefaults;
  try {
    const answer = await extension(operation.unsupported ?? operation.name, () =>
      client.request<{ data?: unknown }>('GET', operation.path),
    );
    return imageOf(answer?.data, what);
  } catch (error) {
    if (!readRefused(error)) throw error;
    return { unknown: `${what}: no before-image (this server cannot read them: ${(error as Error).message})` };
  }
}

/**
 * What the reads of one undo learn on the way, so that many records of one resource cost one walk
 * of its list: the resources whose read of one record the server lacks, and the lists walked
 * (rows by id, or why there are none).
 */
interface ReadCache {
  noGet: Set<ResourceKey>;
  lists: Map<ResourceKey, Map<number, unknown> | { why: string }>;
}

/** The list's rows by id, at most LIVE_READ_LIMIT; with `wanted`, the walk stops at that record. */
async function listRows(client: WsmClient, resource: ResourceKey, wanted?: number): Promise<Map<number, unknown> | { why: string }> {
  const list = (await descriptionOf(resource)).operations.list?.client;
  if (!list) return { why: 'the API has no read of it' };
  const rows = new Map<number, unknown>();
  try {
    for await (const row of list(client, call(undefined)) as AsyncIterable<{ id?: unknown }>) {
      if (rows.size >= LIVE_READ_LIMIT) return { why: `its list holds over ${LIVE_READ_LIMIT} records` };
      rows.set(Number(row.id), row);
      if (Number(row.id) === wanted) break;
    }
  } catch (error) {
    if (!readRefused(error)) throw error;
    return { why: `this server can read it neither by id nor in a list: ${(error as Error).message}` };
  }
  return rows;
}

/** The list's rows walked once per undo (`cache`); without a cache, walked up to `wanted`. */
async function cachedRows(client: WsmClient, resource: ResourceKey, wanted: number | undefined, cache?: ReadCache) {
  let rows = cache?.lists.get(resource);
  if (rows === undefined) {
    rows = await listRows(client, resource, cache === undefined ? wanted : undefined);
    cache?.lists.set(resource, rows);
  }
  return rows;
}

/** The record of `id` found in its resource's list, walked once per undo (`cache`). */
async function findInList(client: WsmClient, resource: ResourceKey, id: number, what: string, cache?: ReadCache): Promise<ReadRecord> {
  const rows = await cachedRows(client, resource, id, cache);
  if (!(rows instanceof Map)) return { unknown: `${what}: no before-image (${rows.why})` };
  const row = rows.get(id);
  return row === undefined ? { gone: true } : imageOf(row, what);
}

/** The record `id` of `resource` as it is now (`what` names it in sentences: `label 3`). */
export async function readRecord(
  client: WsmClient,
  resource: ResourceKey,
  id: number | null,
  what: string,
  cache?: ReadCache,
): Promise<ReadRecord> {
  if (resource === PARTNER_DEFAULTS) return readPartnerDefaults(client, what);
  if (id === null) return { unknown: `${what}: no id to read it by` };
  const get = (await descriptionOf(resource)).operations.get?.client;
  if (get && !cache?.noGet.has(resource)) {
    try {
      return imageOf(((await get(client, call(id))) as { data?: unknown }).data, what);
    } catch (error) {
      if (error instanceof NotFoundError) return { gone: true };
      if (error instanceof UnsupportedEndpointError) cache?.noGet.add(resource);
      if (!readRefused(error)) throw error;
    }
  }
  return findInList(client, resource, id, what, cache);
}

/**
 * The record holding now the unique value (a name) of a deleted record that is gone, so that it is
 * not made again into a clash the server refuses: found in the resource's list (walked once per
 * undo). A record the same change created does not count: the undo deletes it first.
 */
async function holderOf(
  client: WsmClient,
  record: ResourceRecord,
  unique: string | null | undefined,
  created: ReadonlySet<string>,
  cache: ReadCache,
): Promise<Holder | undefined> {
  const value = unique ? record.before?.[unique] : undefined;
  if (!unique || value === undefined || value === null) return undefined;
  const rows = await cachedRows(client, record.resource, undefined, cache);
  if (!(rows instanceof Map)) return undefined;
  for (const [id, row] of rows)
    if ((row as Record<string, unknown>)[unique] === value && !created.has(liveKey({ resource: record.resource, id })))
      return { field: unique, value, id };
  return undefined;
}

/**
 * What an undo of `records` needs to know of the server: each record as it is now, each resource's
 * description, and, for a plain collection whose inverse is an extension, whether the server has
 * its extensions (asked once, without changing anything: CrudResource.hasExtensions).
 */
export async function readLiveResources(client: WsmClient, records: readonly ResourceRecord[]): Promise<LiveResources> {
  const live: LiveResources = { descriptions: new Map(), records: new Map(), offered: new Map(), holders: new Map() };
  const cache: ReadCache = { noGet: new Set(), lists: new Map() };
  const created = new Set(records.filter((record) => record.op === 'create').map(liveKey));
  for (const record of records) {
    if (!live.descriptions.has(record.resource)) {
      const description = await descriptionOf(record.resource);
      live.descriptions.set(record.resource, description);
      const extensions = Object.values(description.operations).filter((operation) => !operation.published && !operation.hints.readOnly);
      if ((CATALOG[record.resource] as ResourceIdentity).collection === true && extensions.length > 0) {
        const has = await (client[record.resource as CollectionKey] as CrudResource<unknown, z.ZodType, z.ZodType>).hasExtensions(
          record.id ?? undefined,
        );
        if (has === false && description.operations.get?.published === false) cache.noGet.add(record.resource);
        for (const operation of extensions) if (has === false) live.offered.set(`${record.resource}.${operation.name}`, false);
      }
    }
    if (!live.records.has(liveKey(record)) && (record.id !== null || record.resource === PARTNER_DEFAULTS))
      live.records.set(liveKey(record), await readRecord(client, record.resource, record.id, recordLabel(record), cache));
    const now = live.records.get(liveKey(record));
    if (record.op === 'delete' && now !== undefined && 'gone' in now) {
      const holder = await holderOf(client, record, live.descriptions.get(record.resource)?.unique, created, cache);
      if (holder !== undefined) live.holders.set(liveKey(record), holder);
    }
  }
  return live;
}
