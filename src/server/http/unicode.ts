/**
 * Text that is not valid Unicode is refused, never stored altered: a JSON
 * escape of half a surrogate pair (`"\ud800"`) and bytes that are not UTF-8, in a JSON body or a
 * multipart field, are a 422 naming the field. Decoding keeps each byte that is not UTF-8 as a
 * lone surrogate (U+DC80 + byte, as Python's `surrogateescape` does) instead of U+FFFD, so that
 * one check after parsing finds both, with the field they are in.
 */
import { isUtf8 } from 'node:buffer';
import { validationFailed, type HttpError } from './errors.js';

/** Length of the UTF-8 sequence a lead byte starts, and the range its second byte must fall in (RFC 3629). */
function sequence(lead: number): [length: number, low: number, high: number] | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80, 0xbf];
  if (lead === 0xe0) return [3, 0xa0, 0xbf];
  if (lead === 0xed) return [3, 0x80, 0x9f]; // no surrogates
  if (lead >= 0xe1 && lead <= 0xef) return [3, 0x80, 0xbf];
  if (lead === 0xf0) return [4, 0x90, 0xbf];
  if (lead >= 0xf1 && lead <= 0xf3) return [4, 0x80, 0xbf];
  if (lead === 0xf4) return [4, 0x80, 0x8f];
  return undefined;
}

/** UTF-8 bytes as text; a byte that is not part of a valid sequence becomes the lone surrogate U+DC80 + byte. */
export function decodeKeepingInvalid(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  let out = '';
  let start = 0; // start of the valid run not yet copied
  let i = 0;
  const flush = (end: number) => {
    if (end > start) out += bytes.toString('utf8', start, end);
  };
  while (i < bytes.length) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    const form = sequence(lead);
    let valid = form !== undefined && i + form[0] <= bytes.length && bytes[i + 1] >= form[1] && bytes[i + 1] <= form[2];
    for (let k = 2; valid && form && k < form[0]; k++) valid = bytes[i + k] >= 0x80 && bytes[i + k] <= 0xbf;
    if (valid && form) {
      i += form[0];
      continue;
    }
    flush(i);
    out += String.fromCharCode(0xdc00 + lead);
    i += 1;
    start = i;
  }
  flush(i);
  return out;
}

/** A lone surrogate: with the `u` flag a well-formed pair reads as one code point, so only halves match. */
const LONE_SURROGATE = /\p{Cs}/u;
const wellFormed = (text: string) => text.replace(/\p{Cs}/gu, '\uFFFD');

/** `buttons.1.url` -> `url`: how a 422 names the field in its sentence. */
const labelOf = (path: string) =>
  (
    path
      .split('.')
      .reverse()
      .find((part) => !/^\d+$/.test(part)) ?? 'body'
  ).replace(/_/g, ' ');

/**
 * The dotted path of the first string (or key) holding a lone surrogate (text that is not
 * Unicode), or undefined. Iterative: a body nested 100,000 deep must not overflow the stack.
 */
function firstInvalidText(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (LONE_SURROGATE.test(current)) return path || 'body';
      continue;
    }
    if (current === null || typeof current !== 'object' || Buffer.isBuffer(current)) continue;
    const entries = Object.entries(current as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i];
      const at = path ? `${path}.${wellFormed(key)}` : wellFormed(key);
      if (LONE_SURROGATE.test(key)) return at;
      stack.push([inner, at]);
    }
  }
  return undefined;
}

/** The 422 for text that is not valid Unicode, when `value` holds any. */
export function invalidTextError(value: unknown): HttpError | undefined {
  const path = firstInvalidText(value);
  return path === undefined ? undefined : validationFailed({ [path]: [`The ${labelOf(path)} field must be valid UTF-8 text.`] });
}
