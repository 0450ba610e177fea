// `--jq` over a whole list (`--all`): jq works in a thread of its own while this one reads the
// pages, and reads the list's JSON as it comes, so its work overlaps the walk.
import { MessageChannel, Worker } from 'node:worker_threads';
import type { JqResult } from 'jq-wasm';
import { CliError, ExitCode } from './errors.js';
import { eachElementAlone, flagsFor, outputOf, overInputs, resolve, runJqOnJson, wasmModule } from './jq.js';

/**
 * About how much JSON text one jq run takes when the expression takes the elements one by one. A
 * list shorter than that runs in this thread once read: a thread costs more than jq saves in it.
 */
const PART_CHARS = 4_000_000;
/** About how much JSON text goes to jq's thread at once when one jq run reads the list as it comes. */
const PIECE_CHARS = 64_000;

// jq-wasm hands jq its input as one string, copied into a byte array before jq runs. Here jq's
// thread serves jq's reads of its input file itself, from the bytes this thread sends (moved, not
// copied), waiting for the next when jq has parsed all it was given: jq parses the list while its
// pages are read. The reads are found among the module's imports by the names Emscripten gives
// them (jq-wasm keeps them); a jq-wasm without them fails here, in tests, not on a user.
// Messages: Uint8Array (JSON text) or null. In parts, each message is a whole part of the list
// and jq runs on each (its output comes back at once); otherwise the messages are one text, read
// by one jq run. null ends the list.
const WORKER = `
const { parentPort, receiveMessageOnPort, workerData: data } = require('node:worker_threads');
const { port, signal } = data;
function next() {
  for (;;) {
    const seen = Atomics.load(signal, 0);
    const received = receiveMessageOnPort(port);
    if (received !== undefined) return received.message;
    Atomics.wait(signal, 0, seen);
  }
}
let source = () => null;
let text = null;
let offset = 0;
let inputFd = -1;
let memory;
function readInput(iov, iovcnt, pnum) {
  const heap = new Uint8Array(memory.buffer);
  const words = new Uint32Array(memory.buffer);
  let total = 0;
  for (let i = 0; i < iovcnt; i++) {
    const at = words[(iov >> 2) + 2 * i];
    const length = words[(iov >> 2) + 2 * i + 1];
    let filled = 0;
    while (filled < length) {
      if (text === null || offset === text.length) {
        if (total + filled > 0) break;
        text = source();
        offset = 0;
        if (text === null) break;
        continue;
      }
      const n = Math.min(length - filled, text.length - offset);
      heap.set(text.subarray(offset, offset + n), at + filled);
      offset += n;
      filled += n;
    }
    total += filled;
    if (filled < length) break;
  }
  words[pnum >> 2] = total;
  return 0;
}
function isInputPath(pointer) {
  const heap = new Uint8Array(memory.buffer);
  const path = '/dev/stdin';
  for (let i = 0; i < path.length; i++) if (heap[pointer + i] !== path.charCodeAt(i)) return false;
  return heap[pointer + path.length] === 0;
}
function withInputReads(imports) {
  const found = {};
  const hooked = {};
  for (const [name, functions] of Object.entries(imports)) {
    hooked[name] = { ...functions };
    for (const [key, f] of Object.entries(functions)) {
      if (typeof f !== 'function') continue;
      if (f.name === '___syscall_openat') hooked[name][key] = found.open = (dirfd, path, flags, varargs) => {
        const fd = f(dirfd, path, flags, varargs);
        if (fd >= 0 && isInputPath(path)) inputFd = fd;
        return fd;
      };
      if (f.name === '_fd_read') hooked[name][key] = found.read = (fd, iov, iovcnt, pnum) => fd === inputFd ? readInput(iov, iovcnt, pnum) : f(fd, iov, iovcnt, pnum);
      if (f.name === '_fd_close') hooked[name][key] = found.close = (fd) => {
        if (fd === inputFd) inputFd = -1;
        return f(fd);
      };
    }
  }
  if (!found.open || !found.read || !found.close) throw new Error('jq-wasm no longer reads its input through openat, fd_read and fd_close');
  return hooked;
}
const instantiateWasm = (imports, done) =>
  WebAssembly.instantiate(data.module, withInputReads(imports)).then((instance) => {
    memory = Object.values(instance.exports).find((value) => value instanceof WebAssembly.Memory);
    done(instance, data.module);
  });
require(data.jqPath).loadJq({ instantiateWasm }).then((jq) => {
  const run = () => parentPort.postMessage(jq.raw('', data.expression, data.flags));
  if (data.parts) {
    for (let part = next(); part !== null; part = next()) {
      let given = false;
      source = () => (given ? null : ((given = true), part));
      run();
    }
  } else {
    let ended = false;
    source = () => {
      const piece = ended ? null : next();
      ended = piece === null;
      return piece;
    };
    run();
    // jq stops early only on an error or halt: what it left is read and dropped.
    if (!ended) while (next() !== null);
  }
  parentPort.postMessage(null);
});`;

const encoder = new TextEncoder();

/**
 * How jq reads a list too long to wait for: in parts, a jq run on each part of it (the
 * expression takes the elements one by one); as its elements, one jq run taking each element as an
 * input (overInputs); or whole, one jq run on the list as one array.
 */
type Reading = { parts: boolean; program: string; flags: string[]; open: string; between: string; close: string };

function readingFor(expression: string, pretty: boolean): Reading {
  const flags = flagsFor(pretty);
  if (eachElementAlone(expression)) return { parts: true, program: expression, flags, open: '[', between: ',', close: ']' };
  const program = overInputs(expression);
  if (program !== undefined) return { parts: false, program, flags: ['-n', ...flags], open: ' ', between: ' ', close: '' };
  return { parts: false, program: expression, flags, open: '[', between: ',', close: ']' };
}

/** jq's thread: `send` gives it JSON text (null: the list ended); its output goes to `write`. */
async function startJqThread(reading: Reading, write: (text: string) => void) {
  const { port1: toJq, port2: jqPort } = new MessageChannel();
  // jq's thread waits on it, blocked inside jq's read, for what this thread sends next.
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      jqPath: resolve('jq-wasm'),
      module: await wasmModule(),
      expression: reading.program,
      flags: reading.flags,
      parts: reading.parts,
      port: jqPort,
      signal,
    },
    transferList: [jqPort],
  });
  let ended = false;
  let failed: unknown;
  const send = (text: string | null) => {
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
    worker.on('message', (result: JqResult | null) => {
      if (result === null) return done();
      try {
        if (failed === undefined) write(outputOf(result));
      } catch (error) {
        failed = error;
        fail(error);
      }
    });
    worker.on('error', fail);
    worker.on('exit', () => fail(new CliError('--jq: jq stopped before the end of the list', ExitCode.failure)));
  });
  finished.catch(() => undefined); // seen where it is awaited
  return {
    send,
    finished,
    /** Throws what failed in jq's thread (its output made an error). */
    check() {
      if (failed !== undefined) throw failed;
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
 * Runs the expression on the list of `rows` and writes jq's output. A list longer than a part
 * goes to jq's thread as it is read (readingFor): in parts, their output written at once; as
 * elements or whole, jq reads the list as it comes and gives its output at the end. A shorter
 * list is read whole, then jq runs once in this thread.
 */
export async function runJqOverList(
  rows: AsyncIterable<unknown>,
  expression: string,
  options: { pretty: boolean; write: (text: string) => void },
): Promise<number> {
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
      if (chars >= (thread === undefined || reading.parts ? PART_CHARS : PIECE_CHARS)) {
        // A part is a list of its own; otherwise the list goes as one text, cut between elements.
        const opening = thread === undefined || reading.parts ? reading.open : reading.between;
        thread ??= await startJqThread(reading, options.write);
        thread.send(opening + texts.join(reading.between) + (reading.parts ? reading.close : ''));
        texts = [];
        chars = 0;
      }
    }
    if (thread === undefined) {
      options.write(await runJqOnJson(`[${texts.join(',')}]`, expression, options));
      return count;
    }
    const rest = texts.join(reading.between);
    if (reading.parts && texts.length > 0) thread.send(reading.open + rest + reading.close);
    if (!reading.parts) thread.send((texts.length > 0 ? reading.between + rest : '') + reading.close);
    thread.send(null);
    await thread.finished;
    return count;
  } finally {
    await thread?.stop();
  }
}
