/**
 * The pieces of the key copy (key-scan.ts): a chunk of consecutive contacts' keys as one one-byte
 * string, and the counts made on it. Each contact is its keys joined by NUL and ended by NUL, as
 * UTF-8 bytes held one per char (half the memory of UTF-16): a byte-wise substring of UTF-8 is a
 * substring of the text, and a needle without NUL cannot match across a key's end. The number
 * comes first: it is digits only, so it ends at the contact's first NUL.
 */

export interface Chunk {
  first: number;
  text: string;
  /** Where each contact ends in `text` (2 bytes a contact while the text is under 64 KB). */
  ends: Uint16Array | Int32Array;
  /** Each contact's id less the chunk's first contact's (`base`), ascending: 2 bytes a contact while they are near. */
  ids: Uint16Array | Int32Array | Float64Array;
  base: number;
}
export type Row = [id: number, name: string, number: string, email: string | null];

const ASCII = /^[\x00-\x7f]*$/;
/** A text as its UTF-8 bytes, one char a byte. */
export const bytesOf = (text: string) => (ASCII.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1'));

export function chunkOf(first: number, rows: Row[]): Chunk {
  const parts = rows.map(([, name, number, email]) => bytesOf(`${number}\0${name}\0${email ?? ''}\0`));
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const ends = length < 2 ** 16 ? new Uint16Array(rows.length) : new Int32Array(rows.length);
  const base = rows.length === 0 ? 0 : rows[0][0];
  const span = rows.length === 0 ? 0 : rows[rows.length - 1][0] - base;
  // Ids further apart than an Int32 holds (never made by the API) take 8 bytes each.
  const ids = new (span < 2 ** 16 ? Uint16Array : span < 2 ** 31 ? Int32Array : Float64Array)(rows.length);
  let end = 0;
  for (const [i, part] of parts.entries()) {
    ends[i] = end += part.length;
    ids[i] = rows[i][0] - base;
  }
  return { first, text: parts.join(''), ends, ids, base };
}

export const sizeOf = (chunk: Chunk) => chunk.text.length + chunk.ends.byteLength + chunk.ids.byteLength;

/** Contacts of the chunk holding `needle`: each counted once however often it holds it. */
export function countIn({ text, ends }: Chunk, needle: string): number {
  let count = 0;
  let row = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, ends[row++])) {
    while (ends[row] <= at) row++;
    count++;
  }
  return count;
}

/** Contacts of the chunk holding `needle` in a key or `digits` in the number: each counted once. */
export function countEitherIn(chunk: Chunk, needle: string, digits: string): number {
  const { text, ends } = chunk;
  const held = new Uint8Array(ends.length);
  let row = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, ends[row++])) {
    while (ends[row] <= at) row++;
    held[row] = 1;
  }
  row = 0;
  for (let at = text.indexOf(digits); at !== -1; at = text.indexOf(digits, ends[row++])) {
    while (ends[row] <= at) row++;
    // In the number when no NUL (the number's end) comes between the contact's start and the digits.
    if (text.indexOf('\0', row === 0 ? 0 : ends[row - 1]) > at) held[row] = 1;
  }
  return held.reduce((sum, one) => sum + one, 0);
}

/**
 * How many of `ids` (ascending; ids the copy does not hold are left out) hold `needle` in a key:
 * each contact's own keys are compared, so the work follows the candidates, not the copy's size.
 */
export function countAmong(chunks: Chunk[], needle: string, ids: number[]): number {
  let count = 0;
  let k = 0;
  let row = 0;
  for (const id of ids) {
    while (k + 1 < chunks.length && chunks[k + 1].first <= id) {
      k++;
      row = 0;
    }
    const chunk = chunks[k];
    if (chunk === undefined) break;
    const held = chunk.ids;
    const wanted = id - chunk.base;
    // Ascending ids: the row only moves forward within a chunk.
    while (row < held.length && held[row] < wanted) row++;
    if (row === held.length || held[row] !== wanted) continue;
    const start = row === 0 ? 0 : chunk.ends[row - 1];
    if (chunk.text.slice(start, chunk.ends[row]).includes(needle)) count++;
  }
  return count;
}

/** One chunk in SAMPLE_EVERY is read to estimate how common a piece of text is. */
const SAMPLE_EVERY = 64;

/**
 * About how many contacts of the copy hold every one of `needles`, from one chunk in SAMPLE_EVERY
 * (a few hundred microseconds): enough to tell a trigram in every other contact from one in a few
 * hundred.
 */
export function estimateIn(chunks: Chunk[], needles: string[]): number {
  const sample = chunks.filter((_, k) => k % SAMPLE_EVERY === SAMPLE_EVERY >> 1);
  const read = sample.length > 0 ? sample : chunks;
  let found = 0;
  let rows = 0;
  for (const { text, ends } of read) {
    rows += ends.length;
    let row = 0;
    for (let at = text.indexOf(needles[0]); at !== -1; at = text.indexOf(needles[0], ends[row++])) {
      while (ends[row] <= at) row++;
      const keys = text.slice(row === 0 ? 0 : ends[row - 1], ends[row]);
      if (needles.every((needle) => keys.includes(needle))) found++;
    }
  }
  const all = chunks.reduce((sum, chunk) => sum + chunk.ends.length, 0);
  return rows === 0 ? 0 : (found / rows) * all;
}

/**
 * The ids of up to `limit` contacts holding `needle`, after the first `skip` of those whose id is
 * above `after`, in id order; undefined when more than `maxRows` contacts were read first (the
 * matches are too sparse here for a walk of the text to pay).
 */
export function pageIn(chunks: Chunk[], needle: string, after: number, skip: number, limit: number, maxRows: number): number[] | undefined {
  let low = 0;
  let high = chunks.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (chunks[mid].first <= after) low = mid;
    else high = mid - 1;
  }
  const ids: number[] = [];
  let read = 0;
  for (let k = low; k < chunks.length && ids.length < limit; k++) {
    const { text, ends, ids: held, base } = chunks[k];
    let row = 0;
    while (row < held.length && held[row] + base <= after) row++;
    const firstRow = row;
    for (let at = row === held.length ? -1 : text.indexOf(needle, row === 0 ? 0 : ends[row - 1]); at !== -1; ) {
      while (ends[row] <= at) row++;
      if (read + row - firstRow > maxRows) return undefined;
      if (skip > 0) skip--;
      else if (ids.push(held[row] + base) === limit) break;
      at = text.indexOf(needle, ends[row++]);
    }
    read += held.length - firstRow;
    if (read > maxRows && ids.length < limit) return undefined;
  }
  return ids;
}
