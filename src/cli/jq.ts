// `--jq <expr>`: jq itself (jq 1.7, compiled to WebAssembly by jq-wasm), as in gh. Loaded only
// when --jq is given: its first call costs about 100 ms and 45 MB (README, "Filtering output").
import { CliError, ExitCode, UsageError } from './errors.js';

type Raw = (data: string, filter: string, flags?: string[]) => Promise<string>;

let loading: Promise<Raw> | undefined;
const load = () => (loading ??= import('jq-wasm').then((module) => module.raw as Raw));

/** jq's own message without its `jq: error (at ...):` prefix. */
function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .split('\n')
    // jq echoes the expression under a syntax error, and counts the errors: only its sentences stay.
    .filter((line) => line.startsWith('jq: ') && !/^jq: \d+ compile errors?$/.test(line.trim()))
    .map((line) => line.replace(/^jq: error(?: \(at [^)]*\))?: /, ''))
    .join('; ')
    .replace(/\s+/g, ' ')
    .replace(/[,:;]$/, '')
    .trim() || text.trim();
}

/** Fails (exit 2) when the expression does not compile; run before anything is sent. */
export async function checkJq(expression: string): Promise<void> {
  const raw = await load();
  try {
    await raw('null', expression);
  } catch (error) {
    const text = error instanceof Error ? error.message : '';
    // Only compile errors are the expression's fault whatever the data; `.[]` fails on null.
    if (/compile error/.test(text)) throw new UsageError(`--jq: ${reason(error)}`);
  }
}

/**
 * Runs the expression on `value` and returns jq's output: one result a line, strings raw
 * (like `jq -r` and gh), other values indented on a terminal and compact when piped.
 */
export async function runJq(value: unknown, expression: string, options: { pretty: boolean }): Promise<string> {
  const raw = await load();
  try {
    const out = await raw(JSON.stringify(value ?? null), expression, options.pretty ? ['-r'] : ['-r', '-c']);
    return out === '' || out.endsWith('\n') ? out : out + '\n';
  } catch (error) {
    // The expression compiled (checkJq ran before the request): the data made it fail, after the
    // request was made, so this is no usage error (exit 2 means nothing was sent).
    throw new CliError(`--jq: ${reason(error)}`, ExitCode.failure);
  }
}
