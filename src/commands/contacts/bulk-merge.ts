// Rows of `contacts update|delete --from` naming one contact are one item: planned and sent once,
// counted once. An update's rows are merged in input order, so the file's last word on each value
// is the one sent (`1,First` then `1,Bob` makes contact 1 Bob); a delete's repeated ids are one delete.
import type { BulkItem } from './bulk-input.js';
import { placesOf } from './plan.js';

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
