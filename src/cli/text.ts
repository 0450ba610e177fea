// Text as it reaches a person: control characters made visible (a value holding `ESC]0;…` must
// not retitle the window or move the cursor), cells cut or wrapped to a display width, and CSV
// cells that a spreadsheet would run as formulas neutralised. Pure functions, no dependencies:
// the display width is passed in (string-width, loaded only when a terminal needs it).

import { csvField, neutraliseFormula } from '../formats/csv/cells.js';

/** Columns a string takes on a terminal. */
export type WidthOf = (text: string) => number;

// C0 controls, DEL, C1 controls (0x9b is CSI on 8-bit terminals), and the bidirectional
// overrides and isolates that reorder what follows them ("Trojan Source").
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAKS = /\s*(?:\r\n|[\r\n\u2028\u2029])\s*/g;

function escapeOne(char: string): string {
  const code = char.charCodeAt(0);
  if (char === '\t') return '\\t';
  if (char === '\n') return '\\n';
  if (char === '\r') return '\\r';
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Every control character as a visible escape (`\x1b`, `\t`, `\u202e`). */
export function visible(text: string): string {
  return text.replace(CONTROL, escapeOne);
}

/** One line for a table cell: line breaks become spaces, tabs a space, other controls visible. */
export function visibleLine(text: string): string {
  return visible(text.replace(LINE_BREAKS, ' ').replace(/\t/g, ' '));
}

/**
 * JSON for a terminal or a file: JSON.stringify escapes C0 controls but writes DEL, C1 and the
 * bidi controls raw. They can only occur inside strings, where `\uXXXX` means the same value.
 */
export function safeJson(json: string): string {
  return json.replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A value as JSON for a terminal or a file (indented by two spaces, or one line): safeJson's escapes. */
export function jsonText(value: unknown, indent = false): string {
  return safeJson(JSON.stringify(value, null, indent ? 2 : undefined));
}

/** Cut to `width` columns with `…` when longer. */
export function truncate(text: string, width: number, widthOf: WidthOf): string {
  if (widthOf(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const { segment } of graphemes(text)) {
    const w = widthOf(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return out + '…';
}

/** Pads to `width` columns (display width, not string length). */
export function pad(text: string, width: number, widthOf: WidthOf): string {
  return text + ' '.repeat(Math.max(0, width - widthOf(text)));
}

/**
 * Lines of at most `width` columns, broken at spaces; the text's own line breaks are kept.
 * A word longer than a line is left whole on a line of its own (the terminal wraps it), so a
 * URL or a token stays in one piece and can be copied.
 */
export function wrap(text: string, width: number, widthOf: WidthOf): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|[\r\n\u2028\u2029]/)) {
    let line = '';
    for (const word of paragraph.split(/ +/)) {
      if (word === '') continue;
      if (line === '') line = word;
      else if (widthOf(line) + 1 + widthOf(word) <= width) line += ' ' + word;
      else {
        lines.push(line);
        line = word;
      }
    }
    lines.push(line);
  }
  return lines;
}

function graphemes(text: string): Iterable<{ segment: string }> {
  return new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text);
}

/**
 * Column widths for a table that must fit in `maxWidth` (gaps included). Columns marked fixed
 * (ids, numbers) keep their full width; the others give up width widest-first, each down to
 * `minWidth` (or its own width when narrower). Returns undefined when even that cannot fit.
 */
export function fitWidths(natural: number[], fixed: boolean[], maxWidth: number, gap: number, minWidth = 4): number[] | undefined {
  const budget = maxWidth - gap * Math.max(0, natural.length - 1);
  const sum = (widths: number[]) => widths.reduce((a, b) => a + b, 0);
  if (sum(natural) <= budget) return [...natural];
  const floor = natural.map((w, i) => (fixed[i] ? w : Math.min(w, minWidth)));
  // Every shrinkable column is capped at `cap`: the largest cap that fits wins (water-filling),
  // so the widest columns give up width first and narrow ones keep theirs.
  const capped = (cap: number) => natural.map((w, i) => (fixed[i] ? w : Math.max(floor[i], Math.min(w, cap))));
  if (sum(capped(0)) > budget) return undefined;
  let low = 0;
  let high = Math.max(...natural);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (sum(capped(mid)) <= budget) low = mid;
    else high = mid - 1;
  }
  const widths = capped(low);
  // Columns still above the cap share what is left, one column each, left to right.
  let left = budget - sum(widths);
  for (let i = 0; i < widths.length && left > 0; i++) {
    if (!fixed[i] && natural[i] > widths[i]) {
      widths[i] += 1;
      left -= 1;
    }
  }
  return widths;
}

/** A count in a sentence a person reads (`300,018`), as the progress line writes it; never in data output. */
export function countText(n: number): string {
  return n.toLocaleString('en-US');
}

/** `1 row`, `2 rows`, `300,000 rows`: a count with its noun, for messages. */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${countText(n)} ${n === 1 ? noun : plural}`;
}

/** Text of one value: nested objects and arrays JSON-encoded, null/undefined empty. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * One CSV cell: text a spreadsheet would run as a formula gets a leading `'` (numbers are
 * numbers, never formulas); on a terminal, control characters are made visible too.
 */
export function csvCell(value: unknown, terminal = false): string {
  const text = cellText(value);
  const safe = typeof value === 'number' ? text : neutraliseFormula(text);
  return csvField(terminal ? visible(safe) : safe);
}

/** `row 27`, or `row 27 (line 60)` when a quoted value's line breaks put the CSV row on another line of its file. */
export function rowName(place: { row: number; line?: number }): string {
  return place.line === undefined || place.row === place.line ? `row ${place.row}` : `row ${place.row} (line ${place.line})`;
}
