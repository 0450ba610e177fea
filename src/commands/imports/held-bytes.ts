// The upload of a UTF-8 file without the cells its plan holds, made without a copy: the file's own
// bytes, read from disk as they are sent, with each rewritten record (held-cells.ts) in place of
// the bytes of its lines. Its size is known before anything is read (a Content-Length, as the
// published API's uploads carry), and a retry reads the same bytes again. The records' places are
// found by their line ends alone, as the CSV reader counts lines (CRLF, LF and CR each end one):
// in UTF-8 those bytes are never part of another character, and only a UTF-8 comma-separated file
// is sent as its own bytes (any other is sent as the CSV of its rows: canonical-csv.ts).
import { openAsBlob } from 'node:fs';
import { open } from 'node:fs/promises';
import type { RewrittenRecord } from './held-cells.js';

const READ_CHUNK = 64 * 1024;
const LF = 10;
const CR = 13;

/** Where a record's text stands in the file: from its first line's start to the line end after its last line (or the file's end). */
interface Span {
  start: number;
  end: number;
}

/** `file` with `records` (in file order) in place of their text, as bytes read as they are sent; undefined when the file lost lines since its rows were read. */
export async function bytesWithoutHeld(file: string, records: readonly RewrittenRecord[]): Promise<Blob | undefined> {
  // Opened first: a file changed after this fails its upload rather than sending bytes the spans do not fit.
  const bytes = await openAsBlob(file);
  const spans = await spansOf(file, records);
  if (spans.length < records.length) return undefined; // the file changed since its rows were read: written anew from what it holds
  const encoder = new TextEncoder();
  const parts: Array<Blob | Uint8Array> = [];
  let at = 0;
  records.forEach((record, index) => {
    parts.push(bytes.slice(at, spans[index].start), encoder.encode(record.text));
    at = spans[index].end;
  });
  parts.push(bytes.slice(at));
  return new Blob(parts);
}

/** The span of each record, found in one read of the file up to the last record's end. */
async function spansOf(file: string, records: readonly RewrittenRecord[]): Promise<Span[]> {
  const spans: Span[] = [];
  let line = 1;
  let start = 0;
  /** The line on which the record being passed over ends, 0 when none is. */
  let lastLine = 0;
  const lineStarts = (offset: number) => {
    if (lastLine === 0 && records[spans.length]?.line === line) {
      start = offset;
      lastLine = line + records[spans.length].lines - 1;
    }
  };
  const lineEnds = (offset: number) => {
    if (lastLine === line) {
      spans.push({ start, end: offset });
      lastLine = 0;
    }
    line += 1;
  };
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK);
    let offset = 0;
    /** The last chunk ended with a CR: an LF first in this one is its pair. */
    let afterCr = false;
    lineStarts(0);
    while (spans.length < records.length) {
      const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      let i = 0;
      if (afterCr && chunk[0] === LF) i = 1;
      if (afterCr) lineStarts(offset + i);
      afterCr = false;
      let nextLf = chunk.indexOf(LF, i);
      let nextCr = chunk.indexOf(CR, i);
      while (spans.length < records.length) {
        if (nextLf >= 0 && nextLf < i) nextLf = chunk.indexOf(LF, i);
        if (nextCr >= 0 && nextCr < i) nextCr = chunk.indexOf(CR, i);
        const eol = nextCr < 0 || (nextLf >= 0 && nextLf < nextCr) ? nextLf : nextCr;
        if (eol < 0) break;
        lineEnds(offset + eol);
        i = eol + 1;
        if (chunk[eol] === CR) {
          if (i === bytesRead) {
            afterCr = true;
            break;
          }
          if (chunk[i] === LF) i += 1;
        }
        lineStarts(offset + i);
      }
      offset += bytesRead;
    }
    // The last record may end the file without a line end.
    if (lastLine !== 0) spans.push({ start, end: offset });
  } finally {
    await handle.close();
  }
  return spans;
}
