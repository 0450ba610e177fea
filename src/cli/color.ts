// Whether a stream gets colour, by the conventions users set in their shells, and the one way
// text is coloured (Node's util.styleText). Node's own check reads process.env and the real
// process streams; wsm decides from the environment and streams it was handed (tests hand in
// others), then asks styleText for the codes alone.
//
// In order, the first that speaks decides:
//   1. `--no-color`: off.
//   2. NO_COLOR (no-color.org: set and not empty) or NODE_DISABLE_COLORS: off. The CLI's contract says
//      "never with NO_COLOR" (docs/output.md "Colour"), so it beats FORCE_COLOR (Node lets FORCE_COLOR win).
//   3. FORCE_COLOR, read as Node reads it: '', 1, 2, 3 or true force colour on, even into a pipe
//      (a CI log that renders colour); any other value (0, false) turns it off.
//   4. TERM=dumb: off (such a terminal shows escape codes as text).
//   5. otherwise colour exactly when the stream is a terminal.
import { styleText } from 'node:util';

export type Env = Record<string, string | undefined>;

/** The formats wsm uses, as util.inspect.colors names them. */
export type Style = 'bold' | 'green' | 'red' | 'yellow' | 'magenta';

const FORCING = new Set(['', '1', '2', '3', 'true']);

/** https://no-color.org: present and not empty disables colour. */
export function noColorRequested(env: Env): boolean {
  return (env.NO_COLOR !== undefined && env.NO_COLOR !== '') || env.NODE_DISABLE_COLORS !== undefined;
}

/** A terminal that cannot take escape sequences (colour, or the progress line's erase). */
export function dumbTerminal(env: Env): boolean {
  return env.TERM === 'dumb';
}

/** Whether text written to a stream (a terminal or not) is coloured; `flag` is false for --no-color. */
export function colorWanted(isTTY: boolean, env: Env, flag = true): boolean {
  if (!flag || noColorRequested(env)) return false;
  if (env.FORCE_COLOR !== undefined) return FORCING.has(env.FORCE_COLOR.trim().toLowerCase());
  if (dumbTerminal(env)) return false;
  return isTTY;
}

/** `text` in `format` when `on`; the text as it is otherwise (and an empty text stays empty). */
export function paint(on: boolean, format: Style, text: string): string {
  return on && text !== '' ? styleText(format, text, { validateStream: false }) : text;
}
