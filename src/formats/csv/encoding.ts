/**
 * How the bytes of a CSV file become text (decisions.md §8): UTF-8, with or without a BOM, or
 * UTF-16 with its BOM (Excel's "Unicode text"). Decoding is fatal: a byte that is not text in
 * the file's encoding is never read as U+FFFD. When a file is not text, the problem names the
 * line and what the file looks like instead (Windows-1252, UTF-16 without a BOM), with the fix.
 */
import { open, readFile } from 'node:fs/promises';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/**
 * Bytes read (and text decoded) at a time. Small enough that a chunk's text is an ordinary heap
 * object, collected young: the text of a 256 KiB chunk is a large object, freed only by a full
 * collection, and reading a 1M-row import three times so takes the server past 200 MB
 * (docs/benchmarks.md). 64 KiB also reads faster (the row count of 1M rows: 3.2 s with 256 KiB, 1.4 s).
 */
const READ_CHUNK = 64 * 1024;

/** The encoding a file's first bytes announce: a UTF-16 byte order mark, else UTF-8. */
function encodingOf(head: Uint8Array): TextEncoding {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/** How a non-UTF-8 encoding is named to users. */
export const ENCODING_NAMES: Record<TextEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 (little-endian)',
  'utf-16be': 'UTF-16 (big-endian)',
};

/** A fatal decoder (the BOM is taken off). */
const decoderFor = (encoding: TextEncoding) => new TextDecoder(encoding, { fatal: true });

/** Why bytes are not text: the 1-based line of the first bad byte, what it is, and how to fix the file. */
export interface EncodingProblem {
  line: number;
  /** `line 7 is not UTF-8 (byte 0xEB, "ë" in Windows-1252: the file looks like Windows-1252)` */
  message: string;
  fix: string;
}

/** Thrown by the readers when a file turns out not to be text (checked first, so only a file changed meanwhile). */
export class CsvEncodingError extends Error {
  override name = 'CsvEncodingError';
  constructor(readonly problem: EncodingProblem) {
    super(problem.message);
  }
}

/**
 * Where the first byte that is not UTF-8 (or a NUL) stands, counting lines as the CSV reader
 * does (CRLF once). Byte by byte: only run once decoding has failed.
 */
class Utf8Locator {
  line = 1;
  offset = 0;
  private afterCr = false;
  private need = 0; // continuation bytes still expected
  private lower = 0x80;
  private upper = 0xbf;
  private lead = -1;
  /** The first bad byte: its value (-1 for a sequence cut by the end of the file). */
  bad: { byte: number; line: number; offset: number } | undefined;

  feed(bytes: Uint8Array, end: boolean): boolean {
    for (let i = 0; i < bytes.length; i++, this.offset++) {
      const b = bytes[i];
      if (this.need > 0) {
        if (b < this.lower || b > this.upper) return this.fail(this.lead);
        this.lower = 0x80;
        this.upper = 0xbf;
        this.need -= 1;
        continue;
      }
      if (b === 0x0a) {
        if (!this.afterCr) this.line += 1;
        this.afterCr = false;
        continue;
      }
      if (this.afterCr) this.afterCr = false;
      if (b === 0x0d) {
        this.line += 1;
        this.afterCr = true;
      } else if (b === 0) return this.fail(0);
      else if (b < 0x80) continue;
      else if (b >= 0xc2 && b <= 0xdf) this.start(b, 1, 0x80, 0xbf);
      else if (b === 0xe0) this.start(b, 2, 0xa0, 0xbf);
      else if (b === 0xed) this.start(b, 2, 0x80, 0x9f);
      else if (b >= 0xe1 && b <= 0xef) this.start(b, 2, 0x80, 0xbf);
      else if (b === 0xf0) this.start(b, 3, 0x90, 0xbf);
      else if (b === 0xf4) this.start(b, 3, 0x80, 0x8f);
      else if (b >= 0xf1 && b <= 0xf3) this.start(b, 3, 0x80, 0xbf);
      else return this.fail(b);
    }
    if (end && this.need > 0) return this.fail(this.lead);
    return true;
  }

  private start(lead: number, need: number, lower: number, upper: number): void {
    this.lead = lead;
    this.need = need;
    this.lower = lower;
    this.upper = upper;
  }

  private fail(byte: number): false {
    this.bad = { byte, line: this.line, offset: this.offset };
    return false;
  }
}

const hex = (byte: number) => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** Many NUL bytes at alternate positions: UTF-16 text without its byte order mark. */
function looksLikeUtf16(sample: Uint8Array): boolean {
  let even = 0;
  let odd = 0;
  for (let i = 0; i < sample.length; i++) if (sample[i] === 0) i % 2 ? odd++ : even++;
  return Math.max(even, odd) > sample.length / 4;
}

function utf8Problem(bad: { byte: number; line: number }, sample: Uint8Array): EncodingProblem {
  const { byte, line } = bad;
  const fix = 'Save it as "CSV UTF-8"';
  if (byte === 0) {
    return looksLikeUtf16(sample)
      ? {
          line,
          message: `line ${line} is not UTF-8 (NUL bytes: the file looks like UTF-16 without its byte order mark)`,
          fix: `${fix}, or convert it: iconv -f UTF-16LE -t UTF-8 old.csv > new.csv`,
        }
      : { line, message: `line ${line} holds a NUL byte (the file is not text)`, fix: `${fix}.` };
  }
  if (byte < 0) return { line, message: `line ${line} is not UTF-8 (the file ends inside a character)`, fix: `${fix}.` };
  const as1252 = new TextDecoder('windows-1252').decode(Uint8Array.of(byte));
  return {
    line,
    message: `line ${line} is not UTF-8 (byte ${hex(byte)}, "${as1252}" in Windows-1252: the file looks like Windows-1252)`,
    fix: `${fix}, or convert it: iconv -f WINDOWS-1252 -t UTF-8 old.csv > new.csv`,
  };
}

/** The first line of UTF-16 text that fails to decode (a lone surrogate or an odd last byte). */
function utf16Problem(text: string, encoding: TextEncoding): EncodingProblem {
  const line = text.split(/\r\n|\r|\n/).length;
  return {
    line,
    message: `line ${line} is not valid ${ENCODING_NAMES[encoding]} (a character is cut or unpaired)`,
    fix: 'Save it as "CSV UTF-8".',
  };
}

/** Decodes bytes held in memory (standard input, a small file), fatally: a problem names its line. */
export function decodeBytes(bytes: Uint8Array): { text: string; encoding: TextEncoding } {
  const encoding = encodingOf(bytes);
  try {
    const text = decoderFor(encoding).decode(bytes);
    if (encoding === 'utf-8' && text.includes('\u0000')) throw new Error('NUL');
    return { text, encoding };
  } catch {
    throw new CsvEncodingError(problemIn(bytes, encoding));
  }
}

function problemIn(bytes: Uint8Array, encoding: TextEncoding): EncodingProblem {
  if (encoding !== 'utf-8') {
    // Decoded leniently only to find the line of the first character that is not text.
    const text = new TextDecoder(encoding).decode(bytes);
    const at = text.indexOf('\uFFFD');
    return utf16Problem(at < 0 ? text : text.slice(0, at + 1), encoding);
  }
  const locator = new Utf8Locator();
  locator.feed(bytes, true);
  return utf8Problem(locator.bad ?? { byte: -1, line: 1 }, bytes.subarray(0, 4096));
}

/**
 * Checks a whole file with a fatal decoder before anything relies on it: undefined when every
 * byte is text in the file's encoding (and a UTF-8 file holds no NUL), else the problem.
 */
export async function findEncodingProblem(path: string, onText?: (text: string) => void): Promise<EncodingProblem | undefined> {
  try {
    for await (const chunk of decodedChunks(path)) onText?.(chunk.text);
    return undefined;
  } catch (error) {
    if (error instanceof CsvEncodingError) return error.problem;
    throw error;
  }
}

async function locateProblem(path: string, encoding: TextEncoding): Promise<EncodingProblem> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, 0);
    const sample = Buffer.from(buffer.subarray(0, Math.min(bytesRead, 4096)));
    if (encoding !== 'utf-8') {
      // UTF-16 files are rare and small next to UTF-8 ones: read whole to find the line.
      return problemIn(await readFile(path), encoding);
    }
    const locator = new Utf8Locator();
    let position = 0;
    let chunk = buffer.subarray(0, bytesRead);
    for (;;) {
      const end = chunk.length === 0;
      if (!locator.feed(chunk, end) || end) break;
      position += chunk.length;
      const next = await handle.read(buffer, 0, READ_CHUNK, position);
      chunk = buffer.subarray(0, next.bytesRead);
    }
    return utf8Problem(locator.bad ?? { byte: -1, line: locator.line }, sample);
  } finally {
    await handle.close();
  }
}

/**
 * The decoded text of a file, chunk by chunk (`end` on the last), fatally: a byte that is not
 * text throws CsvEncodingError naming its line.
 */
export async function* decodedChunks(path: string): AsyncGenerator<{ text: string; end: boolean; encoding: TextEncoding }> {
  const handle = await open(path, 'r');
  let encoding: TextEncoding | undefined;
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK);
    let decoder: ReturnType<typeof decoderFor> | undefined;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, null);
      const chunk = buffer.subarray(0, bytesRead);
      if (encoding === undefined) {
        encoding = encodingOf(chunk);
        decoder = decoderFor(encoding);
      }
      let text: string;
      try {
        text = decoder!.decode(chunk, { stream: bytesRead > 0 });
        if (encoding === 'utf-8' && text.includes('\u0000')) throw new Error('NUL');
      } catch {
        throw new CsvEncodingError(await locateProblem(path, encoding));
      }
      yield { text, end: bytesRead === 0, encoding };
      if (bytesRead === 0) return;
    }
  } finally {
    await handle.close();
  }
}
