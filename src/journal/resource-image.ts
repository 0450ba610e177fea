// A record of a resource other than contacts (a label, a role, a user, the partner defaults...) as
// the journal keeps it: the record as the server answered it, JSON, bounded in size and depth both
// when it is written (a record past the bounds is kept without its image, said at the time) and when
// it is read back (a planted one is refused before anything walks it deeply).
import * as z from 'zod';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A resource's record as kept: its fields by name. */
export type ResourceImage = { [key: string]: JsonValue };

/** Bytes of one image as JSON: a template with every component is a few KB. */
const MAX_IMAGE_BYTES = 64 * 1024;
/** Nesting of one image: a template's header text variables sit 4 deep. */
const MAX_IMAGE_DEPTH = 16;

/** Fields of no use to an undo, which differ on every record (when it was written). */
const LEFT_OUT = new Set(['created_at', 'updated_at']);

/**
 * Why `value` is no image the journal keeps (not a plain object of JSON values, too deep, too
 * large), or undefined when it is one. Walked without recursion, so no nesting can exhaust the stack.
 */
function imageProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not an object';
  const stack: Array<[unknown, number]> = [[value, 1]];
  let bytes = 0;
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (depth > MAX_IMAGE_DEPTH) return `nests deeper than ${MAX_IMAGE_DEPTH}`;
    if (typeof item === 'string') bytes += item.length + 2;
    else if (typeof item === 'number') {
      if (!Number.isFinite(item)) return 'holds a number JSON cannot carry';
      bytes += 8;
    } else if (typeof item === 'boolean' || item === null) bytes += 5;
    else if (Array.isArray(item)) for (const element of item) stack.push([element, depth + 1]);
    else if (typeof item === 'object' && Object.getPrototypeOf(item) === Object.prototype)
      for (const [key, element] of Object.entries(item)) {
        bytes += key.length + 3;
        stack.push([element, depth + 1]);
      }
    else return 'holds a value JSON cannot carry';
    if (bytes > MAX_IMAGE_BYTES) return `is over ${MAX_IMAGE_BYTES / 1024} KB`;
  }
  return undefined;
}

/** The image of a record the server answered, or a string saying why it cannot be kept. */
export function resourceImage(record: unknown): ResourceImage | string {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return 'the server answered no record';
  const kept = Object.fromEntries(Object.entries(record).filter(([key]) => !LEFT_OUT.has(key)));
  const problem = imageProblem(kept);
  return problem === undefined ? (kept as ResourceImage) : `its record ${problem}, more than the journal keeps`;
}

/** An image as read back from a journal file: checked before it is used. */
export const resourceImageSchema = z.custom<ResourceImage>((value) => imageProblem(value) === undefined, {
  message: `not a record image (an object of JSON values, at most ${MAX_IMAGE_BYTES / 1024} KB and ${MAX_IMAGE_DEPTH} deep)`,
});
