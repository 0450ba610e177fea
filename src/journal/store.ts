// The journal on disk: a folder `history` beside config.json (mode 700), one change per pair of
// files: `<id>.json`, its meta (written whole, atomically, mode 600), and `<id>.jsonl`, its records
// one JSON line each, appended as the change goes (`<id>.jsonl.gz` for a large change: each batch
// of records one gzip member, which a reader takes as one stream). Listing reads the metas alone.
// Bounded: the last WSM_HISTORY_CHANGES changes (200) within WSM_HISTORY_DAYS days (90); older
// ones are removed when a change begins, and the folder and files made private again. A change being
// written holds `<id>.lock` until its end (change-lock.ts), so another wsm can tell it from one whose
// writer died. Reading back checks every file (journal-files.ts). Nothing here is ever sent anywhere.
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type ChangeLock, changeLockHeld, holdChangeLock } from './change-lock.js';
import { ConfigError, UsageError } from '../cli/errors.js';
import { writeFileAtomically } from '../cli/replace-file.js';
import { DIR_MODE, FILE_MODE, JournalFileDamaged, MAX_RECORDS, readMeta, readRecords, tighten } from './journal-files.js';
import { CHANGE_ID, type ChangeMeta, type FailedIds, type JournalRecord } from './records.js';
import { DEFAULT_LIMITS, type JournalLimits } from './journal-limits.js';

/** Past this many records a change's file is gzipped: a 100,000-row import's journal stays a few MB. */
const GZIP_FROM_RECORDS = 500;

/** A change being written: its records appended as they are known, its end said once. */
export interface ChangeWriter {
  readonly id: string;
  add(records: JournalRecord[]): void;
  /**
   * Records already written as JSON lines (`count` of them in `lines`, each ending in a newline),
   * kept as add() keeps records; `more`: records past the most a change keeps were left out (said).
   */
  addLines(lines: Uint8Array, count: number, more?: boolean): void;
  /** A sentence kept with the change (a record without a before-image, and why). */
  note(sentence: string): void;
  /** The change ended: the ids whose request failed, by resource, and the contacts a delete found already gone. */
  finish(failed: FailedIds, gone?: number[]): void;
}

export interface StoredChange {
  meta: ChangeMeta;
  records: JournalRecord[];
}

/** What a verb says of a change it makes; the store adds its id, time, counts and notes. */
type NewMeta = Omit<ChangeMeta, 'id' | 'when' | 'records' | 'notes'>;

/** JSON lines as their file keeps them: one gzip member per batch in a gzipped file. */
const packed = (lines: string | Uint8Array, gzip: boolean) => (gzip ? gzipSync(lines, { level: 1 }) : lines);

/** Records as their file keeps them: a JSON line each. */
const recordLines = (records: JournalRecord[], gzip: boolean) =>
  packed(records.map((record) => `${JSON.stringify(record)}\n`).join(''), gzip);

/** Said of a change whose writer died while writing its last record. */
const CUT_SHORT = 'its last record is cut short (its command stopped while writing it): left out, so undo leaves that one';

const two = (n: number) => String(n).padStart(2, '0');
/** `20261128-171522-483`: sorts as the changes were made. */
function changeId(at: Date): string {
  const day = `${at.getUTCFullYear()}${two(at.getUTCMonth() + 1)}${two(at.getUTCDate())}`;
  const time = `${two(at.getUTCHours())}${two(at.getUTCMinutes())}${two(at.getUTCSeconds())}`;
  return `${day}-${time}-${String(at.getUTCMilliseconds()).padStart(3, '0')}`;
}

const META = /^(\d{8}-\d{6}-\d{3,})\.json$/;

/** A change damaged beyond reading, as `wsm history` skips it. */
export type SkipDamaged = (damage: JournalFileDamaged) => void;

export class JournalStore {
  constructor(
    readonly dir: string,
    private readonly limits: JournalLimits = DEFAULT_LIMITS,
    /** The most records a change keeps, past which a reader refuses it. */
    private readonly maxRecords = MAX_RECORDS,
  ) {}

  /** The folder made, and writable: a change can be kept in it. */
  prepare(): void {
    mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
    tighten(this.dir);
    accessSync(this.dir, constants.W_OK);
  }

  /**
   * Starts a change: its lock held, then its meta on disk before the first record is sent. Until
   * `finish`, another wsm sees it being written (`beingWritten`), and `wsm undo` refuses it.
   */
  begin(meta: NewMeta, expected: number, now = new Date()): ChangeWriter {
    const gzip = expected > GZIP_FROM_RECORDS;
    const { id, fd } = this.claim(gzip, now);
    let lock: ChangeLock;
    try {
      lock = holdChangeLock(this.lockPath(id), FILE_MODE);
    } catch (error) {
      closeSync(fd);
      this.remove(id);
      throw error;
    }
    const full: ChangeMeta = { id, when: now.toISOString(), ...meta, records: 0, notes: [], pid: process.pid };
    const { maxRecords } = this;
    const pastMost = `only its first ${maxRecords.toLocaleString('en-US')} records are kept (the most a change keeps): undo leaves the rest as they are`;
    const writeMeta = () => this.writeMeta(full);
    writeMeta();
    return {
      id,
      add(given) {
        if (given.length === 0) return;
        const records = given.slice(0, Math.max(0, maxRecords - full.records));
        if (records.length < given.length && !full.notes.includes(pastMost)) full.notes.push(pastMost);
        if (records.length === 0) return writeMeta();
        writeFileSync(fd, recordLines(records, gzip));
        full.records += records.length;
        // The meta counts them too: a change stopped before its end is listed with what it holds.
        writeMeta();
      },
      addLines(lines, count, more = false) {
        if (count > maxRecords - full.records) throw new RangeError(`${count} records are more than the change has room for`);
        if (more && !full.notes.includes(pastMost)) full.notes.push(pastMost);
        if (count > 0) writeFileSync(fd, packed(lines, gzip));
        full.records += count;
        if (count > 0 || more) writeMeta();
      },
      note(sentence) {
        full.notes.push(sentence);
        writeMeta();
      },
      finish(failed, gone = []) {
        closeSync(fd);
        full.ended = new Date().toISOString();
        const named = Object.entries(failed).filter(([, ids]) => ids.length > 0);
        if (named.length > 0) {
          full.failed = named.flatMap(([, ids]) => ids);
          full.failed_resources = Object.fromEntries(named);
        }
        if (gone.length > 0) full.gone = gone;
        delete full.pid;
        writeMeta();
        lock.release();
      },
    };
  }

  /**
   * Keeps a change already made whole (a single write, recorded once its answer came): its records
   * written before its meta, which is written ended, so no other wsm ever sees it half-written and
   * no lock is needed. Returns its id.
   */
  keep(meta: NewMeta, records: JournalRecord[], notes: string[], now = new Date()): string {
    const gzip = records.length > GZIP_FROM_RECORDS;
    const { id, fd } = this.claim(gzip, now);
    try {
      if (records.length > 0) writeFileSync(fd, recordLines(records, gzip));
    } finally {
      closeSync(fd);
    }
    this.writeMeta({ id, when: now.toISOString(), ...meta, records: records.length, notes, ended: new Date().toISOString() });
    return id;
  }

  /** Whether another wsm (or this one) is writing the change now: it has not ended, and its lock is held. */
  beingWritten(meta: ChangeMeta): boolean {
    return meta.ended === undefined && changeLockHeld(this.lockPath(meta.id));
  }

  /** A new change's id and its record file, made private, with room for it within the limits. */
  private claim(gzip: boolean, now: Date): { id: string; fd: number } {
    mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
    tighten(this.dir);
    this.prune(now);
    let at = now.getTime();
    let id = changeId(new Date(at));
    for (;;) {
      const mine = join(this.dir, `${id}.jsonl${gzip ? '.gz' : ''}`);
      let fd: number;
      try {
        fd = openSync(mine, 'wx', FILE_MODE);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        id = changeId(new Date(++at));
        continue;
      }
      // Another wsm begun in the same millisecond may hold the id under the other record file's name:
      // each looks for the other's after making its own, so at least one of two moves on.
      if (!existsSync(join(this.dir, `${id}.jsonl${gzip ? '' : '.gz'}`)) && !existsSync(join(this.dir, `${id}.json`))) return { id, fd };
      closeSync(fd);
      rmSync(mine, { force: true });
      id = changeId(new Date(++at));
    }
  }

  private writeMeta(meta: ChangeMeta): void {
    writeFileAtomically(join(this.dir, `${meta.id}.json`), `${JSON.stringify(meta)}\n`, FILE_MODE);
  }

  private lockPath(id: string): string {
    return join(this.dir, `${id}.lock`);
  }

  /** Every change kept, newest first; a damaged one is left out and said through `skip`. */
  list(skip: SkipDamaged = () => {}): ChangeMeta[] {
    return this.ids()
      .reverse()
      .flatMap((id) => {
        try {
          const meta = this.meta(id);
          return meta === undefined ? [] : [meta];
        } catch (error) {
          if (!(error instanceof JournalFileDamaged)) throw error;
          skip(error);
          return [];
        }
      });
  }

  /** A change by its id, or `last`; undefined when there is none such. A ref of another shape is refused before any path is made of it. */
  find(ref: string): ChangeMeta | undefined {
    if (ref !== 'last' && !CHANGE_ID.test(ref))
      throw new UsageError(`"${ref}" is no change id: give one from \`wsm history\` (like 20261128-171522-483) or last`);
    const ids = this.ids();
    const id = ref === 'last' ? ids.at(-1) : ids.find((candidate) => candidate === ref);
    return id === undefined ? undefined : this.meta(id);
  }

  read(meta: ChangeMeta): StoredChange {
    const { records, cut } = readRecords(this.dir, meta);
    return { meta: cut ? { ...meta, notes: [...meta.notes, CUT_SHORT] } : meta, records };
  }

  /** Removes every change but those another wsm is still writing (its records would go on into nothing); says how many of each. */
  clear(): { cleared: number; writing: number } {
    const ids = this.ids();
    const writing = ids.filter((id) => this.running(id));
    const gone = ids.filter((id) => !writing.includes(id));
    for (const id of gone) this.remove(id);
    return { cleared: gone.length, writing: writing.length };
  }

  private ids(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return [];
      const what =
        code === 'ENOTDIR'
          ? 'is a file, where wsm keeps its change journal: move it aside'
          : `cannot be read (${code ?? (error as Error).message})`;
      throw new ConfigError(`${this.dir} ${what}`);
    }
    return names.flatMap((name) => META.exec(name)?.[1] ?? []).sort();
  }

  private meta(id: string): ChangeMeta | undefined {
    try {
      return readMeta(this.dir, id);
    } catch (error) {
      if (error instanceof ConfigError && !existsSync(join(this.dir, `${id}.json`))) return undefined; // half-removed by another wsm's prune: not a change any more
      throw error;
    }
  }

  private remove(id: string): void {
    for (const name of [`${id}.json`, `${id}.jsonl`, `${id}.jsonl.gz`, `${id}.lock`]) rmSync(join(this.dir, name), { force: true });
  }

  /** Keeps room for one more change within the limits. */
  private prune(now: Date): void {
    const ids = this.ids();
    const cutOff = new Date(now.getTime() - this.limits.days * 86_400_000);
    // An invalid date would name no id and sort after every one: it removes none.
    const oldest = Number.isNaN(cutOff.getTime()) ? '' : changeId(cutOff);
    let surplus = ids.length + 1 - this.limits.changes;
    for (const id of ids) {
      if (id < oldest) this.remove(id);
      else if (surplus > 0 && !this.running(id)) {
        this.remove(id);
        surplus -= 1;
      }
    }
  }

  /** A change another wsm is still writing: making room takes the oldest others instead (a killed writer's change is not spared). */
  private running(id: string): boolean {
    try {
      const meta = this.meta(id);
      return meta !== undefined && this.beingWritten(meta);
    } catch (error) {
      if (error instanceof JournalFileDamaged) return false;
      throw error;
    }
  }
}
