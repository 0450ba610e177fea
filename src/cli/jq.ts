// `--jq <expr>`: jq itself (jq 1.8, compiled to WebAssembly by jq-wasm), as in gh. Loaded only
// when --jq is given: its first call costs about 100 ms and 45 MB (README, "Filtering output").
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Jq, JqLoadOptions, JqResult } from 'jq-wasm';
import { CliError, ExitCode, UsageError } from './errors.js';

export const resolve = createRequire(import.meta.url).resolve;
// The global WebAssembly (this project's TypeScript libraries declare only its types).
type WasmModule = NonNullable<JqLoadOptions['wasmModule']>;
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } }).WebAssembly;
// Compiled once, for this thread's jq and the list's worker alike.
let compiling: Promise<WasmModule> | undefined;
export const wasmModule = () => (compiling ??= readFile(resolve('jq-wasm/jq.wasm')).then((bytes) => wasm.compile(bytes)));
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

export const flagsFor = (pretty: boolean) => (pretty ? ['-r'] : ['-r', '-c']);

/** The error of a jq run that failed. */
export function failureOf(result: JqResult): CliError | undefined {
  // The expression compiled (checkJq ran before the request): the data made it fail, after the
  // request was made, so this is no usage error (exit 2 means nothing was sent).
  if (result.exitCode !== 0 && result.stderr !== '') return new CliError(`--jq: ${reason(result.stderr)}`, ExitCode.failure);
  return undefined;
}

/**
 * jq-wasm trims what jq printed (a last empty line, a string's outer spaces): the expression runs
 * between two marks, printed raw, which that trim cannot reach, and which are cut off again. The
 * line break after the expression ends a comment it may end with.
 */
const START = '\u0000wsm-jq-start';
const END = '\u0000wsm-jq-end';
const marked = (expression: string) => `${JSON.stringify(START)}, (${expression}\n), ${JSON.stringify(END)}`;

/** What jq printed between the marks (after `halt`, which never reaches the end mark, as jq-wasm gives it). */
function unmarked(stdout: string): string {
  let text = stdout;
  if (text.startsWith(START)) text = text.slice(START.length).replace(/^\n/, '');
  return text.endsWith(END) ? text.slice(0, -END.length) : text;
}

/** jq's output: one result a line, strings raw (like `jq -r` and gh), indented on a terminal. */
function outputOf(result: JqResult): string {
  const failure = failureOf(result);
  if (failure !== undefined) throw failure;
  const out = unmarked(result.stdout);
  return out === '' || out.endsWith('\n') ? out : out + '\n';
}

export async function runJq(value: unknown, expression: string, options: { pretty: boolean }): Promise<string> {
  return runJqOnJson(JSON.stringify(value ?? null), expression, options);
}

/** runJq on a value already written as JSON. */
export async function runJqOnJson(json: string, expression: string, options: { pretty: boolean }): Promise<string> {
  return outputOf((await load()).raw(json, marked(expression), flagsFor(options.pretty)));
}

/**
 * The expression before its first `|` outside brackets (`|` binds loosest in jq: what follows sees
 * only what the head gives), and the rest after that `|` (undefined without one). Undefined where
 * a string, a comment or `|=` comes first: not worth reading here.
 */
export function pipeHead(expression: string): { head: string; rest: string | undefined } | undefined {
  let depth = 0;
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i];
    if (c === '"' || c === '#') return undefined;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === '|' && depth === 0) {
      if (expression[i + 1] === '=') return undefined; // |= updates the list
      return { head: expression.slice(0, i), rest: expression.slice(i + 1) };
    }
  }
  return { head: expression, rest: undefined };
}

/** An expression that starts a path: `.name`, `.a?.b`, or nothing. */
export const FIELD_PATH = String.raw`(\s*\.[A-Za-z_][A-Za-z0-9_]*\??)*\s*`;

/**
 * Is `expression` `.[]` (with a path after it such as `.[].name`), alone or before the first `|`
 * outside brackets? Then it treats each element of the list alone, and its output on the whole
 * list is its output on each element, one after the other.
 */
export function eachElementAlone(expression: string): boolean {
  // halt stops a run early and input(s) read the input themselves: left to a run on the whole list.
  if (/\b(halt|halt_error|input|inputs)\b/.test(expression)) return false;
  const split = pipeHead(expression);
  return split !== undefined && new RegExp(`^\\s*\\.\\[\\]\\??${FIELD_PATH}$`).test(split.head);
}

/** Index of the bracket that closes the one at `open`, skipping strings and their `\(...)`; -1 when not found. */
function closingBracket(text: string, open: number): number {
  const CLOSES: Record<string, string> = { '(': ')', '\\(': ')', '[': ']', '{': '}' };
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (stack.at(-1) === '"') {
      if (c === '\\' && text[i + 1] === '(') stack.push('\\(');
      else if (c === '"') stack.pop();
      if (c === '\\') i++;
      continue;
    }
    if (c === '#') return -1; // a comment: not worth reading here
    if (c === '"' || c in CLOSES) stack.push(c);
    else if (c === ')' || c === ']' || c === '}') {
      if (CLOSES[stack.pop() ?? ''] !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** What an element-by-element expression (eachElementAlone) does to one element: `.[]` taken off. */
function onEachElement(expression: string): string {
  // Line breaks kept where they were: $__loc__ gives the same line.
  const rest = expression.replace(/^\s*\.\[\]\??\s*/, (taken) => taken.replace(/[^\n]/g, ''));
  return rest.trimStart().startsWith('.') ? rest : `.${rest}`;
}

/**
 * A list made element by element, `map(f)` or `[.[] | f]` (`[.[].name]`...), alone or before the
 * first `|`: what comes before it (white space, kept so that $__loc__ gives the same line), `f` on
 * one element, what follows the brackets, and the rest after its `|` (undefined without one).
 */
export function collectedList(expression: string): { before: string; each: string; after: string; rest: string | undefined } | undefined {
  // input(s) would read the elements the program reads itself.
  if (/\b(input|inputs)\b/.test(expression)) return undefined;
  const start = expression.search(/\S/);
  const isMap = expression.startsWith('map(', start);
  if (!isMap && expression[start] !== '[') return undefined;
  const end = closingBracket(expression, isMap ? start + 3 : start);
  const after = expression.slice(end + 1);
  if (end < 0 || !/^\s*($|\|(?!=))/.test(after)) return undefined;
  const inner = expression.slice(isMap ? start + 4 : start + 1, end);
  if (!isMap && !eachElementAlone(inner)) return undefined;
  const pipe = after.indexOf('|');
  const each = isMap ? inner : onEachElement(inner);
  return { before: expression.slice(0, start), each, after, rest: pipe < 0 ? undefined : after.slice(pipe + 1) };
}

/**
 * The program that gives the expression's output on a list from the list's elements given to jq
 * one by one as inputs (`jq -n`), when there is one: for an element-by-element expression
 * (`.[] | f`: `inputs | (f)`), and for one that collects what such an expression gives
 * (collectedList: `[inputs | (f)] | ...`). jq then takes each element as it comes and keeps only
 * what `f` gives, never the whole list.
 */
export function overInputs(expression: string): string | undefined {
  if (eachElementAlone(expression)) return `inputs | (${onEachElement(expression)})`;
  const list = collectedList(expression);
  if (list === undefined) return undefined;
  return `${list.before}[inputs | (${list.each})]${list.after}`;
}
