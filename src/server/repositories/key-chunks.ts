/**
 * The pieces of the key copy (key-scan.ts): a chunk of consecutive contacts' keys as one one-byte
 * string, and the counts made on it. Each contact is its keys joined by NUL and ended by NUL, as
 * UTF-8 bytes held one per char (half the memory of UTF-16): a byte-wise substring of UTF-8 is a
 * substring of the text, and a needle without NUL cannot match across a key's end. The number
 * comes first: it is digits only, so it ends at the contact's first NUL (a number search's digits,
 * compared with the number only, are in it when they end before that NUL).
 *
 * An e-mail's domain (from its first `@`) is held once per copy, not once per contact
 * (key-domains.ts): a workspace's e-mails share a few domains, and a substring of a domain
 * (`examp` in every `@mail3.example`) is then looked for in each domain once instead of in every
 * contact's text. The text keeps the part before the `@` (`number\0name\0local\0`) and each contact
 * the index of its domain (0: none apart, the whole e-mail is in the text). A needle is found in
 * a contact's text, in its domain, or across the two (see Needle).
 */
import { bytesOf, domainOf, gramsOf, mayHold, type Domains, type Needle } from './key-domains.js';

export interface Chunk {
  first: number;
  text: string;
  /** Where each contact ends in `text` (2 bytes a contact while the text is under 64 KB). */
  ends: Uint16Array | Int32Array;
  /** Each contact's id less the chunk's first contact's (`base`), ascending: 2 bytes a contact while they are near. */
  ids: Uint16Array | Int32Array | Float64Array;
  base: number;
  /** Each contact's e-mail domain in the copy's Domains; 0: none apart. */
  domains: Uint16Array;
  /** The trigrams `text` holds (gramsOf): a needle with one it lacks is not looked for in it. */
  grams: Uint32Array;
}
export type Row = [id: number, name: string, number: string, email: string | null];

export function chunkOf(first: number, rows: Row[], held: Domains): Chunk {
  const domains = new Uint16Array(rows.length);
  const parts = rows.map(([, name, number, email], i) => {
    const { local, domain } = domainOf(held, email ?? '');
    domains[i] = domain;
    return bytesOf(`${number}\0${name}\0${local}\0`);
  });
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
  const text = parts.join('');
  return { first, text, ends, ids, base, domains, grams: gramsOf(text) };
}

export const sizeOf = (chunk: Chunk) =>
  chunk.text.length + chunk.ends.byteLength + chunk.ids.byteLength + chunk.domains.byteLength + chunk.grams.byteLength;

/** Where the needle may be in the chunk's text: its first place, or -1 when its trigrams say it is not there. */
const firstIn = (chunk: Chunk, needle: Needle) => (mayHold(chunk.grams, needle) ? chunk.text.indexOf(needle.text) : -1);

/** Across the `@` (as in markIn), for one contact. */
function across({ text, ends, domains }: Chunk, row: number, needle: Needle): boolean {
  return needle.startsDomain !== undefined && needle.startsDomain[domains[row]] === 1 && text.endsWith(needle.before, ends[row] - 1);
}

/** Sets `held[row]` for every contact of the chunk holding the needle (`held`: zeros, one a contact). */
function markIn(chunk: Chunk, needle: Needle, held: Uint8Array): void {
  const { text, ends, domains } = chunk;
  const { inDomain } = needle;
  if (needle.anyDomain) for (let row = 0; row < domains.length; row++) held[row] = inDomain[domains[row]];
  let row = 0;
  for (let at = firstIn(chunk, needle); at !== -1; at = text.indexOf(needle.text, ends[row++])) {
    while (ends[row] <= at) row++;
    held[row] = 1;
  }
  const { before, startsDomain } = needle;
  if (startsDomain === undefined) return;
  // Across the `@`: a domain starting with the needle's rest, and the e-mail's part before it (the
  // end of the contact's text, before its last NUL) ending with the needle's part before its `@`.
  // A part shorter than that leaves a NUL in what is compared, which the needle never holds.
  for (let row = 0; row < domains.length; row++) {
    if (held[row] === 1 || startsDomain[domains[row]] === 0) continue;
    const from = ends[row] - 1 - before.length;
    let k = before.length;
    while (k > 0 && text.charCodeAt(from + k - 1) === before.charCodeAt(k - 1)) k--;
    if (k === 0) held[row] = 1;
  }
}

/** How many contacts' text a count of the needle reads: those of the chunks its trigrams may be in (all, for one across the `@`). */
export const textRowsOf = (chunks: Chunk[], needle: Needle) =>
  chunks.reduce((sum, chunk) => sum + (needle.startsDomain !== undefined || mayHold(chunk.grams, needle) ? chunk.ends.length : 0), 0);

/** Contacts of the chunk holding the needle: each counted once however often it holds it. */
export function countIn(chunk: Chunk, needle: Needle): number {
  if (needle.startsDomain !== undefined) {
    const held = new Uint8Array(chunk.ends.length);
    markIn(chunk, needle, held);
    return held.reduce((sum, one) => sum + one, 0);
  }
  const { text, ends, domains } = chunk;
  const { inDomain } = needle;
  let count = 0;
  if (needle.anyDomain) for (let row = 0; row < domains.length; row++) count += inDomain[domains[row]];
  let row = 0;
  for (let at = firstIn(chunk, needle); at !== -1; at = text.indexOf(needle.text, ends[row++])) {
    while (ends[row] <= at) row++;
    // A contact whose domain holds it was counted above.
    if (inDomain[domains[row]] === 0) count++;
  }
  return count;
}

/** Contacts of the chunk holding the needle in a key or `digits` in the number: each counted once. */
export function countEitherIn(chunk: Chunk, needle: Needle, digits: string): number {
  const { text, ends } = chunk;
  const held = new Uint8Array(ends.length);
  markIn(chunk, needle, held);
  let row = 0;
  for (let at = text.indexOf(digits); at !== -1; at = text.indexOf(digits, ends[row++])) {
    while (ends[row] <= at) row++;
    // In the number when no NUL (the number's end) comes between the contact's start and the digits.
    if (text.indexOf('\0', row === 0 ? 0 : ends[row - 1]) > at) held[row] = 1;
  }
  return held.reduce((sum, one) => sum + one, 0);
}

/** Does contact `row` of the chunk hold the needle? */
function holds(chunk: Chunk, row: number, needle: Needle): boolean {
  if (needle.inDomain[chunk.domains[row]] === 1) return true;
  const start = row === 0 ? 0 : chunk.ends[row - 1];
  return chunk.text.slice(start, chunk.ends[row]).includes(needle.text) || across(chunk, row, needle);
}

/**
 * How many of `ids` (ascending; ids the copy does not hold are left out) hold the needle in a key:
 * each contact's own keys are compared, so the work follows the candidates, not the copy's size.
 */
export function countAmong(chunks: Chunk[], needle: Needle, ids: number[]): number {
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
    if (holds(chunk, row, needle)) count++;
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
export function estimateIn(chunks: Chunk[], needles: Needle[]): number {
  const sample = chunks.filter((_, k) => k % SAMPLE_EVERY === SAMPLE_EVERY >> 1);
  const read = sample.length > 0 ? sample : chunks;
  let found = 0;
  let rows = 0;
  for (const chunk of read) {
    rows += chunk.ends.length;
    const held = new Uint8Array(chunk.ends.length);
    markIn(chunk, needles[0], held);
    for (let row = 0; row < held.length; row++) if (held[row] === 1 && needles.every((needle) => holds(chunk, row, needle))) found++;
  }
  const all = chunks.reduce((sum, chunk) => sum + chunk.ends.length, 0);
  return rows === 0 ? 0 : (found / rows) * all;
}

/**
 * The ids of up to `limit` contacts holding the needle, after the first `skip` of those whose id
 * is above `after`, in id order; undefined when more than `maxRows` contacts were read first (the
 * matches are too sparse here for a walk of the text to pay).
 */
export function pageIn(chunks: Chunk[], needle: Needle, after: number, skip: number, limit: number, maxRows: number): number[] | undefined {
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
    const chunk = chunks[k];
    const { ids: held, base } = chunk;
    let row = 0;
    while (row < held.length && held[row] + base <= after) row++;
    const firstRow = row;
    const marks = new Uint8Array(held.length);
    markIn(chunk, needle, marks);
    for (; row < held.length; row++) {
      if (marks[row] === 0) continue;
      if (read + row - firstRow > maxRows) return undefined;
      if (skip > 0) skip--;
      else if (ids.push(held[row] + base) === limit) break;
    }
    read += held.length - firstRow;
    if (read > maxRows && ids.length < limit) return undefined;
  }
  return ids;
}
