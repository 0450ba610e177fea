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
const keyed = (f: string) => `[inputs | [[${f}\n], tojson]]`;
/**
 * Pairs' texts as jq prints the array of their elements, compact, in pieces (`jq -j` prints them
 * as they are: no line between them). Joined in jq, the text would be copied at every element.
 */
const TEXTS = 'def texts: . as $p | range(0; $p | length) as $i | (if $i > 0 then "," else empty end), $p[$i][1];';
/** A chosen pair's element, as jq prints it (either form), or null. */
const element = 'if . == null then null else .[1] | fromjson end';

/** `name(f)` whole: the expression's `f`, when it is that call and nothing else. */
function argumentOf(expression: string, name: string): string | undefined {
  const trimmed = expression.trim();
  if (!trimmed.startsWith(`${name}(`)) return undefined;
  const close = closingParen(trimmed, name.length);
  return close === trimmed.length - 1 ? trimmed.slice(name.length + 1, close) : undefined;
}

/** A program over the elements as inputs; `pieces`: it prints text in pieces, to be run with `-j`. */
export interface WholeListProgram {
  program: string;
  pieces: boolean;
}

/**
 * The program giving the expression's output from the list's elements as inputs, when the
 * expression is one of those below; undefined otherwise. A list that comes out whole (`sort_by`,
 * `group_by`, `unique_by`) is written from the elements' texts on a pipe only: a terminal's
 * indented form would need the values again.
 */
export function wholeListProgram(expression: string, pretty: boolean): WholeListProgram | undefined {
  if (/\b(input|inputs|halt|halt_error|input_line_number)\b|\$__loc__/.test(expression)) return undefined;
  const value = (program: string) => ({ program, pieces: false });
  const bare = expression.trim();
  if (bare === 'length') return value('reduce inputs as $_ (0; . + 1)');
  if (bare === 'add') return value('reduce inputs as $x (null; . + $x)');
  if (bare === 'first' || bare === '.[0]') return value('reduce first(inputs) as $x (null; $x)');
  if (bare === 'last' || bare === '.[-1]') return value('reduce inputs as $x (null; $x)');
  for (const choice of ['min_by', 'max_by']) {
    const f = argumentOf(expression, choice);
    if (f !== undefined) return value(`${keyed(f)} | ${choice}(.[0]) | ${element}`);
  }
  if (pretty) return undefined;
  const pieces = (program: string) => ({ program: `${TEXTS} ${program}`, pieces: true });
  const sorted = argumentOf(expression, 'sort_by');
  if (sorted !== undefined) return pieces(`${keyed(sorted)} | sort_by(.[0]) | "[", texts, "]\\n"`);
  const unique = argumentOf(expression, 'unique_by');
  if (unique !== undefined) return pieces(`${keyed(unique)} | unique_by(.[0]) | "[", texts, "]\\n"`);
  const grouped = argumentOf(expression, 'group_by');
  if (grouped !== undefined)
    return pieces(
      `${keyed(grouped)} | group_by(.[0]) | "[", (. as $g | range(0; $g | length) as $i | (if $i > 0 then "," else empty end), "[", ($g[$i] | texts), "]"), "]\\n"`,
    );
  return undefined;
}
