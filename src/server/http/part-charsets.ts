/**
 * Which fields of a multipart form declare their own charset (`Content-Type: text/plain;
 * charset=utf-8`, as .NET and Spring send every text part). The parser decodes such a part in
 * that charset, and every other part in the default the form reader gives it ('latin1': the bytes
 * as they came), so that multipart.ts can check those bytes as UTF-8 itself instead of letting
 * them turn into U+FFFD unseen. The parser does not say which parts declared one: this listens
 * to the same body and reads the part headers, at the speed of Buffer.indexOf.
 */
import type { IncomingMessage } from 'node:http';

/** Part headers longer than this are not read (the parser itself refuses far smaller ones). */
const MAX_HEADER_BYTES = 16 * 1024;
const END_OF_HEADERS = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);

/**
 * Where, at or after `from`, the end of `data` may be the start of a delimiter the next chunk
 * completes: the first byte of the longest such tail, or `data.length` when none is (the usual
 * case, so nothing is carried over).
 */
function delimiterStartNear(data: Buffer, delimiter: Buffer, from: number): number {
  for (let at = Math.max(from, data.length - delimiter.length + 1); at < data.length; at++)
    if (data.compare(delimiter, 0, data.length - at, at) === 0) return at;
  return data.length;
}

const param = (header: string, name: string) =>
  new RegExp(`(?:^|;)\\s*${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i').exec(header);

/** Field names (as the parser decodes them) whose part declared a charset. */
export function watchPartCharsets(raw: IncomingMessage, boundary: string): Set<string> {
  const declared = new Set<string>();
  // The body's first delimiter has no line end before it: one is supposed at the start.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let pending = Buffer.from('\r\n');

  const readHeaders = (block: Buffer) => {
    let name: string | undefined;
    let charset = false;
    for (const line of block.toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const field = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1);
      if (field === 'content-disposition' && /^\s*form-data\b/i.test(value)) {
        const match = param(value, 'name');
        if (match) name = Buffer.from((match[1] ?? match[2]).replace(/\\(.)/g, '$1'), 'latin1').toString('utf8');
      } else if (field === 'content-type' && param(value, 'charset')) charset = true;
    }
    if (name !== undefined && charset) declared.add(name);
  };

  raw.on('data', (chunk: Buffer) => {
    // Only the few bytes carried over are joined to a chunk: copying every chunk whole doubled the
    // memory an upload churns through (a 50 MB file held twice over until the collector ran).
    const data = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    let from = 0;
    let keepFrom = delimiterStartNear(data, delimiter, 0);
    for (;;) {
      const at = data.indexOf(delimiter, from);
      if (at === -1) break;
      const start = at + delimiter.length;
      const end = data.indexOf(END_OF_HEADERS, start);
      if (end === -1) {
        // The header block goes on in the next chunk (unless it is too long to be one).
        keepFrom = data.length - at > MAX_HEADER_BYTES ? data.length : at;
        break;
      }
      readHeaders(data.subarray(start, end));
      from = end + END_OF_HEADERS.length;
      keepFrom = delimiterStartNear(data, delimiter, from);
    }
    pending = keepFrom < data.length ? Buffer.from(data.subarray(keepFrom)) : EMPTY;
  });
  return declared;
}
