// Rows of `contacts update|delete --from` naming one contact are one item: planned and sent once,
// counted once. An update's rows are merged in input order, so the file's last word on each value
// is the one sent (`1,First` then `1,Bob` makes contact 1 Bob); a delete's repeated ids are one delete.
// With --strict such a file is refused instead. Ids come normalised (`002` is contact 2): rows
// naming one contact in different writings are one contact here too.
import type { BulkItem } from './bulk-input.js';
import { UsageError } from '../../cli/errors.js';
import { countOf } from '../../cli/text.js';
import { listed, placesOf } from './places.js';

function merge(first: BulkItem, next: BulkItem): BulkItem {
  const merged: BulkItem = { ...first, merged: [...(first.merged ?? [first.where]), next.where] };
  merged.where = placesOf(merged.merged!);
  if (first.body !== undefined || next.body !== undefined) {
    const fields = { ...first.body?.fields, ...next.body?.fields };
    merged.body = { ...first.body, ...next.body, ...(Object.keys(fields).length > 0 ? { fields } : {}) };
  }
  if (next.groupNames !== undefined) merged.groupNames = next.groupNames;
  if (next.number !== undefined) merged.number = next.number;
  // A value a later row gives is no longer emptied.
  const given = new Set(Object.keys(next.body ?? {}));
  const emptied = [...new Set([...(first.emptied ?? []).filter((key) => !given.has(key)), ...(next.emptied ?? [])])];
  if (emptied.length > 0) merged.emptied = emptied;
  else delete merged.emptied;
  return merged;
}

/** The items with each contact once, at its first row's place, merged with the rows after it that name it. */
export function mergeRepeated(items: BulkItem[]): BulkItem[] {
  const byId = new Map<string, BulkItem>();
  for (const item of items) {
    const first = byId.get(item.id);
    byId.set(item.id, first === undefined ? item : merge(first, item));
  }
  return [...byId.values()];
}

/** The contacts named on several rows, at most this many said by their rows; the rest counted. */
const NAMED_IN_FULL = 3;

/** --strict: a file naming one contact on several rows is exit 2 in one line naming them, before anything is read or sent. */
export function refuseRepeated(items: BulkItem[], source: string): void {
  const places = new Map<string, string[]>();
  for (const item of items) places.set(item.id, [...(places.get(item.id) ?? []), item.where]);
  const repeated = [...places].filter(([, where]) => where.length > 1);
  if (repeated.length === 0) return;
  const said = repeated.slice(0, NAMED_IN_FULL).map(([id, where]) => `contact ${id} on ${listed(where)}`);
  const more = repeated.length - said.length;
  if (more > 0) said.push(countOf(more, 'more contact'));
  throw new UsageError(`${source} names ${said.join('; ')} (--strict refuses a contact named twice): nothing was sent`);
}
