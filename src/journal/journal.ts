// The journal as a verb meets it: the store of the profile's config folder, a change begun with
// who makes it (profile, base URL, workspace, the command line without its secrets). A journal that
// cannot be written stops the change before anything is sent: its promise is that it can be undone.
import { dirname, join } from 'node:path';
import type { Context } from '../cli/context.js';
import { CliError, ExitCode, UsageError } from '../cli/errors.js';
import type { JournalRecord } from './records.js';
import { limitsFrom } from './journal-limits.js';
import { JournalStore, type ChangeWriter } from './store.js';

/**
 * WSM_HISTORY=off: changes are made without a journal (no undo). Any other word is refused rather
 * than read as one or the other: a script's `WSM_HISTORY=0` must not keep a journal it meant to stop,
 * nor `WSM_HISTORY=false` drop one it meant to keep.
 */
export function journalOff(ctx: Context): boolean {
  const value = ctx.env.WSM_HISTORY?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'on') return false;
  if (value === 'off') return true;
  throw new UsageError(`WSM_HISTORY takes "off" (or "on", the default), got "${ctx.env.WSM_HISTORY?.trim()}": nothing was sent`);
}

export async function openJournal(ctx: Context): Promise<JournalStore> {
  const limits = limitsFrom(ctx.env);
  if (typeof limits === 'string') throw new UsageError(limits);
  return new JournalStore(join(dirname((await ctx.config()).path), 'history'), limits);
}

/** Flags whose value is a secret. */
const SECRET_FLAGS = new Set(['--token', '--password']);

/** `http://user:password@host`: the password of a URL's credentials (a proxy's basic auth). */
const URL_PASSWORD = /(\bhttps?:\/\/[^/@:\s]*):[^/@\s]*@/gi;

/** A text (a base URL, a word of a command line) with the password of any URL in it masked. */
export function withoutUrlPassword(text: string): string {
  return text.replace(URL_PASSWORD, '$1:***@');
}

/** The command line as typed, each secret masked (a flag's value, a token wherever it appears, a URL's password). */
export function commandLine(argv: string[], secrets: string[]): string {
  const words = argv.map((word, index) => {
    if (index > 0 && SECRET_FLAGS.has(argv[index - 1])) return '***';
    const [flag] = word.split('=', 1);
    if (word.includes('=') && SECRET_FLAGS.has(flag)) return `${flag}=***`;
    return secrets.reduce((text, secret) => (secret.length >= 4 ? text.split(secret).join('***') : text), withoutUrlPassword(word));
  });
  return ['wsm', ...words].map((word) => (/^[\w@%+=:,./*-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** What a verb says of the change it is about to make. */
export interface ChangeStart {
  summary: string;
  /** How many records it names (a large change is gzipped). */
  expected: number;
  undoes?: string;
}

/** The journal cannot be written: nothing is sent. */
function unwritable(store: JournalStore, error: unknown): CliError {
  const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new CliError(
    `cannot write the change journal in ${store.dir} (${why}): nothing was sent; WSM_HISTORY=off changes without one (no undo)`,
    ExitCode.failure,
  );
}

/** Before a change recorded once made (a single verb): the journal can take it, else nothing is sent. */
export async function journalReady(ctx: Context): Promise<void> {
  if (journalOff(ctx)) return;
  const store = await openJournal(ctx);
  try {
    store.prepare();
  } catch (error) {
    throw unwritable(store, error);
  }
}

/** Who makes a change, where, with what command. */
async function changeMeta(ctx: Context, start: ChangeStart) {
  const settings = await ctx.settings();
  return {
    profile: settings.profileName,
    base_url: withoutUrlPassword(settings.baseUrl ?? ''),
    workspace: settings.workspace ?? '',
    command: ctx.journalCommand ?? commandLine(ctx.commandArgs ?? process.argv.slice(2), ctx.secrets()),
    summary: ctx.journalSummary ?? start.summary,
    ...(start.undoes !== undefined ? { undoes: start.undoes } : {}),
  };
}

/** Begins a change in the journal, or undefined with WSM_HISTORY=off. */
export async function beginChange(ctx: Context, start: ChangeStart): Promise<ChangeWriter | undefined> {
  if (journalOff(ctx)) return undefined;
  const meta = await changeMeta(ctx, start);
  const store = await openJournal(ctx);
  try {
    return store.begin(meta, start.expected);
  } catch (error) {
    throw unwritable(store, error);
  }
}

/** Records a change of records already made; a record without a before-image is noted with why. */
export async function recordChange(ctx: Context, summary: string, records: JournalRecord[]): Promise<string | undefined> {
  if (journalOff(ctx)) return undefined;
  const meta = await changeMeta(ctx, { summary, expected: records.length });
  const store = await openJournal(ctx);
  const notes = records.flatMap((record) => (record.unknown !== undefined ? [record.unknown] : []));
  try {
    return store.keep(meta, records, notes);
  } catch (error) {
    throw unwritable(store, error);
  }
}
