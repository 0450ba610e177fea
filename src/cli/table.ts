// The two terminal layouts: a list as a table that fits the terminal's width (ids, numbers,
// counts and statuses never cut, the widest text columns give way first, then optional columns
// go), and one record as `label  value` lines whose values wrap instead of being cut. Cells
// arrive as plain text, already made visible.
import { fitWidths, pad, truncate, wrap, type WidthOf } from './text.js';
import { paint, type Style } from './color.js';
import type { Tone } from './present.js';

export interface Paint {
  bold(text: string): string;
  tone(text: string, tone: Tone | undefined): string;
}

const TONE_STYLES: Record<Tone, Style> = { good: 'green', bad: 'red', waiting: 'yellow' };

/** Headers in bold and statuses in their tone's colour, or plain text where colour is off. */
export function paintFor(colour: boolean): Paint {
  if (!colour) return { bold: (text) => text, tone: (text) => text };
  return {
    bold: (text) => paint(true, 'bold', text),
    tone: (text, tone) => (tone === undefined ? text : paint(true, TONE_STYLES[tone], text)),
  };
}

export interface TableCell {
  text: string;
  tone?: Tone;
}

export interface TableLayout {
  /** The terminal's width in columns. */
  width: number;
  widthOf: WidthOf;
  paint: Paint;
}

export interface TableColumn {
  header: string;
  /** Never shrunk: an id, a number or a status cut short reads as another value. */
  whole?: boolean;
  /** Left out on a terminal too narrow for the table rather than cut to a few characters. */
  optional?: boolean;
}

const GAP = 2;
/** A shrinkable column keeps at least this much ("ab…" plus one) while another way is left. */
const MIN_WIDTH = 4;
/** Text is not cut below this while an optional column could go instead. */
const READABLE_WIDTH = 10;
/** Text that is a count, whatever column it sits in: `300000`, `1,234`, `12.5%`, `300000/300000`. */
const COUNT = /^[-+]?\d[\d,.]*%?(\/\d[\d,.]*)?$/;

/**
 * Header row then one line per row; no line is wider than `layout.width` unless whole columns
 * alone are. Columns whose every cell is a count are kept whole like the ones marked so.
 */
export function renderTable(columns: TableColumn[], rows: TableCell[][], layout: TableLayout): string {
  const { widthOf, paint } = layout;
  const whole = columns.map(
    (c, i) =>
      c.whole === true || (rows.some((row) => row[i].text !== '') && rows.every((row) => row[i].text === '' || COUNT.test(row[i].text))),
  );
  const natural = columns.map((c, i) => Math.max(widthOf(c.header), ...rows.map((row) => widthOf(row[i].text))));
  // An optional column is shown whole or not at all (`2 min…` tells nothing); it goes, from the
  // right, before text is cut below READABLE_WIDTH, and text gives way down to MIN_WIDTH after.
  const fit = (shown: number[], minWidth: number) =>
    fitWidths(
      shown.map((i) => natural[i]),
      shown.map((i) => whole[i] || columns[i].optional === true),
      layout.width,
      GAP,
      minWidth,
    );
  let shown = columns.map((_, i) => i);
  let fitted = fit(shown, READABLE_WIDTH);
  for (let i = columns.length - 1; i >= 0 && fitted === undefined; i--) {
    if (!columns[i].optional) continue;
    shown = shown.filter((j) => j !== i);
    fitted = fit(shown, READABLE_WIDTH);
  }
  const widths = fitted ?? fit(shown, MIN_WIDTH) ?? fit(shown, 1) ?? shown.map((i) => natural[i]);
  const line = (cells: TableCell[], style: (text: string, cell: TableCell) => string) =>
    shown
      .map((column, n) => {
        const cell = cells[column];
        const text = whole[column] ? cell.text : truncate(cell.text, widths[n], widthOf);
        const last = n === shown.length - 1;
        return last ? style(text, cell) : style(text, cell) + ' '.repeat(widths[n] - widthOf(text) + GAP);
      })
      .join('')
      .trimEnd();
  const out = [
    line(
      columns.map((c) => ({ text: c.header })),
      (text) => paint.bold(text),
    ),
  ];
  for (const row of rows) out.push(line(row, (text, cell) => paint.tone(text, cell.tone)));
  return out.join('\n') + '\n';
}

/** `label  value` lines; a value longer than the line wraps under itself, never cut. */
export function renderRecord(labels: string[], values: TableCell[], layout: TableLayout): string {
  const { widthOf, paint } = layout;
  const labelWidth = Math.max(0, ...labels.map(widthOf));
  const valueWidth = Math.max(20, layout.width - labelWidth - GAP);
  const indent = ' '.repeat(labelWidth + GAP);
  const out: string[] = [];
  labels.forEach((label, i) => {
    const lines = wrap(values[i].text, valueWidth, widthOf);
    const head = paint.bold(pad(label, labelWidth, widthOf));
    out.push(`${head}${' '.repeat(GAP)}${paint.tone(lines[0], values[i].tone)}`.trimEnd());
    for (const more of lines.slice(1)) out.push(`${indent}${paint.tone(more, values[i].tone)}`.trimEnd());
  });
  return out.join('\n') + '\n';
}
