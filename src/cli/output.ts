// One renderer for every command's data: table | json | ndjson | csv, or ids with -q.
// Data goes to stdout; chatter (message, warn) goes to stderr.
import type { IOStreams } from './io.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface Column<T = Record<string, unknown>> {
  /** Field name (dotted paths like `role.name` reach into nested objects); also the CSV header. */
  key: string;
  /** Table header on a terminal. */
  header: string;
  /** Computes the cell instead of reading `key`. */
  get?: (row: T) => unknown;
}

export interface RenderOptions<T> {
  columns?: Column<T>[];
  /** Field printed by -q (default `id`). */
  idKey?: string;
}

export interface Output {
  readonly format: OutputFormat;
  readonly quiet: boolean;
  /** One resource: json prints the object itself; table prints `label  value` lines. */
  record<T extends object>(record: T, options?: RenderOptions<T>): Promise<void>;
  /** Many resources, written as they arrive (except the terminal table, which needs widths). Returns the count. */
  list<T extends object>(
    rows: Iterable<T> | AsyncIterable<T>,
    options: RenderOptions<T> & { columns: Column<T>[] },
  ): Promise<number>;
  /** Success chatter: stderr, only on a terminal, silenced by -q. */
  message(text: string): void;
  /** Always shown on stderr as `warning: ...`. */
  warn(text: string): void;
}

/** A terminal table cell longer than this is cut with `…`; piped output is never cut. */
const MAX_CELL_WIDTH = 60;

export function createOutput(io: IOStreams, options: { format: OutputFormat; quiet: boolean }): Output {
  const { format, quiet } = options;
  // chalk is loaded only when colour is actually on (a terminal without NO_COLOR / --no-color).
  let boldLoader: Promise<(text: string) => string> | undefined;
  const bold = () =>
    (boldLoader ??= io.colorEnabled
      ? import('chalk').then(({ Chalk }) => {
          const chalk = new Chalk({ level: 1 });
          return (text: string) => chalk.bold(text);
        })
      : Promise.resolve((text: string) => text));
  const terminalTable = format === 'table' && io.isStdoutTTY;

  return {
    format,
    quiet,

    async record(record, opts = {}) {
      const columns = opts.columns ?? columnsOf(record);
      if (quiet) return printId(io, record, opts.idKey);
      if (format === 'json') return io.out(JSON.stringify(record, null, 2) + '\n');
      if (format === 'ndjson') return io.out(JSON.stringify(record) + '\n');
      if (format === 'csv') return io.out(csvLine(columns.map((c) => c.key)) + csvLine(columns.map((c) => cellText(valueOf(record, c)))));
      if (!terminalTable) {
        // gh style when piped: `key<TAB>value`, one field a line, easy to cut/grep.
        for (const c of columns) io.out(`${c.key}\t${plainCell(valueOf(record, c))}\n`);
        return;
      }
      const width = Math.max(...columns.map((c) => c.header.length));
      const label = await bold();
      for (const c of columns) {
        io.out(`${label(c.header.padEnd(width))}  ${truncate(oneLine(cellText(valueOf(record, c))))}\n`);
      }
    },

    async list(rows, opts) {
      const { columns } = opts;
      let count = 0;
      if (terminalTable && !quiet) {
        const buffered: string[][] = [];
        for await (const row of rows) {
          buffered.push(columns.map((c) => truncate(oneLine(cellText(valueOf(row, c))))));
          count++;
        }
        const label = await bold();
        if (count > 0) io.out(await renderTable(columns.map((c) => label(c.header)), buffered));
        return count;
      }
      if (format === 'json' && !quiet) io.out('[');
      if (format === 'csv' && !quiet) io.out(csvLine(columns.map((c) => c.key)));
      for await (const row of rows) {
        if (quiet) printId(io, row, opts.idKey);
        else if (format === 'json') io.out((count === 0 ? '\n  ' : ',\n  ') + JSON.stringify(row, null, 2).replace(/\n/g, '\n  '));
        else if (format === 'ndjson') io.out(JSON.stringify(row) + '\n');
        else if (format === 'csv') io.out(csvLine(columns.map((c) => cellText(valueOf(row, c)))));
        else io.out(columns.map((c) => plainCell(valueOf(row, c))).join('\t') + '\n');
        count++;
      }
      // Same bytes as JSON.stringify(rows, null, 2). If a page fails midway the array stays
      // unterminated on purpose: a parser must fail rather than take a partial list as whole.
      if (format === 'json' && !quiet) io.out(count === 0 ? ']\n' : '\n]\n');
      return count;
    },

    message(text) {
      if (!quiet && io.isStderrTTY) io.err(text + '\n');
    },

    warn(text) {
      io.err(`warning: ${text}\n`);
    },
  };
}

function columnsOf<T extends object>(record: T): Column<T>[] {
  return Object.keys(record).map((key) => ({ key, header: key }));
}

function valueOf<T>(row: T, column: Column<T>): unknown {
  if (column.get) return column.get(row);
  let value: unknown = row;
  for (const part of column.key.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function printId(io: IOStreams, row: object, idKey = 'id'): void {
  const id = (row as Record<string, unknown>)[idKey];
  if (id !== undefined && id !== null) io.out(`${cellText(id)}\n`);
}

/** Text of one value: nested objects and arrays JSON-encoded, null/undefined empty. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A piped table row is split on tabs and lines, so neither may appear inside a cell. */
function plainCell(value: unknown): string {
  return cellText(value).replace(/[\t\r\n]+/g, ' ');
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}

function truncate(text: string): string {
  return text.length > MAX_CELL_WIDTH ? text.slice(0, MAX_CELL_WIDTH - 1) + '…' : text;
}

/** RFC 4180 quoting: a field with a comma, quote or line break is quoted, quotes doubled. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvLine(fields: string[]): string {
  return fields.map(csvField).join(',') + '\n';
}

async function renderTable(head: string[], rows: string[][]): Promise<string> {
  // cli-table3 (and its string-width dependency) only matters on a terminal.
  const { default: Table } = await import('cli-table3');
  const none = '';
  const table = new Table({
    head,
    chars: {
      top: none, 'top-mid': none, 'top-left': none, 'top-right': none,
      bottom: none, 'bottom-mid': none, 'bottom-left': none, 'bottom-right': none,
      left: none, 'left-mid': none, mid: none, 'mid-mid': none, right: none, 'right-mid': none,
      middle: '  ',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  table.push(...rows);
  return table.toString().split('\n').map((line) => line.trimEnd()).join('\n') + '\n';
}
