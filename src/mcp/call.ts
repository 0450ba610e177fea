// One tool call's world: the command's Context with in-memory IO (stdout is the protocol, so the
// CLI code a tool reuses writes here instead), `-o json`, progress turned into MCP progress
// notifications, and an interrupt of its own fired by the client's cancellation, which the
// CLI's waits already turn into "the import keeps running on the server".
import { EventEmitter } from 'node:events';
import type { Context } from '../cli/context.js';
import { createTestIO, type IOStreams, type TestIO } from '../cli/io.js';
import { createOutput } from '../cli/output.js';
import type { Progress } from '../cli/progress.js';
import type { ToolCall } from './tool.js';

/** Where a call's progress goes: the MCP progress notification (progress, total, message). */
export type ProgressSink = (progress: number, total: number | undefined, message: string) => void;

export interface CallWorld {
  call: ToolCall;
  io: TestIO;
}

/**
 * Progress as MCP wants it: only increasing values are sent (a poll that finds no new rows sends
 * nothing), and a label says what is counted.
 */
function notifyingProgress(sink: ProgressSink | undefined, label: string, total?: number): Progress {
  let last = -1;
  let known = total;
  return {
    update(done, newTotal) {
      if (newTotal !== undefined) known = newTotal;
      if (sink === undefined || done <= last) return;
      last = done;
      sink(done, known, known === undefined ? `${label}: ${done}` : `${label}: ${done} of ${known}`);
    },
    done() {},
  };
}

/**
 * The Context for one call. `stdin` is what `-` reads (a workspace file given as text). The
 * confirmation was asked of the agent already (`confirm: true`), so the CLI's own passes.
 */
export function callWorld(base: Context, signal: AbortSignal, progress: ProgressSink | undefined, stdin?: string): CallWorld {
  const memory = createTestIO(stdin === undefined ? {} : { stdin });
  // The in-memory streams, with progress sent to the client rather than drawn on a terminal.
  const io: TestIO = Object.assign(Object.create(memory) as TestIO, {
    progress: (label: string, total?: number) => notifyingProgress(progress, label, total),
  } satisfies Partial<IOStreams>);
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
  };
  const messages = () => io.stderrText.split('\n').filter((line) => line.trim() !== '');
  const again = () => callWorld(base, signal, progress, stdin).call;
  return { io, call: { ctx, signal, stdout: () => io.stdoutText, messages, again } };
}
