// multipart/form-data written byte for byte as given (RFC 7578). Not undici's FormData: the
// WHATWG encoding it follows turns every line break of a text value into CRLF, so a note with
// LF lines came back from the server changed. A value's bytes are its UTF-8, nothing
// added; a file is streamed from disk. Each attempt of a request reads a fresh body().
import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import type { MultipartPart } from './request-parts.js';
import { SECRET_FIELD } from './transport-text.js';

export interface MultipartBody {
  contentType: string;
  length: number;
  /** The bytes of the body, from the start: a retry sends them again. */
  body(): Readable;
  /** What --verbose shows of it (secrets hidden). */
  traceText: string;
}

const encoder = new TextEncoder();
const CRLF = encoder.encode('\r\n');

/** A name or filename inside a quoted header parameter: quote and line breaks escaped as browsers do. */
const quoted = (text: string) => text.replace(/[\r\n"]/g, (c) => (c === '"' ? '%22' : c === '\r' ? '%0D' : '%0A'));

type Piece = Uint8Array | Blob;

export async function encodeMultipart(parts: MultipartPart[]): Promise<MultipartBody> {
  const boundary = `----wsm${randomBytes(16).toString('hex')}`;
  const pieces: Piece[] = [];
  const described: string[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(part.name)}"`;
    if ('value' in part) {
      pieces.push(encoder.encode(`${head}\r\n\r\n`), encoder.encode(part.value), CRLF);
      described.push(`${part.name}=${SECRET_FIELD.test(part.name) ? '***' : part.value}`);
      continue;
    }
    // An unreadable file is the caller's error, found before anything is sent.
    const blob = 'data' in part ? new Blob([part.data]) : await openAsBlob(part.filePath);
    const filename = 'data' in part ? part.filename : (part.filename ?? basename(part.filePath));
    head += `; filename="${quoted(filename)}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`;
    pieces.push(encoder.encode(head), blob, CRLF);
    described.push(`${part.name}=<file ${filename}, ${blob.size} bytes>`);
  }
  pieces.push(encoder.encode(`--${boundary}--\r\n`));
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: pieces.reduce((sum, piece) => sum + (piece instanceof Blob ? piece.size : piece.byteLength), 0),
    body: () =>
      Readable.from(
        (async function* () {
          for (const piece of pieces) {
            if (piece instanceof Blob) yield* piece.stream();
            else yield piece;
          }
        })(),
        { objectMode: false },
      ),
    traceText: `multipart: ${described.join(', ')}`,
  };
}
