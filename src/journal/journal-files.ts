// Reading the journal's files back. They sit in the config folder, where they may be cut short by a
// crash, edited by hand, planted or huge: each is checked against its schema and bounded in size
// and in records, and any fault is one line naming the file within the config folder
// (`history/<id>.json`) and what is wrong (exit 2, as a damaged config.json is), never a JavaScript error.
import { chmodSync, closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { gunzipSync, constants as zlibConstants } from 'node:zlib';
import type { z } from 'zod';
import { ConfigError } from '../cli/errors.js';
import { type ChangeMeta, createdRecordOf, type JournalRecord, journalRecordSchema, storedMetaSchema } from './records.js';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;
/** A meta is a few hundred bytes; notes may add some. */
const MAX_META_BYTES = 1024 * 1024;
/** A record file on disk, plain or gzipped (100,000 contacts take a few MB gzipped). */
const MAX_RECORD_FILE_BYTES = 256 * 1024 * 1024;
/** A gzipped record file inflated. */
const MAX_INFLATED_BYTES = 512 * 1024 * 1024;
const CHUNK = 1024 * 1024;
/**
 * The most records one change keeps (the store stops there, saying so): a record takes a few
 * hundred bytes once read however short its line, so the count, not the file's size, bounds what
 * reading a change costs. A record file holding more lines is refused before any is parsed.
 */
export const MAX_RECORDS = 500_000;

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** A journal file that cannot be used: `history/<name>` and what is wrong with it (exit 2). */
export class JournalFileDamaged extends ConfigError {
  constructor(
    readonly file: string,
    readonly what: string,
  ) {
    super(`the change journal's ${file} ${what}: that change cannot be shown or undone; remove its files (or \`wsm history clear\`)`);
  }
}

const damaged = (dir: string, name: string, what: string) => new JournalFileDamaged(`${basename(dir)}/${name}`, what);

const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0];
  return `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`;
};

/** Opened without following a link nor waiting on a pipe; only a regular file is taken. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * `name` in the journal folder opened for reading, undefined when there is none; a link, a pipe or a
 * folder there is no file wsm wrote.
 */
function openJournalFile(dir: string, name: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(join(dir, name), OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw damaged(dir, name, 'is a link, not a file wsm wrote');
    throw damaged(dir, name, `cannot be read (${code ?? (error as Error).message})`);
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw damaged(dir, name, 'is not a regular file');
  }
  return fd;
}

/** The meta of change `id`; its id is the file's name, whatever the file says. */
export function readMeta(dir: string, id: string): ChangeMeta {
  const name = `${id}.json`;
  const fd = openJournalFile(dir, name);
  if (fd === undefined) throw damaged(dir, name, 'cannot be read (ENOENT)');
  let text: string;
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_META_BYTES) throw damaged(dir, name, `is ${mb(size)}, more than a meta may be (${mb(MAX_META_BYTES)})`);
    text = readFileSync(fd, 'utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw damaged(dir, name, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  } finally {
    closeSync(fd);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw damaged(dir, name, 'is not JSON (cut short?)');
  }
  const meta = storedMetaSchema.safeParse(json);
  if (!meta.success) throw damaged(dir, name, `is not a change's meta (${firstIssue(meta.error)})`);
  return { ...meta.data, id };
}

/** Calls `line` with each line of `bytes`, decoded piece by piece (no string the size of the file). */
function eachLine(read: (into: Buffer) => number, line: (text: string) => void): void {
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.allocUnsafe(CHUNK);
  let rest = '';
  for (let got = read(buffer); got > 0; got = read(buffer)) {
    const parts = (rest + decoder.write(buffer.subarray(0, got))).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) if (part !== '') line(part);
  }
  rest += decoder.end();
  if (rest !== '') line(rest);
}

/** How many lines `read` gives, counted in one buffer without keeping any; `whole` when the last one ends with its newline. */
function countLines(read: (into: Buffer) => number): { lines: number; whole: boolean } {
  const buffer = Buffer.allocUnsafe(CHUNK);
  let lines = 0;
  let last = 0x0a;
  for (let got = read(buffer); got > 0; got = read(buffer)) {
    for (let at = buffer.indexOf(0x0a); at !== -1 && at < got; at = buffer.indexOf(0x0a, at + 1)) lines += 1;
    last = buffer[got - 1];
  }
  return last === 0x0a ? { lines, whole: true } : { lines: lines + 1, whole: false };
}

/** The bytes of a record file, read from the start each time it is called. */
type Source = () => (into: Buffer) => number;

const fileSource =
  (fd: number): Source =>
  () => {
    let position = 0;
    return (into) => {
      const got = readSync(fd, into, 0, into.length, position);
      position += got;
      return got;
    };
  };

const bufferSource =
  (bytes: Buffer): Source =>
  () => {
    let at = 0;
    return (into) => {
      const got = bytes.copy(into, 0, at, Math.min(at + into.length, bytes.length));
      at += got;
      return got;
    };
  };

const count = (n: number) => n.toLocaleString('en-US');

/** A change's records, and whether its last one was left out, cut short by a writer that died. */
export interface ReadRecords {
  records: JournalRecord[];
  cut: boolean;
}

/**
 * The records of a change, each checked; a file over the bounds is refused before it is read. A
 * change that never ended (its writer stopped or killed, as the caller has made sure) may end in a
 * record cut short, which is left out rather than refusing what was whole before it.
 */
export function readRecords(dir: string, meta: ChangeMeta): ReadRecords {
  let name = `${meta.id}.jsonl`;
  let fd = openJournalFile(dir, name);
  if (fd === undefined) {
    name = `${meta.id}.jsonl.gz`;
    fd = openJournalFile(dir, name);
  }
  if (fd === undefined) throw damaged(dir, name, 'cannot be read (ENOENT)');
  if (meta.records > MAX_RECORDS) {
    closeSync(fd);
    throw damaged(dir, `${meta.id}.json`, `names ${count(meta.records)} records, more than a change keeps (${count(MAX_RECORDS)})`);
  }
  const records: JournalRecord[] = [];
  /** The index of a last line that may be cut short (a never-ended change's, without its newline), else 0. */
  let cuttable = 0;
  let cut = false;
  let at = 0;
  const take = (text: string) => {
    at += 1;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      if (at === cuttable) return void (cut = true);
      throw damaged(dir, name, `has a line that is not JSON at record ${records.length + 1} (cut short?)`);
    }
    const record = journalRecordSchema.safeParse(Array.isArray(json) ? createdRecordOf(json) : json);
    if (!record.success) throw damaged(dir, name, `has no journal record at record ${records.length + 1} (${firstIssue(record.error)})`);
    records.push(record.data);
  };
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_RECORD_FILE_BYTES)
      throw damaged(dir, name, `is ${mb(size)}, more than a change's records may take (${mb(MAX_RECORD_FILE_BYTES)})`);
    let source = fileSource(fd);
    // A change that ended without a record (an import whose rows all failed) leaves its record file empty.
    if (name.endsWith('.gz') && size > 0) {
      try {
        // A never-ended change's last gzip member may be cut short: what inflates before the cut is kept.
        const flush = meta.ended === undefined ? { finishFlush: zlibConstants.Z_SYNC_FLUSH } : {};
        source = bufferSource(gunzipSync(readFileSync(fd), { maxOutputLength: MAX_INFLATED_BYTES, ...flush }));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw damaged(
          dir,
          name,
          code === 'ERR_BUFFER_TOO_LARGE' ? `inflates past ${mb(MAX_INFLATED_BYTES)}` : 'is no whole gzip stream (cut short?)',
        );
      }
    }
    const { lines, whole } = countLines(source());
    if (meta.ended === undefined && !whole) cuttable = lines;
    if (lines > MAX_RECORDS)
      throw damaged(dir, name, `holds ${count(lines)} lines, more records than a change keeps (${count(MAX_RECORDS)})`);
    eachLine(source(), take);
  } finally {
    closeSync(fd);
  }
  if (meta.ended !== undefined && records.length !== meta.records)
    throw damaged(dir, name, `holds ${records.length} records where its meta names ${meta.records} (cut short?)`);
  return { records, cut };
}

/** The folder 700 and each file in it 600, as config.json and its folder are: others may read none of it. */
export function tighten(dir: string): void {
  if ((statSync(dir).mode & 0o777) !== DIR_MODE) chmodSync(dir, DIR_MODE);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    // lstat: a link planted here is left alone, never followed to a file elsewhere.
    const info = lstatSync(path);
    if (info.isFile() && (info.mode & 0o777) !== FILE_MODE) chmodSync(path, FILE_MODE);
  }
}
