// The two terminal layouts: a list as a table that fits the terminal's width (ids and numbers
// never cut, the widest other columns give way first), and one record as `label  value` lines
// whose values wrap instead of being cut. Cells arrive as plain text, already made visible.
import { fitWidths, pad, truncate, wrap, type WidthOf } from './text.js';
import type { Tone } from './present.js';

export interface Paint {
  bold(text: string): string;
  tone(text: string, tone: Tone | undefined): string;
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

const GAP = 2;

/** Header row then one line per row; no line is wider than `layout.width` unless fixed columns alone are. */
export function renderTable(headers: string[], rows: TableCell[][], fixed: boolean[], layout: TableLayout): string {
  const { widthOf, paint } = layout;
  const natural = headers.map((header, i) => Math.max(widthOf(header), ...rows.map((row) => widthOf(row[i].text))));
  // Narrow columns first keep 4 characters ("ab…" plus one); on a very narrow terminal even 1.
  const widths = fitWidths(natural, fixed, layout.width, GAP) ?? fitWidths(natural, fixed, layout.width, GAP, 1) ?? natural;
  const line = (cells: TableCell[], style: (text: string, cell: TableCell) => string) =>
    cells
      .map((cell, i) => {
        const text = fixed[i] ? cell.text : truncate(cell.text, widths[i], widthOf);
        const last = i === cells.length - 1;
        return last ? style(text, cell) : style(text, cell) + ' '.repeat(widths[i] - widthOf(text) + GAP);
      })
      .join('')
      .trimEnd();
  const out = [line(headers.map((text) => ({ text })), (text) => paint.bold(text))];
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
