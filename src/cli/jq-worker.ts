// The source of the worker thread that runs jq over a list (jq-list.ts), evaluated by
// `new Worker(..., { eval: true })`: plain JavaScript, CommonJS, nothing of ours to import.
// jq-wasm hands jq its input as one string, copied into a byte array before jq runs, and gives its
// output trimmed, once jq has ended. Here one jq run reads the list as the CLI's thread sends it:
// jq's reads of its input file are served from the bytes sent (moved, not copied), waiting in
// Atomics.wait for the next piece when jq has taken all it was given, so jq works while the pages
// are read. jq's writes to stdout are kept as written and sent on every 64 kB, so its output is
// printed as it comes; jq waits while 1 MB of it is not yet written (no output piles up in memory
// behind a slow reader). The reads and writes are found among the module's imports by the names
// Emscripten gives them (jq-wasm keeps them); a jq-wasm without them fails here, in tests.
// An ordered run (jq-whole.ts: `sort_by(f)` and its kind) is sent the elements' texts one a line,
// kept here as they come (jq-kept-texts.ts), and prints each element's key on a line, read here;
// once jq has ended the order is found from the keys (jq-order.ts), and jq runs again, on the
// list in that order given from the texts, for the rest of the program (or to print the list).
// jq never holds the list.
// Messages in: Uint8Array (JSON text) or null (the end of the list). Out: { output } pieces, the
// run's result (its stdout the rest), then null.
import { KEPT_TEXTS } from './jq-kept-texts.js';
import { ORDER } from './jq-order.js';

export const JQ_WORKER = `
const { parentPort, receiveMessageOnPort, workerData: data } = require('node:worker_threads');
const { port, signal } = data;
function next() {
  for (;;) {
    const seen = Atomics.load(signal, 0);
    const received = receiveMessageOnPort(port);
    if (received !== undefined) {
      Atomics.add(signal, 2, 1);
      Atomics.notify(signal, 2);
      return received.message;
    }
    Atomics.wait(signal, 0, seen);
  }
}
let source = () => null;
let text = null;
let offset = 0;
let inputFd = -1;
let memory;
const decoder = new TextDecoder();
let output = new Uint8Array(131072);
let outputLength = 0;
function send(bytes) {
  if (outputLength + bytes.length > output.length) {
    const grown = new Uint8Array(Math.max(output.length * 2, outputLength + bytes.length));
    grown.set(output.subarray(0, outputLength));
    output = grown;
  }
  output.set(bytes, outputLength);
  outputLength += bytes.length;
  if (outputLength >= 65536) {
    parentPort.postMessage({ output: decoder.decode(output.subarray(0, outputLength), { stream: true }) });
    outputLength = 0;
    posted++;
    // At most IN_FLIGHT pieces wait to be written (signal[1]: pieces written): jq waits for the rest.
    for (let written = Atomics.load(signal, 1); posted - written > IN_FLIGHT; written = Atomics.load(signal, 1)) Atomics.wait(signal, 1, written, 100);
  }
}
const IN_FLIGHT = 16;
let posted = 0;
${KEPT_TEXTS}
${ORDER}
const COMMA = new Uint8Array([44]);
const OPEN = new Uint8Array([91]);
const CLOSE = new Uint8Array([93]);
const NEWLINE = new Uint8Array([10]);
const NULL = new Uint8Array([110, 117, 108, 108]);
function textAt(line) {
  return keptBytes(line === 0 ? 0 : lineEnds[line - 1] + 1, lineEnds[line]);
}
function* placeText(place) {
  if (place === null) return yield NULL;
  if (typeof place === 'number') return yield textAt(place);
  yield OPEN;
  for (let i = 0; i < place.length; i++) {
    if (i > 0) yield COMMA;
    yield* placeText(place[i]);
  }
  yield CLOSE;
}
// What jq writes: sent on ('send'), kept for this thread ('capture'), an ordered run's keys,
// one a line ('keys'), or the ordered list's elements, one a line ('list').
let mode = data.order ? 'keys' : 'send';
let captured = [];
const keys = [];
let exactKeys = true;
let keyParts = [];
function readKeys(bytes) {
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(10, start);
    keyParts.push(bytes.slice(start, end === -1 ? bytes.length : end));
    if (end === -1) return;
    readKey();
    start = end + 1;
  }
}
// 'list': jq prints the ordered list's elements one a line, sent on as one list (\`-c\`'s form:
// \`[\`, \`,\` between, \`]\`); for group_by, the groups' elements one after the other, each group
// framed here (groupMarks: 1 for a group's first element, 2 for its last), so that jq never holds
// a group, which may be the whole list.
const CLOSE_LINE = new Uint8Array([93, 10]);
let groupMarks = null;
let listLine = 0;
let lineOpen = false;
function openLine() {
  lineOpen = true;
  if (listLine > 0) send(COMMA);
  if (groupMarks !== null && groupMarks[listLine] & 1) send(OPEN);
}
function sendListed(bytes) {
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(10, start);
    const stop = end === -1 ? bytes.length : end;
    if (!lineOpen && stop > start) openLine();
    send(bytes.subarray(start, stop));
    if (end === -1) return;
    if (!lineOpen) openLine();
    if (groupMarks !== null && groupMarks[listLine] & 2) send(CLOSE);
    lineOpen = false;
    listLine++;
    start = end + 1;
  }
}
function marksOf(groups) {
  const marks = new Uint8Array(groups.reduce((n, group) => n + group.length, 0));
  let at = 0;
  for (const group of groups) {
    marks[at] |= 1;
    at += group.length;
    marks[at - 1] |= 2;
  }
  return marks;
}
const keyDecoder = new TextDecoder();
function readKey() {
  const line = keyParts.map((part) => keyDecoder.decode(part, { stream: true })).join('') + keyDecoder.decode();
  keyParts = [];
  const key = exactKeys ? keyOf(line) : undefined;
  if (key === undefined) {
    exactKeys = false;
    keys.length = 0;
  } else keys.push(key);
}
/** Runs jq again in this thread, on input from \`pieces\` (Uint8Arrays). */
function runOn(jq, program, flags, pieces) {
  text = null;
  offset = 0;
  inputFd = -1;
  source = () => {
    const piece = pieces.next();
    return piece.done ? null : piece.value;
  };
  return jq.raw('', program, flags);
}
function* keptTexts() {
  for (let line = 0; line < lineEnds.length; line++) {
    yield textAt(line);
    yield NEWLINE;
  }
}
function* orderedInput(shape, asInputs) {
  // min_by, max_by: one element or null.
  if (!Array.isArray(shape)) return yield* placeText(shape);
  if (!asInputs) yield OPEN;
  for (let i = 0; i < shape.length; i++) {
    if (i > 0 && !asInputs) yield COMMA;
    yield* placeText(shape[i]);
    if (asInputs) yield NEWLINE;
  }
  if (!asInputs) yield CLOSE;
}
/** After an ordered run: the order from the keys (or jq's own), then the rest of the program on the list in that order. */
function afterOrder(jq) {
  mode = 'capture';
  let shape;
  if (exactKeys) shape = orderOf(data.order.kind, keys);
  else {
    const found = runOn(jq, data.order.inJq, ['-n', '-c'], keptTexts());
    if (found.exitCode !== 0) return found;
    shape = JSON.parse(captured.map((bytes) => keyDecoder.decode(bytes, { stream: true })).join("") + keyDecoder.decode());
  }
  captured = [];
  keys.length = 0;
  mode = 'send';
  const then = data.order.then;
  if (!then.asList) return runOn(jq, then.program, then.flags, orderedInput(shape, then.asInputs));
  mode = 'list';
  send(OPEN);
  if (data.order.kind === 'group_by') {
    groupMarks = marksOf(shape);
    shape = shape.flat();
  }
  const result = runOn(jq, then.program, then.flags, orderedInput(shape, then.asInputs));
  if (result.exitCode === 0) send(CLOSE_LINE);
  return result;
}
function writeOutput(iov, iovcnt, pnum) {
  const heap = new Uint8Array(memory.buffer);
  const words = new Uint32Array(memory.buffer);
  let total = 0;
  for (let i = 0; i < iovcnt; i++) {
    const at = words[(iov >> 2) + 2 * i];
    const length = words[(iov >> 2) + 2 * i + 1];
    const bytes = heap.subarray(at, at + length);
    if (mode === 'keys') readKeys(bytes);
    else if (mode === 'list') sendListed(bytes);
    else if (mode === 'capture') captured.push(bytes.slice());
    else send(bytes);
    total += length;
  }
  words[pnum >> 2] = total;
  return 0;
}
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
      if (f.name === '_fd_write') hooked[name][key] = found.write = (fd, iov, iovcnt, pnum) => fd === 1 ? writeOutput(iov, iovcnt, pnum) : f(fd, iov, iovcnt, pnum);
      if (f.name === '_fd_close') hooked[name][key] = found.close = (fd) => {
        if (fd === inputFd) inputFd = -1;
        return f(fd);
      };
    }
  }
  if (!found.open || !found.read || !found.write || !found.close) throw new Error('jq-wasm no longer reads and writes through openat, fd_read, fd_write and fd_close');
  return hooked;
}
const instantiateWasm = (imports, done) =>
  WebAssembly.instantiate(data.module, withInputReads(imports)).then((instance) => {
    memory = Object.values(instance.exports).find((value) => value instanceof WebAssembly.Memory);
    done(instance, data.module);
  });
require(data.jqPath).loadJq({ instantiateWasm }).then((jq) => {
  let ended = false;
  source = () => {
    const piece = ended ? null : next();
    ended = piece === null;
    // An ordered run keeps the elements' texts as jq reads them, one a line (jq-list.ts).
    if (data.order && piece !== null) keep(piece);
    return piece;
  };
  let result = jq.raw('', data.expression, data.flags);
  if (data.order && result.exitCode === 0) result = afterOrder(jq);
  if (data.order) closeKept();
  parentPort.postMessage({ ...result, stdout: decoder.decode(output.subarray(0, outputLength)) });
  // jq stops early only on an error: what it left is read and dropped.
  if (!ended) while (next() !== null);
  parentPort.postMessage(null);
});`;
