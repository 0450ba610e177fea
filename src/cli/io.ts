// IOStreams: the only place that knows about the process's stdin/stdout/stderr, whether each is a
// terminal, and whether colour is on. Commands write through it so tests can capture everything.
import { PassThrough, Readable, Writable } from 'node:stream';
import { colorWanted, dumbTerminal, type Env } from './color.js';
import { silentProgress, TerminalLine, terminalProgress } from './progress.js';

import type { Progress } from './progress.js';

export interface IOStreams {
  /** Data for scripts: stdout. Text is written as given (callers add newlines). */
  out(text: string): void;
  /** Resolved once stdout takes more (at once unless its buffer is full): a long document written in pieces waits here, never queued whole in memory. */
  outDrained(): Promise<void>;
  /** Binary data for a file (`contacts export -o xlsx`): stdout, resolved once it takes more. */
  outBytes(bytes: Uint8Array): Promise<void>;
  /** Messages, warnings, errors, progress: stderr. */
  err(text: string): void;
  /** Whether any data went to stdout yet (an error then adds no JSON document of its own). */
  readonly wroteStdout: boolean;
  readonly stdin: NodeJS.ReadableStream;
  /** Where interactive prompts draw (stderr, so stdout stays clean for data). */
  readonly promptOutput: NodeJS.WritableStream;
  readonly isStdoutTTY: boolean;
  readonly isStdinTTY: boolean;
  readonly isStderrTTY: boolean;
  /** Width of the terminal stdout is, in columns; undefined when piped. */
  readonly columns: number | undefined;
  /** Width of the terminal stderr is, in columns; undefined when piped. */
  readonly stderrColumns: number | undefined;
  /** Colour on stdout (color.ts: --no-color, NO_COLOR, FORCE_COLOR, TERM=dumb, a terminal). */
  readonly colorEnabled: boolean;
  /** Colour on stderr, by the same rules for that stream. */
  readonly stderrColorEnabled: boolean;
  /**
   * Called once the flags and environment are known: decides colour for each stream (`flag` is
   * false for --no-color), and a dumb terminal gets no progress line (it cannot erase one).
   */
  chooseColor(env: Env, flag: boolean): void;
  /** All of piped stdin; '' at once when stdin is a terminal (we never wait for a human here). */
  readStdin(): Promise<string>;
  /** The same, as bytes: for input whose encoding is checked (a CSV), never decoded leniently. */
  readStdinBytes(): Promise<Buffer>;
  /** A progress line on stderr (see progress.ts): drawn only when stderr is a terminal and not silenced. */
  progress(label: string, total?: number): Progress;
  /** -q: no progress lines at all. */
  silenceProgress(): void;
  /** Where a wait's heartbeat goes instead of stderr (heartbeat.ts): `wsm mcp`'s progress notifications. */
  readonly heartbeat?: (line: string) => void;
}

interface StreamSet {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdoutTTY: boolean;
  stdinTTY: boolean;
  stderrTTY: boolean;
  columns?: number;
  stderrColumns?: number;
}

function buildIO(streams: StreamSet): IOStreams {
  let color = streams.stdoutTTY;
  let stderrColor = streams.stderrTTY;
  let progressOn = streams.stderrTTY;
  let wroteStdout = false;
  // The line a progress bar draws on: every write to that terminal goes through it, so the bar is
  // erased first (stdout too, when it is a terminal: both are then the same screen).
  const line = streams.stderrTTY ? new TerminalLine(streams.stderr) : undefined;
  // A terminal that reports 0 columns (a pseudo-terminal nobody sized, as `script` makes) has no known width.
  const known = (columns: number | undefined) => (columns !== undefined && columns > 0 ? columns : undefined);
  const stderrColumns = () => known((streams.stderr as { columns?: number }).columns) ?? known(streams.stderrColumns);
  return {
    out: (text) => {
      if (text !== '') wroteStdout = true;
      if (line && streams.stdoutTTY) line.write(streams.stdout, text);
      else streams.stdout.write(text);
    },
    outDrained: () => {
      const stdout = streams.stdout as NodeJS.WritableStream & { writableNeedDrain?: boolean };
      if (stdout.writableNeedDrain !== true) return Promise.resolve();
      return new Promise<void>((resolve) => {
        // A stream closed or failing never drains: the wait ends with it (its error is handled where it is written).
        const done = () => {
          for (const [event, listener] of [
            ['drain', done],
            ['close', done],
            ['error', done],
          ] as const)
            stdout.off(event, listener);
          resolve();
        };
        stdout.once('drain', done).once('close', done).once('error', done);
      });
    },
    outBytes: (bytes) => {
      if (bytes.length > 0) wroteStdout = true;
      return new Promise<void>((resolve, reject) => {
        streams.stdout.write(bytes, (error) => (error ? reject(error) : resolve()));
      });
    },
    get wroteStdout() {
      return wroteStdout;
    },
    err: (text) => (line ? line.write(streams.stderr, text) : void streams.stderr.write(text)),
    stdin: streams.stdin,
    promptOutput: streams.stderr,
    isStdoutTTY: streams.stdoutTTY,
    isStdinTTY: streams.stdinTTY,
    isStderrTTY: streams.stderrTTY,
    columns: streams.stdoutTTY ? known(streams.columns) : undefined,
    stderrColumns: streams.stderrTTY ? known(streams.stderrColumns) : undefined,
    get colorEnabled() {
      return color;
    },
    get stderrColorEnabled() {
      return stderrColor;
    },
    chooseColor(env, flag) {
      color = colorWanted(streams.stdoutTTY, env, flag);
      stderrColor = colorWanted(streams.stderrTTY, env, flag);
      if (dumbTerminal(env)) progressOn = false;
    },
    readStdin: () => (streams.stdinTTY ? Promise.resolve('') : readAll(streams.stdin).then((bytes) => bytes.toString('utf8'))),
    readStdinBytes: () => (streams.stdinTTY ? Promise.resolve(Buffer.alloc(0)) : readAll(streams.stdin)),
    progress: (label, total) => (progressOn && line ? terminalProgress(line, stderrColumns, label, total) : silentProgress),
    silenceProgress() {
      progressOn = false;
    },
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** The real process streams. */
export function createProcessIO(): IOStreams {
  // `wsm contacts list | head` closes the pipe early: that is success, not a crash.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    // Any other failure (a full disk, a descriptor not open for writing) ends the command in one line, exit 1 (failure).
    process.stderr.write(`error: cannot write to stdout (${err.code ?? err.message}): the output is incomplete\n`);
    process.exit(1);
  });
  return buildIO({
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdoutTTY: process.stdout.isTTY === true,
    stdinTTY: process.stdin.isTTY === true,
    stderrTTY: process.stderr.isTTY === true,
    columns: process.stdout.columns,
    stderrColumns: process.stderr.columns,
  });
}

export interface TestIOOptions {
  stdoutTTY?: boolean;
  stdinTTY?: boolean;
  /** Defaults to stdoutTTY: tests usually mean "on a terminal" or "piped" as a whole. */
  stderrTTY?: boolean;
  stdin?: string | Buffer;
  /** Terminal width when stdoutTTY (default 80). */
  columns?: number;
}

export interface TestIO extends IOStreams {
  readonly stdoutText: string;
  /** stdout as the bytes written (a binary export). */
  readonly stdoutBytes: Buffer;
  readonly stderrText: string;
}

/** In-memory streams for tests: everything written is kept in stdoutText / stderrText. */
export function createTestIO(options: TestIOOptions = {}): TestIO {
  let stdoutText = '';
  const stdoutChunks: Buffer[] = [];
  let stderrText = '';
  const stdoutTTY = options.stdoutTTY ?? false;
  const stderrTTY = options.stderrTTY ?? stdoutTTY;
  const sink = (append: (s: string) => void, tty: boolean, keep?: (bytes: Buffer) => void) =>
    Object.assign(
      new Writable({
        write(chunk: Buffer | string, _enc, callback) {
          keep?.(Buffer.from(chunk));
          append(chunk.toString());
          callback();
        },
      }),
      // Drawing code (the progress bar) asks the stream itself whether it is a terminal.
      { isTTY: tty, columns: options.columns ?? 80 },
    );
  const stdinTTY = options.stdinTTY ?? false;
  // A terminal stdin never ends on its own; a PassThrough left open models that faithfully.
  const stdin = stdinTTY ? new PassThrough() : Readable.from([options.stdin ?? '']);
  const io = buildIO({
    stdin,
    stdout: sink(
      (s) => (stdoutText += s),
      stdoutTTY,
      (bytes) => stdoutChunks.push(bytes),
    ),
    stderr: sink((s) => (stderrText += s), stderrTTY),
    stdoutTTY,
    stdinTTY,
    stderrTTY,
    columns: options.columns ?? 80,
    stderrColumns: options.columns ?? 80,
  });
  return Object.defineProperties(io as TestIO, {
    stdoutText: { get: () => stdoutText },
    stdoutBytes: { get: () => Buffer.concat(stdoutChunks) },
    stderrText: { get: () => stderrText },
  });
}
