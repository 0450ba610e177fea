// `--jq <expr>`: jq itself (jq 1.8, compiled to WebAssembly by jq-wasm), as in gh. Loaded only
// when --jq is given: its first call costs about 100 ms and 45 MB (README, "Filtering output").
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Jq, JqLoadOptions, JqResult } from 'jq-wasm';
import { CliError, ExitCode, UsageError } from './errors.js';

const resolve = createRequire(import.meta.url).resolve;
// The global WebAssembly (this project's TypeScript libraries declare only its types).
type WasmModule = NonNullable<JqLoadOptions['wasmModule']>;
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } }).WebAssembly;
// Compiled once, for this thread's jq and the list's worker alike.
let compiling: Promise<WasmModule> | undefined;
const wasmModule = () => (compiling ??= readFile(resolve('jq-wasm/jq.wasm')).then((bytes) => wasm.compile(bytes)));
let loading: Promise<Jq> | undefined;
const load = () => (loading ??= Promise.all([import('jq-wasm'), wasmModule()]).then(([jq, module]) => jq.loadJq({ wasmModule: module })));

/** jq's own message without its `jq: error (at ...):` prefix. */
function reason(stderr: string): string {
  return (
    stderr
      .split('\n')
      // jq echoes the expression under a syntax error, and counts the errors: only its sentences stay.
      .filter((line) => line.startsWith('jq: ') && !/^jq: \d+ compile errors?$/.test(line.trim()))
      .map((line) => line.replace(/^jq: error(?: \(at [^)]*\))?: /, ''))
      .join('; ')
      .replace(/\s+/g, ' ')
      .replace(/[,:;]$/, '')
      .trim() || stderr.trim()
  );
}

/** Fails (exit 2) when the expression does not compile; run before anything is sent. */
export async function checkJq(expression: string): Promise<void> {
  const jq = await load();
  const result = jq.raw('null', expression);
  // Only compile errors are the expression's fault whatever the data; `.[]` fails on null.
  if (result.exitCode !== 0 && /compile error/.test(result.stderr)) throw new UsageError(`--jq: ${reason(result.stderr)}`);
}

const flagsFor = (pretty: boolean) => (pretty ? ['-r'] : ['-r', '-c']);

/** jq's output: one result a line, strings raw (like `jq -r` and gh), indented on a terminal. */
function outputOf(result: JqResult): string {
  // The expression compiled (checkJq ran before the request): the data made it fail, after the
  // request was made, so this is no usage error (exit 2 means nothing was sent).
  if (result.exitCode !== 0 && result.stderr !== '') throw new CliError(`--jq: ${reason(result.stderr)}`, ExitCode.failure);
  const out = result.stdout;
  return out === '' || out.endsWith('\n') ? out : out + '\n';
}

export async function runJq(value: unknown, expression: string, options: { pretty: boolean }): Promise<string> {
  return outputOf((await load()).raw(JSON.stringify(value ?? null), expression, flagsFor(options.pretty)));
}

/**
 * Is `expression` `.[]` (with a path after it such as `.[].name`), alone or before the first `|`
 * outside brackets? Then it treats each element of the list alone (`|` binds loosest in jq), and
 * its output on the whole list is its output on consecutive parts of it, one after the other.
 */
export function eachElementAlone(expression: string): boolean {
  // halt stops the whole run, input(s) read past the list: parts would differ from the whole.
  if (/\b(halt|halt_error|input|inputs)\b/.test(expression)) return false;
  let depth = 0;
  let head = expression;
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i];
    if (c === '"' || c === '#') return false; // strings (with their \(...)) and comments: not worth reading here
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === '|' && depth === 0) {
      if (expression[i + 1] === '=') return false; // |= updates the list
      head = expression.slice(0, i);
      break;
    }
  }
  return /^\s*\.\[\]\??(\s*\.[A-Za-z_][A-Za-z0-9_]*\??)*\s*$/.test(head);
}

/** About how much JSON text goes to jq's thread at once. */
const PART_CHARS = 4_000_000;

// jq runs in a thread of its own while this one reads the list's pages: parts of the list's JSON
// text go to it as they come (`null` ends the list), and each jq run's result comes back. An
// expression that takes the elements one by one runs on each part; any other on the whole list.
const WORKER = `
const { parentPort, workerData: data } = require('node:worker_threads');
require(data.jqPath).loadJq({ wasmModule: data.module }).then((jq) => {
  const whole = [];
  const run = (parts) => parentPort.postMessage(jq.raw('[' + parts.join(',') + ']', data.expression, data.flags));
  parentPort.on('message', (part) => {
    if (part !== null && data.inParts) return run([part]);
    if (part !== null) return void whole.push(part);
    if (!data.inParts) run(whole);
    parentPort.postMessage(null);
  });
});`;

/**
 * Runs the expression on the list of `rows` and writes jq's output. jq works in its own thread
 * while the rows come; when the expression takes the elements one by one (eachElementAlone) it
 * runs on parts of the list as they come and writes their output at once, so neither time nor
 * memory grows with more than a part; any other expression sees the whole list at the end.
 */
export async function runJqOverList(
  rows: AsyncIterable<unknown>,
  expression: string,
  options: { pretty: boolean; write: (text: string) => void },
): Promise<number> {
  const inParts = eachElementAlone(expression);
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { jqPath: resolve('jq-wasm'), module: await wasmModule(), expression, flags: flagsFor(options.pretty), inParts },
  });
  let failed: unknown;
  const finished = new Promise<void>((done, fail) => {
    worker.on('message', (result: JqResult | null) => {
      if (result === null) return done();
      try {
        if (failed === undefined) options.write(outputOf(result));
      } catch (error) {
        failed = error;
        fail(error);
      }
    });
    worker.on('error', fail);
    worker.on('exit', () => fail(new CliError('--jq: jq stopped before the end of the list', ExitCode.failure)));
  });
  finished.catch(() => undefined); // seen below, where it is awaited
  try {
    let texts: string[] = [];
    let chars = 0;
    let count = 0;
    for await (const row of rows) {
      if (failed !== undefined) throw failed;
      const text = JSON.stringify(row);
      texts.push(text);
      chars += text.length;
      count++;
      if (chars >= PART_CHARS) {
        worker.postMessage(texts.join(','));
        texts = [];
        chars = 0;
      }
    }
    if (texts.length > 0) worker.postMessage(texts.join(','));
    worker.postMessage(null);
    await finished;
    return count;
  } finally {
    await worker.terminate();
  }
}
