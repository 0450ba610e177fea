import { collectedList, FIELD_PATH, overInputs, pipeHead } from './jq.js';

// Expressions that need the whole list (`length`, `sort_by(.name)`), written as programs over its
// elements given one by one (`jq -n`, inputs), so that jq never holds the list as values: jq's
// values take about 2.6 KB a contact (466 MB at 100,000), the same contact as its JSON text about
// 300 bytes. Each program prints what jq prints for the expression on the whole list, byte for
// byte (test/cli/jq-whole.test.ts): jq's own sort, group and choice run on the keys, and an element
// comes back as the text jq writes for it (`tojson` is jq's compact form, as `-c` prints).

/** Index of the `)` closing the `(` at `open`, skipping strings; -1 when not found. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      // A string's \(...) holds brackets of its own: not worth reading here.
      if (c === '\\') return -1;
      if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '#') return -1;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return c === ')' ? i : -1;
    }
  }
  return -1;
}

/** Each element as its key (what `f` gives, in an array, as jq's own `sort_by(f)` keys it) and its text. */
const keyed = (from: string, f: string) => `[${from} | [[${f}\n], tojson]]`;
/** A chosen pair's element, as jq prints it (either form), or null. */
const element = 'if . == null then null else .[1] | fromjson end';
/**
 * A list that comes out whole, in another order or grouped: jq prints each element's text
 * (`tojson`, what `-c` prints: never a line end of its own) on a line as it reads it, and keeps
 * only its key (`[f]`); after the last, a line of `#` and the output's shape as places, from
 * `order` run on the places with the keys as `$k`. The texts wait outside jq, which never holds
 * them (jq-worker.ts writes the output from them). jq's own `sort_by(f)` is
 * `_sort_by_impl(map([f]))` (and so `group_by`, `unique_by`): called here on the places with the
 * keys already made, it orders them as it orders the elements.
 */
const ordered = (from: string, f: string, order: string) =>
  `foreach ((${from} | [.]), null) as $__e ([]; if $__e == null then . else . + [[$__e[0] | ${f}\n]] end; ` +
  `if $__e == null then "#" + (. as $k | [range(length)] | ${order} | tojson) + "\\n" else ($__e[0] | tojson) + "\\n" end)`;

/** `name(f)` whole: the expression's `f`, when it is that call and nothing else. */
function argumentOf(expression: string, name: string): string | undefined {
  const trimmed = expression.trim();
  if (!trimmed.startsWith(`${name}(`)) return undefined;
  const close = closingParen(trimmed, name.length);
  return close === trimmed.length - 1 ? trimmed.slice(name.length + 1, close) : undefined;
}

/**
 * A program over the elements as inputs; `ordered`: it prints the elements' texts and then their
 * order (above), run with `-j`, and the output is written from them.
 */
export interface WholeListProgram {
  program: string;
  ordered: boolean;
}

/**
 * The program giving the expression's output from the list's elements as inputs, when the
 * expression is one of those below; undefined otherwise. `source` gives the elements (`inputs`,
 * or `inputs | (f)` for a list made element by element). A list that comes out whole (`sort_by`,
 * `group_by`, `unique_by`) is written from the elements' texts on a pipe only: a terminal's
 * indented form would need the values again.
 */
export function wholeListProgram(expression: string, pretty: boolean, source = 'inputs'): WholeListProgram | undefined {
  if (/\b(input|inputs|halt|halt_error|input_line_number)\b|\$__loc__/.test(expression)) return undefined;
  const value = (program: string) => ({ program, ordered: false });
  const from = source === 'inputs' ? source : `(${source})`;
  const bare = expression.trim();
  if (bare === 'length') return value(`reduce ${from} as $_ (0; . + 1)`);
  if (bare === 'add') return value(`reduce ${from} as $x (null; . + $x)`);
  if (bare === 'first' || bare === '.[0]') return value(`reduce first(${source}) as $x (null; $x)`);
  if (bare === 'last' || bare === '.[-1]') return value(`reduce ${from} as $x (null; $x)`);
  for (const choice of ['min_by', 'max_by']) {
    const f = argumentOf(expression, choice);
    if (f !== undefined) return value(`${keyed(from, f)} | ${choice}(.[0]) | ${element}`);
  }
  const leading = firstElements(expression);
  if (leading !== undefined) return value(`[limit(${leading}; ${source})] | ${expression}`);
  if (pretty) return undefined;
  const inOrder = (f: string | undefined, order: string) =>
    f === undefined ? undefined : { program: ordered(from, f, order), ordered: true };
  return (
    inOrder(argumentOf(expression, 'sort_by'), '_sort_by_impl($k)') ??
    inOrder(argumentOf(expression, 'unique_by'), '_unique_by_impl($k)') ??
    inOrder(argumentOf(expression, 'group_by'), '_group_by_impl($k)')
  );
}

/**
 * How many of the list's first elements the expression reads, when it starts with `.[n]`,
 * `.[:n]`, `.[0:n]` or `first` (a path such as `.name` after it), alone or before its first
 * `|`: what follows sees only what that head gives, so the list cut after them gives the same.
 */
function firstElements(expression: string): number | undefined {
  const head = pipeHead(expression)?.head;
  const match = head === undefined ? null : new RegExp(`^\\s*(?:\\.\\[(\\d+)\\]|\\.\\[0?:(\\d+)\\]|(first))${FIELD_PATH}$`).exec(head);
  if (match === null) return undefined;
  const count = match[1] !== undefined ? Number(match[1]) + 1 : match[2] !== undefined ? Number(match[2]) : 1;
  // jq takes `limit(0; f)` as empty, and so `.[:0]`: a count too large for an exact number stays whole.
  return Number.isSafeInteger(count) && count > 0 ? count : undefined;
}

/**
 * How jq reads the list for `expression` as inputs one by one, when it can: element by element
 * (`.[] | f`), a list made element by element and then read as a whole-list expression
 * (`[.[] | select(.status)] | length`: jq counts what `f` gives, holding none of it), or one of
 * wholeListProgram's.
 */
export function overElements(expression: string, pretty: boolean): WholeListProgram | undefined {
  const list = collectedList(expression);
  if (list?.rest !== undefined) {
    const then = wholeListProgram(list.rest, pretty, `inputs | (${list.each})`);
    if (then !== undefined) return { ...then, program: `${list.before}${then.program}` };
  }
  const each = overInputs(expression);
  return each === undefined ? wholeListProgram(expression, pretty) : { program: each, ordered: false };
}
