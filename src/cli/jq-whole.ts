import { collectedList, FIELD_PATH, flagsFor, overInputs, pipeHead } from './jq.js';

// Expressions that need the whole list (`length`, `sort_by(.name)`), written as programs over its
// elements given one by one (`jq -n`, inputs), so that jq never holds the list as values: jq's
// values take about 2.6 KB a contact (466 MB at 100,000), the same contact as its JSON text about
// 300 bytes. Each program prints what jq prints for the expression on the whole list, byte for
// byte (test/cli/jq-whole.test.ts, jq-differential.test.ts): an order is found from the elements'
// keys as jq compares them, and jq reads the elements again, in that order, from the texts it was
// sent, so it prints them itself.

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

/**
 * An order (`sort_by(f)` and its kind): jq prints each element's key (`[f]`, as jq's own
 * `sort_by(f)` keys it) on a line, `!` for a key holding a NaN (which `tojson` prints as null),
 * and keeps nothing. The elements' texts, as jq reads them, wait in a file; jq's worker orders the
 * keys (jq-order.ts) and runs `then` on the list in that order, given from the texts.
 */
const keyLines = (f: string) =>
  `inputs | ([${f}\n] as $k | ($k | tojson) as $t | ` +
  // Only a key whose text holds `null` can hold a NaN: the others are not searched (a third of the time).
  `if ($t | contains("null")) and ($k | any(.. | numbers; isnan)) then "!" else $t end) + "\\n"`;
/** jq's own order of the texts given as inputs, from the same keys: where the worker cannot compare them as jq does. */
const orderInJq = (kind: string, f: string) => `[inputs | [${f}\n]] as $k | [range($k | length)] | _${kind}_impl($k)`;

/** `name(f)` whole: the expression's `f`, when it is that call and nothing else. */
function argumentOf(expression: string, name: string): string | undefined {
  const trimmed = expression.trim();
  if (!trimmed.startsWith(`${name}(`)) return undefined;
  const close = closingParen(trimmed, name.length);
  return close === trimmed.length - 1 ? trimmed.slice(name.length + 1, close) : undefined;
}

/** The kinds of order jq's worker finds from the elements' keys (jq-order.ts). */
const ORDERS = ['sort_by', 'group_by', 'unique_by', 'min_by', 'max_by'] as const;

/**
 * A program over the elements as inputs (`jq -n`), and for an order (`sort_by(f)` and its kind),
 * what jq's worker does after it: the program prints each element's key (run with `-j`), the
 * worker orders the keys, then runs `then` on the list in that order: on its elements as inputs
 * or on the list (or the one element) whole.
 */
export interface WholeListProgram {
  program: string;
  order?: {
    kind: (typeof ORDERS)[number];
    inJq: string;
    then: { program: string; flags: string[]; asInputs: boolean; asList?: boolean };
  };
}

/**
 * The program giving the expression's output from the list's elements as inputs, when the
 * expression is one of those below; undefined otherwise. `source` gives the elements (`inputs`,
 * or `inputs | (f)` for a list made element by element).
 */
export function wholeListProgram(expression: string, pretty: boolean, source = 'inputs'): WholeListProgram | undefined {
  if (/\b(input|inputs|halt|halt_error|input_line_number)\b|\$__loc__/.test(expression)) return undefined;
  const value = (program: string) => ({ program });
  const from = source === 'inputs' ? source : `(${source})`;
  const bare = expression.trim();
  if (bare === 'length') return value(`reduce ${from} as $_ (0; . + 1)`);
  if (bare === 'last' || bare === '.[-1]') return value(`reduce ${from} as $x (null; $x)`);
  const leading = firstElements(expression);
  // A list made by `f` element by element: whole, jq runs `f` on every element before the rest
  // of the program, and so gives the first error `f` makes. Only what cannot fail runs beside
  // `f` here, and `f` runs on every element: counting, keeping the last, keeping the first few.
  if (source !== 'inputs') {
    return leading === undefined ? undefined : value(`reduce ${from} as $x ([]; if length < ${leading} then . + [$x] end) | ${expression}`);
  }
  if (bare === 'add') return value(`reduce ${from} as $x (null; . + $x)`);
  if (leading !== undefined) return value(`[limit(${leading}; ${source})] | ${expression}`);
  return inOrder(expression, pretty);
}

/**
 * `sort_by(f)`, `group_by(f)`, `unique_by(f)`, `min_by(f)`, `max_by(f)`, alone or before the first
 * `|`, as a program printing the elements' texts and keys, and what runs on the ordered list.
 */
function inOrder(expression: string, pretty: boolean): WholeListProgram | undefined {
  const split = pipeHead(expression);
  for (const kind of ORDERS) {
    const f = argumentOf(split?.head ?? expression, kind);
    if (f === undefined) continue;
    const rest = split?.rest;
    const one = kind === 'min_by' || kind === 'max_by';
    const flags = flagsFor(pretty);
    const each = rest === undefined || one ? undefined : overElements(rest, pretty);
    let then: NonNullable<WholeListProgram['order']>['then'];
    // The list printed whole: jq prints each element compact on a line, which the worker joins
    // as `-c` prints a list (`[`, `,` between, `]`), never holding more than one element.
    if (rest === undefined && !one && !pretty) then = { program: 'inputs', flags: ['-n', '-c'], asInputs: true, asList: true };
    else if (each === undefined || each.order !== undefined) then = { program: rest ?? '.', flags, asInputs: false };
    else then = { program: each.program, flags: ['-n', ...flags], asInputs: true };
    return { program: keyLines(f), order: { kind, inJq: orderInJq(kind, f), then } };
  }
  return undefined;
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
  return each === undefined ? wholeListProgram(expression, pretty) : { program: each };
}
