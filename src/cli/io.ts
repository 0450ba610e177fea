// IOStreams: the only place that knows about the process's stdin/stdout/stderr, whether each is a
// terminal, and whether colour is on. Commands write through it so tests can capture everything.
import { PassThrough, Readable, Writable } from 'node:stream';

export interface Progress {
  update(done: number): void;
  done(): void;
}

export interface IOStreams {
  /** Data for scripts: stdout. Text is written as given (callers add newlines). */
  out(text: string): void;
  /** Messages, warnings, errors, progress: stderr. */
  err(text: string): void;
  readonly stdin: NodeJS.ReadableStream;
  /** Where interactive prompts draw (stderr, so stdout stays clean for data). */
  readonly promptOutput: NodeJS.WritableStream;
  readonly isStdoutTTY: boolean;
  readonly isStdinTTY: boolean;
  readonly isStderrTTY: boolean;
  /** stdout is a terminal and neither NO_COLOR nor --no-color asked otherwise. */
  readonly colorEnabled: boolean;
  /** Called once the flags and environment are known (NO_COLOR, --no-color). */
  disableColor(): void;
  /** All of piped stdin; '' at once when stdin is a terminal (we never wait for a human here). */
  readStdin(): Promise<string>;
  /** A one-line counter on stderr, drawn only when stderr is a terminal. */
  progress(label: string, total?: number): Progress;
}

/** https://no-color.org: present and not empty disables colour. */
export function noColorRequested(env: Record<string, string | undefined>): boolean {
  return env.NO_COLOR !== undefined && env.NO_COLOR !== '';
}

interface StreamSet {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdoutTTY: boolean;
  stdinTTY: boolean;
  stderrTTY: boolean;
}

function buildIO(streams: StreamSet): IOStreams {
  let color = streams.stdoutTTY;
  return {
    out: (text) => void streams.stdout.write(text),
    err: (text) => void streams.stderr.write(text),
    stdin: streams.stdin,
    promptOutput: streams.stderr,
    isStdoutTTY: streams.stdoutTTY,
    isStdinTTY: streams.stdinTTY,
    isStderrTTY: streams.stderrTTY,
    get colorEnabled() {
      return color;
    },
    disableColor() {
      color = false;
    },
    readStdin: () => (streams.stdinTTY ? Promise.resolve('') : readAll(streams.stdin)),
    progress: (label, total) =>
      streams.stderrTTY ? terminalProgress(streams.stderr, label, total) : { update() {}, done() {} },
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const REDRAW_EVERY_MS = 100;

function terminalProgress(stderr: NodeJS.WritableStream, label: string, total?: number): Progress {
  let last = 0;
  const draw = (n: number) => stderr.write(`\r\x1b[K${label} ${total === undefined ? n : `${n}/${total}`}`);
  draw(0);
  return {
    update(n) {
      // Redrawing on every row would cost more than the work on fast local servers.
      const now = Date.now();
      if (now - last < REDRAW_EVERY_MS && n !== total) return;
      last = now;
      draw(n);
    },
    done() {
      stderr.write('\r\x1b[K');
    },
  };
}

/** The real process streams. */
export function createProcessIO(): IOStreams {
  // `wsm contacts list | head` closes the pipe early: that is success, not a crash.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  return buildIO({
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdoutTTY: process.stdout.isTTY === true,
    stdinTTY: process.stdin.isTTY === true,
    stderrTTY: process.stderr.isTTY === true,
  });
}

export interface TestIOOptions {
  stdoutTTY?: boolean;
  stdinTTY?: boolean;
  /** Defaults to stdoutTTY: tests usually mean "on a terminal" or "piped" as a whole. */
  stderrTTY?: boolean;
  stdin?: string;
}

export interface TestIO extends IOStreams {
  readonly stdoutText: string;
  readonly stderrText: string;
}

/** In-memory streams for tests: everything written is kept in stdoutText / stderrText. */
export function createTestIO(options: TestIOOptions = {}): TestIO {
  let stdoutText = '';
  let stderrText = '';
  const sink = (append: (s: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _enc, callback) {
        append(chunk.toString());
        callback();
      },
    });
  const stdoutTTY = options.stdoutTTY ?? false;
  const stdinTTY = options.stdinTTY ?? false;
  // A terminal stdin never ends on its own; a PassThrough left open models that faithfully.
  const stdin = stdinTTY ? new PassThrough() : Readable.from([options.stdin ?? '']);
  const io = buildIO({
    stdin,
    stdout: sink((s) => (stdoutText += s)),
    stderr: sink((s) => (stderrText += s)),
    stdoutTTY,
    stdinTTY,
    stderrTTY: options.stderrTTY ?? stdoutTTY,
  });
  return Object.defineProperties(io as TestIO, {
    stdoutText: { get: () => stdoutText },
    stderrText: { get: () => stderrText },
  });
}
