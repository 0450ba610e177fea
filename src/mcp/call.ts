// One tool call's world: the command's Context with streams of its own. The verbs a tool calls
// return their data (a tool never reads stdout: it carries the protocol, and a write there is a
// bug that fails the call); what they say on stderr (notices, warnings, `✓` lines) becomes the
// result's messages; progress becomes MCP progress notifications; and an interrupt of its own,
// fired by the client's cancellation, which the CLI's waits already turn into "the import keeps
// running on the server".
import { EventEmitter } from 'node:events';
import { Readable, Writable } from 'node:stream';
import type { Context } from '../cli/context.js';
import type { IOStreams } from '../cli/io.js';
import { createOutput } from '../cli/output.js';
import type { Progress } from '../cli/progress.js';
import type { ToolCall } from './tool.js';
import { inToolWords } from './tool-words.js';

/** Where a call's progress goes: the MCP progress notification (progress, total, message). */
export type ProgressSink = (progress: number, total: number | undefined, message: string) => void;

export interface CallWorld {
  call: ToolCall;
}

/**
 * Progress as MCP wants it: every poll is told (a client that resets its time-out on progress keeps
 * the call alive through a long wait), a label says what is counted; the sink keeps the values
 * increasing (server.ts).
 */
function notifyingProgress(sink: ProgressSink | undefined, label: string, total?: number): Progress {
  let known = total;
  return {
    update(done, newTotal) {
      if (newTotal !== undefined) known = newTotal;
      sink?.(done, known, known === undefined ? `${label}: ${done}` : `${label}: ${done} of ${known}`);
    },
    done() {},
  };
}

/**
 * The last progress told, so that a wait's heartbeat (its sentence) is sent at the same count,
 * after the progress it follows: the first notification of a call is always a count.
 */
function progressWithHeartbeat(sink: ProgressSink | undefined): { sink: ProgressSink | undefined; heartbeat: (line: string) => void } {
  let last: { done: number; total: number | undefined } | undefined;
  return {
    sink:
      sink &&
      ((done, total, message) => {
        last = { done, total };
        sink(done, total, message);
      }),
    heartbeat: (line) => {
      if (last !== undefined) sink?.(last.done, last.total, line);
    },
  };
}

/** A call's streams: no terminal anywhere, stdin the text given, stderr kept as the call's messages. */
function callStreams(stdin: string | undefined, told: ProgressSink | undefined): IOStreams & { readonly stderrText: string } {
  let stderrText = '';
  const { sink: progress, heartbeat } = progressWithHeartbeat(told);
  const input = () => Buffer.from(stdin ?? '');
  const refuse = () => {
    throw new Error('a tool call printed on stdout: its verb must return its data instead');
  };
  return {
    out: refuse,
    outBytes: async () => refuse(),
    outDrained: async () => refuse(),
    err: (text) => void (stderrText += text),
    get stderrText() {
      return stderrText;
    },
    wroteStdout: false,
    stdin: Readable.from([stdin ?? '']),
    // Nothing is asked during a call (the agent confirmed already): a prompt would draw nowhere.
    promptOutput: new Writable({ write: (_chunk, _encoding, callback) => callback() }),
    isStdoutTTY: false,
    isStdinTTY: false,
    isStderrTTY: false,
    columns: undefined,
    stderrColumns: undefined,
    colorEnabled: false,
    stderrColorEnabled: false,
    chooseColor: () => {},
    readStdin: async () => input().toString('utf8'),
    readStdinBytes: async () => input(),
    progress: (label, total) => notifyingProgress(progress, label, total),
    silenceProgress: () => {},
    heartbeat,
  };
}

/**
 * The Context for one call. `stdin` is what `-` reads (a workspace file given as text). The
 * confirmation was asked of the agent already (`confirm: true`), so the CLI's own passes.
 */
export function callWorld(
  base: Context,
  signal: AbortSignal,
  progress: ProgressSink | undefined,
  stdin?: string,
  made: Set<string> = new Set(),
): CallWorld {
  const io = callStreams(stdin, progress);
  const interrupts = new EventEmitter();
  signal.addEventListener('abort', () => interrupts.emit('SIGINT'), { once: true });
  const globals = { ...base.globals, output: 'json' as const, quiet: false, yes: true, fields: undefined, jq: undefined };
  const ctx: Context = {
    ...base,
    io,
    globals,
    output: createOutput(io, { format: 'json', quiet: false, now: base.now, target: globals }),
    interrupts,
    confirm: async () => {},
    // The files this call made (a CSV given as text) are its own to read, whoever the caller.
    ...(base.hostFiles ? { hostFiles: { remote: base.hostFiles.remote, made } } : {}),
  };
  const files: Array<[string, string]> = [];
  const named = (line: string) => files.reduce((text, [path, shownAs]) => text.replaceAll(path, shownAs), line);
  const messages = () =>
    io.stderrText
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => inToolWords(named(line)));
  const again = () => callWorld(base, signal, progress, stdin, made).call;
  const nameFile = (path: string, shownAs: string) => {
    files.push([path, shownAs]);
    made.add(path);
  };
  return { call: { ctx, signal, messages, again, nameFile } };
}
