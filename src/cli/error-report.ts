// The one place that prints a failure: one `error: ...` line on stderr (plus field errors), in the
// user's words, and with -o json an error object on stdout. The exit code is errors.ts's.
import { CommanderError } from 'commander';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIStatusError,
  MissingWorkspaceError,
  PageFailedError,
  UnsupportedEndpointError,
  UpdatedInPartError,
  ValidationFailedError,
  failureOf,
} from '../api/errors.js';
import { redactSecret } from '../api/redact.js';
import { WorkbookError } from '../formats/workbook-error.js';
import { commanderSentence } from './commander-errors.js';
import { durationText } from './duration.js';
import {
  ExitCode,
  exitCodeFor,
  fieldErrorsOf,
  FieldsNamedError,
  InterruptedError,
  OutcomeExit,
  PartialOutputError,
  RecodedError,
  CliError,
  WaitGaveUpError,
} from './errors.js';
import { changeWhere, fromSource, originOf, type SettingOrigin, type SettingOrigins } from './setting-source.js';
import { forbiddenSentence, notFoundSentence, rejectedNoun } from './status-sentences.js';
import type { Context } from './context.js';
import type { IOStreams } from './io.js';
import { shellWord, withTarget, type Target } from './suggest.js';
import { jsonText, visible } from './text.js';

/** What handleError needs; a full Context satisfies it, and so does the bare start-up state. */
export interface ErrorSink {
  io: IOStreams;
  env: Record<string, string | undefined>;
  /** The -o format when known: with json/ndjson an error object also goes to stdout. */
  outputFormat?: string;
  /** Strings that must never reach the terminal (tokens). */
  secrets: () => string[];
  /** The base URL in use, when it was resolved: connection errors name it. */
  baseUrl?: string;
  /** -v: a server error also names the request (method and path). */
  verbose?: boolean;
  /** The --profile, --base-url and -w given: every `wsm …` a message suggests keeps them (suggest.ts). */
  target?: Target;
  /** Where the token, base URL and workspace came from, once resolved: their errors name it. */
  settings?: SettingOrigins;
}

/** A failure in the user's words: what goes to stderr, the error object for stdout (-o json), the exit code. */
export interface ErrorReport {
  code: number;
  /** The `error: ...` line and its field lines, each ending in a newline; '' when there is nothing to say. */
  text: string;
  /** With -o json|ndjson, the error object's line for stdout. */
  machine?: string;
}

/** What describeError needs: the sink without its streams, and whether stdout already holds data. */
export type ErrorSetting = Omit<ErrorSink, 'io'> & { wroteStdout?: boolean };

/** Prints one `error: ...` line (plus field errors) on stderr and returns the exit code. */
export function handleError(err: unknown, sink: ErrorSink): number {
  const report = describeError(err, { ...sink, wroteStdout: sink.io.wroteStdout });
  if (report.text !== '') sink.io.err(report.text);
  if (report.machine !== undefined) sink.io.out(report.machine);
  return report.code;
}

/** The words and the exit code of a failure, printed by no one: handleError prints them, `wsm mcp` returns them. */
export function describeError(
  err: unknown,
  sink: ErrorSetting,
  code = exitCodeFor(err),
  labels: Readonly<Record<string, string>> = {},
): ErrorReport {
  if (err instanceof RecodedError) return describeError(err.original, sink, err.exitCode, labels);
  if (err instanceof FieldsNamedError) return describeError(err.original, sink, code, { ...labels, ...err.labels });
  const redact = (text: string) => sink.secrets().reduce((acc, secret) => redactSecret(acc, secret), withTarget(text, sink.target));
  // With -o json a script reads stdout: an error gives it a JSON object, unless the command
  // already printed its data there (a second document would break the first).
  const machine = (body: unknown) =>
    (sink.outputFormat === 'json' || sink.outputFormat === 'ndjson') && sink.wroteStdout !== true
      ? redact(jsonText(body, sink.outputFormat === 'json')) + '\n'
      : undefined;
  if (err instanceof CommanderError) {
    // --help and --version (exit 0) are not failures; a group without its verb printed its help.
    if (code === ExitCode.ok) return { code, text: '' };
    const message = err.code === 'commander.help' ? undefined : commanderSentence(err);
    const text = message === undefined ? '' : redact(visible(`error: ${message}`)) + '\n';
    return {
      code,
      text,
      machine: machine({ error: { message: message ?? 'a command is needed', exit_code: code } } satisfies ErrorDocument),
    };
  }

  if (err instanceof OutcomeExit) return { code, text: err.message ? redact(visible(err.message)) + '\n' : '' };

  // An interrupt is no error of the server's: the line says what keeps running there.
  const partial = err instanceof PartialOutputError ? `; ${err.written}` : '';
  const cause = err instanceof PartialOutputError ? err.original : err;
  // A page failure says in general terms that the rows before it were written; the partial output says how many.
  const sentence = (text: string) => (partial ? text.replace(/; the rows before it were written$/, '') : text);
  const lines = [
    err instanceof InterruptedError ? `interrupted: ${err.message}` : `error: ${sentence(sentenceFor(cause, sink))}${partial}`,
  ];
  for (const [field, messages] of Object.entries(fieldErrorsOf(cause))) {
    // How the command named the field (`role_id` -> `--role`), else the field itself.
    const label = Object.hasOwn(labels, field) ? labels[field] : field;
    // A local hint may already name its flag (`--gender takes one of ...`): no `--gender: ` before it.
    for (const message of messages) lines.push(message.startsWith(`${label} `) ? `  ${message}` : `  ${label}: ${message}`);
  }
  // Messages can carry what a server or a record holds: never raw control characters.
  const text = lines.map(visible).join('\n');
  const stack = sink.env.WSM_DEBUG === '1' && err instanceof Error && err.stack ? `\n${err.stack}` : '';
  return {
    code,
    text: redact(text + stack) + '\n',
    machine: machine(machineBody(err, code, lines[0].replace(/^(error|interrupted): /, ''))),
  };
}

/** The sentence for `err` in a line a command goes on after (a warning, a retry), naming what the context has resolved. */
export function sentenceIn(ctx: Pick<Context, 'knownBaseUrl' | 'knownSettings' | 'globals'>, err: unknown): string {
  return sentenceFor(err, { baseUrl: ctx.knownBaseUrl(), verbose: ctx.globals.verbose, settings: ctx.knownSettings() });
}

/** The sentence `error: ` precedes for `err`, in the user's words (a retry's log line says it too). */
function sentenceFor(err: unknown, sink: Pick<ErrorSink, 'baseUrl' | 'verbose' | 'settings'>): string {
  const { baseUrl, verbose, settings } = sink;
  if (err instanceof WaitGaveUpError) return `gave up after ${durationText(err.timeoutMs)}: ${sentenceFor(err.original, sink)}`;
  if (err instanceof UpdatedInPartError) return updatedInPartSentence(err, (failure) => sentenceFor(failure, sink));
  if (err instanceof MissingWorkspaceError) {
    return 'no workspace: pass -w <uuid>, set WSM_WORKSPACE, or run `wsm profile set workspace <uuid>`';
  }
  if (err instanceof APIConnectionTimeoutError) {
    return `${err.message.replace(/\.$/, '')}: the server did not answer in time (raise the limit with --timeout or WSM_TIMEOUT)`;
  }
  if (err instanceof APIConnectionError) return connectionSentence(err, baseUrl);
  if (err instanceof UnsupportedEndpointError) return err.message;
  // A workbook is read whole before anything goes out: a damaged one stops the command first.
  if (err instanceof WorkbookError) return `${err.message}: nothing was sent`;
  if (err instanceof APIStatusError) {
    // The request itself is for -v; the sentence names the record and the action.
    const where = verbose ? ` (${err.status} on ${err.method} ${pathOf(err.url)})` : '';
    if (err.status === 401) return tokenRejected(originOf('token', settings), where);
    if (err.status === 403) return forbiddenSentence(err) + where;
    if (err instanceof ValidationFailedError) {
      // Field errors follow on their own lines; Laravel's summary message only repeats the first.
      const detail = Object.keys(err.errors).length > 0 ? '' : ` ${err.message}`;
      return `the server rejected the ${rejectedNoun(err)}${where}:${detail}`;
    }
    if (err.status === 404)
      return `${notFoundSentence(err, (id) => (id === settings?.workspace ? fromSource('workspace', originOf('workspace', settings)) : '')) ?? err.message}${where}`;
    return `${err.message}${where || ` (${err.status})`}`;
  }
  const listen = listenProblem(err);
  if (listen) return listen;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** `the server rejected the token (from WSM_TOKEN): set WSM_TOKEN=<token>`: fixed where the token came from. */
function tokenRejected(origin: SettingOrigin | undefined, where: string): string {
  if (origin === undefined) return `the server rejected the token${where}: run \`wsm auth login\``;
  return `the server rejected the token${fromSource('token', origin)}${where}: ${changeWhere('token', origin)}`;
}

const CONNECTION_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
};

/** `cannot reach http://127.0.0.1:8080/api/v3 (connection refused): ...` naming the URL in use. */
function connectionSentence(err: APIConnectionError, baseUrl: string | undefined): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code;
  const reason = (code && CONNECTION_REASONS[code]) ?? code ?? cause?.message ?? err.message;
  const target = baseUrl ?? /(https?:\/\/[^\s:]+(?::\d+)?[^\s:]*)/.exec(err.message)?.[1];
  const sentence = `cannot reach ${target ?? 'the server'} (${reason})`;
  if (code === 'ECONNREFUSED' && target !== undefined && isLocal(target)) {
    return `${sentence}: no server is listening there; start one with \`wsm serve\``;
  }
  return sentence;
}

function isLocal(url: string): boolean {
  try {
    return ['127.0.0.1', 'localhost', '[::1]', '0.0.0.0'].includes(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** `wsm serve` on a port another process holds: Node's EADDRINUSE, in the user's words. */
function listenProblem(err: unknown): string | undefined {
  const e = err as { code?: unknown; port?: unknown; address?: unknown; syscall?: unknown } | null;
  if (e?.syscall !== 'listen') return undefined;
  const where = `${String(e.address ?? '')}:${String(e.port ?? '')}`;
  if (e.code === 'EADDRINUSE')
    return `port ${String(e.port)} on ${String(e.address)} is already in use (another \`wsm serve\`?): stop that process or pick another port with --port`;
  if (e.code === 'EACCES') return `not allowed to listen on ${where}: ports below 1024 need privileges; pick another with --port`;
  if (e.code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: that address is not one of this machine's`;
  return undefined;
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

/** The error document's body: what a script reads on stdout for any failure with -o json or ndjson. */
interface ErrorDocument {
  error: {
    /** stderr's sentence, without `error: ` or `interrupted: `. */
    message: string;
    /** The process's exit code. */
    exit_code: number;
    /** The HTTP status, when the server answered. */
    status?: number;
    /** Field errors, by the body's field names (the server's or wsm's own checks). */
    fields?: Record<string, string[]>;
    /** The server's body as received (JSON, or its text), when it sent one. */
    server?: unknown;
    /** A wait that timed out, an import that failed: the last state read (the import's record, the templates' rows). */
    state?: unknown;
  };
}

/**
 * What `-o json` prints on stdout for a failure: one shape whoever failed, so a script reads the
 * same sentence as stderr and the same exit code as the shell; the server's own body rides along.
 */
function machineBody(err: unknown, exitCode: number, message: string): ErrorDocument {
  const answer = statusErrorIn(err);
  const fields = fieldErrorsOf(err instanceof PartialOutputError ? err.original : err);
  const server = answer?.body;
  return {
    error: {
      message,
      exit_code: exitCode,
      ...(answer ? { status: answer.status } : {}),
      ...(Object.keys(fields).length > 0 ? { fields } : {}),
      ...(server !== null && server !== undefined && server !== '' ? { server } : {}),
      ...(err instanceof CliError && err.state !== undefined ? { state: err.state } : {}),
    },
  };
}

/** The server's answer behind an error, through what wraps it (a page of a walk, an extension missing, a partial output). */
function statusErrorIn(err: unknown): APIStatusError | undefined {
  if (err instanceof APIStatusError) return err;
  if (err instanceof UnsupportedEndpointError) return err.response;
  if (err instanceof PageFailedError || err instanceof UpdatedInPartError) return statusErrorIn(err.cause);
  if (err instanceof PartialOutputError || err instanceof WaitGaveUpError) return statusErrorIn(err.original);
  return undefined;
}

/** A contact update's values in the user's words, where the body's key is not that already. */
const UPDATE_WORDS: Record<string, string> = { email: 'e-mail', contact_groups: 'groups', fields: 'custom fields' };

/**
 * A contact updated in part (its form answered, its clears failed), in one line: what is set, what is not and why
 * (a refusal's field errors inside the line; any other failure as `said` words it), and the command that clears the rest.
 */
function updatedInPartSentence(err: UpdatedInPartError, said: (failure: unknown) => string = failureOf): string {
  const { id, name, set, notCleared } = err.update;
  const refused = err.cause instanceof ValidationFailedError && Object.keys(err.cause.errors).length > 0;
  const cause = refused ? `the server refused the clear: ${failureOf(err.cause)}` : said(err.cause);
  const words = (keys: string[]) => {
    const named = keys.map((key) => UPDATE_WORDS[key] ?? key);
    return `its ${[named.slice(0, -1).join(', '), named.at(-1)].filter(Boolean).join(' and ')} ${keys.length === 1 ? 'was' : 'were'}`;
  };
  const command = `wsm contacts update ${id} --name ${shellWord(String(name))} ${notCleared.map((key) => `--${key} ''`).join(' ')}`;
  return `contact ${id} is updated in part: ${words(set)} set, but ${words(notCleared)} not cleared (${cause}); clear ${notCleared.length === 1 ? 'it' : 'them'} with \`${command}\``;
}

/** One failed item of a bulk run or an undo: its report's status (the server's, when it answered) and one line of message. */
export function itemFailure(error: unknown): { status: number | null; message: string } {
  const failed = error instanceof UpdatedInPartError ? error.cause : error;
  const status = failed instanceof APIStatusError ? failed.status : null;
  return { status, message: error instanceof UpdatedInPartError ? updatedInPartSentence(error) : failureOf(error) };
}
