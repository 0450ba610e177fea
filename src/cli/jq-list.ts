// `--jq` over a whole list (`--all`): jq works in a thread of its own while this one reads the
// pages, and reads the list's JSON as it comes, so its work overlaps the walk.
import { MessageChannel, Worker } from 'node:worker_threads';
import type { JqResult } from 'jq-wasm';
import { CliError, ExitCode } from './errors.js';
import { flagsFor, failureOf, resolve, runJqOnJson, wasmModule } from './jq.js';
import { JQ_WORKER } from './jq-worker.js';
import { overElements, type WholeListProgram } from './jq-whole.js';

/** A list of less JSON than that runs in this thread once read: a thread costs more than jq saves in it. */
const THREAD_CHARS = 4_000_000;
/** About how much JSON text goes to jq's thread at once. */
const PIECE_CHARS = 64_000;
/** Pieces sent and not yet taken by jq's thread, beyond which the walk waits: jq may be slower than the pages. */
const PIECES_AHEAD = 16;
// The global Atomics' waitAsync (Node 16+; this project's TypeScript libraries stop at ES2023).
const atomics = Atomics as unknown as {
  waitAsync(array: Int32Array, index: number, value: number, timeout: number): { async: boolean; value: unknown };
};

const encoder = new TextEncoder();

/**
 * How jq reads a list too long to wait for, in one run as it comes: its elements one by one as
 * inputs when the expression allows (overElements: `.[] | f`, `map(f)`, `length`, `sort_by(f)`
 * and their kind), else the whole list as one array.
 */
type Reading = { program: string; flags: string[]; order?: WholeListProgram['order']; open: string; between: string; close: string };

function readingFor(expression: string, pretty: boolean): Reading {
  const flags = flagsFor(pretty);
  const whole = overElements(expression, pretty);
  // An order's texts are kept as sent, one a line (JSON.stringify writes no line end of its own).
  if (whole?.order !== undefined) return { ...whole, flags: ['-n', '-j'], open: '', between: '\n', close: '\n' };
  if (whole !== undefined) return { ...whole, flags: ['-n', ...flags], open: ' ', between: ' ', close: '' };
  return { program: expression, flags, open: '[', between: ',', close: ']' };
}

/** jq's thread: `send` gives it JSON text (null: the list ended); its output goes to `write`. */
async function startJqThread(reading: Reading, write: (text: string) => void) {
  const { port1: toJq, port2: jqPort } = new MessageChannel();
  // jq's thread waits on it, blocked inside jq's read, for what this thread sends next.
  // [1]: the pieces of jq's output written, which jq's thread waits for when too many are not.
  // [2]: the pieces of the list jq's thread has taken, which this one waits for when too many are not.
  const signal = new Int32Array(new SharedArrayBuffer(12));
  const worker = new Worker(JQ_WORKER, {
    eval: true,
    // jq's thread makes short-lived values for every element (keys, pieces of text): a small young
    // generation keeps their garbage from growing its heap (by some 25 MB at 100,000 contacts).
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
    workerData: {
      jqPath: resolve('jq-wasm'),
      module: await wasmModule(),
      expression: reading.program,
      flags: reading.flags,
      order: reading.order,
      port: jqPort,
      signal,
    },
    transferList: [jqPort],
  });
  let ended = false;
  let exited = false;
  let failed: unknown;
  let sent = 0;
  const send = (text: string | null) => {
    sent++;
    if (text === null) {
      toJq.postMessage(null);
      ended = true;
    } else {
      const bytes = encoder.encode(text);
      toJq.postMessage(bytes, [bytes.buffer]);
    }
    Atomics.add(signal, 0, 1);
    Atomics.notify(signal, 0);
  };
  const finished = new Promise<void>((done, fail) => {
    // Pieces of jq's output as it writes them, then the run's result (with the rest), then null.
    worker.on('message', (message: { output: string } | JqResult | null) => {
      if (message === null) return done();
      if ('output' in message) {
        if (failed === undefined) write(message.output);
        Atomics.add(signal, 1, 1);
        Atomics.notify(signal, 1);
        return;
      }
      failed ??= failureOf(message);
      if (failed !== undefined) return fail(failed);
      write(message.stdout);
    });
    worker.on('error', fail);
    worker.on('exit', () => {
      exited = true;
      fail(new CliError('--jq: jq stopped before the end of the list', ExitCode.failure));
    });
  });
  finished.catch(() => undefined); // seen where it is awaited
  return {
    send,
    finished,
    /** Throws what failed in jq's thread (its output made an error). */
    check() {
      if (failed !== undefined) throw failed;
    },
    /** Waits while jq's thread has not taken all but PIECES_AHEAD of the pieces sent (or has failed or stopped). */
    async ready() {
      for (
        let taken = Atomics.load(signal, 2);
        sent - taken > PIECES_AHEAD && failed === undefined && !exited;
        taken = Atomics.load(signal, 2)
      ) {
        const waiting = atomics.waitAsync(signal, 2, taken, 100);
        if (waiting.async) await waiting.value;
      }
    },
    async stop() {
      // jq's thread may be waiting for more of the list: the end unblocks it before it is stopped.
      if (!ended) send(null);
      await worker.terminate();
      toJq.close();
    },
  };
}

/**
 * Runs the expression on the list of `rows` and writes jq's output. A list longer than about 4 MB
 * of JSON goes to jq's thread as it is read, where one jq run reads it as it comes (readingFor) and
 * its output is written as jq writes it. A shorter list is read whole, then jq runs once here.
 * `threadChars`: the length of JSON from which jq's thread takes the list (4 MB unless given).
 */
export async function runJqOverList(
  rows: AsyncIterable<unknown>,
  expression: string,
  options: { pretty: boolean; write: (text: string) => void; threadChars?: number },
): Promise<number> {
  const threadChars = options.threadChars ?? THREAD_CHARS;
  const reading = readingFor(expression, options.pretty);
  let thread: Awaited<ReturnType<typeof startJqThread>> | undefined;
  try {
    let texts: string[] = [];
    let chars = 0;
    let count = 0;
    for await (const row of rows) {
      thread?.check();
      const text = JSON.stringify(row);
      texts.push(text);
      chars += text.length;
      count++;
      if (chars >= (thread === undefined ? threadChars : PIECE_CHARS)) {
        // One text, cut between elements.
        const opening = thread === undefined ? reading.open : reading.between;
        thread ??= await startJqThread(reading, options.write);
        await thread.ready();
        thread.send(opening + texts.join(reading.between));
        texts = [];
        chars = 0;
      }
    }
    if (thread === undefined && chars < threadChars) {
      options.write(await runJqOnJson(`[${texts.join(',')}]`, expression, options));
      return count;
    }
    if (thread === undefined) {
      thread = await startJqThread(reading, options.write);
      thread.send(reading.open + texts.join(reading.between) + reading.close);
    } else thread.send((texts.length > 0 ? reading.between + texts.join(reading.between) : '') + reading.close);
    thread.send(null);
    await thread.finished;
    return count;
  } finally {
    await thread?.stop();
  }
}
