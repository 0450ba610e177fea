// One renderer for every command's data: table | json | ndjson | csv, ids with -q, and the
// `--json <fields>` / `--jq <expr>` selections. Data goes to stdout; chatter goes to stderr.
// Whatever reaches a terminal has its control characters made visible (text.ts).
import { paint } from './color.js';
import { didYouMean } from './similar.js';
import type { IOStreams } from './io.js';
import { withTarget, type Target } from './suggest.js';
import { UsageError } from './errors.js';
import { type Column, columnsOf, type RenderOptions, toneFor, valueOf } from './columns.js';
import { isStatusKey, isTimeKey, relativeTime } from './present.js';
import { paintFor, renderRecord, renderTable, type TableCell, type TableLayout } from './table.js';
import { cellText, csvCell, jsonText, visible, visibleLine, wrap } from './text.js';

/** `xlsx` is written by `contacts export` alone (a verb declares it: VerbSpec.writesXlsx). */
export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'xlsx'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface OutputOptions {
  format: OutputFormat;
  quiet: boolean;
  /** `--json a,b`: print JSON holding only these fields. */
  fields?: string[];
  /** `--jq <expr>`: filter the JSON with jq and print its results. */
  jq?: string;
  now?: () => Date;
  /** The --profile, --base-url and -w given: every `wsm …` a message suggests keeps them (suggest.ts). */
  target?: Target;
}

export interface Output {
  readonly format: OutputFormat;
  readonly quiet: boolean;
  /** --json or --jq asked for JSON: the command's data is printed as selected JSON. */
  readonly selecting: boolean;
  /** -o json or ndjson: a command with a form for people and one for scripts (a plan, a report) prints the second, with json(). */
  readonly structured: boolean;
  /** One resource: json prints the object itself; table prints `label  value` lines. */
  record<T extends object>(record: T, options?: RenderOptions<T>): Promise<void>;
  /** Many resources, written as they arrive (except the terminal table and --jq, which need them all). Returns the count. */
  list<T extends object>(rows: Iterable<T> | AsyncIterable<T>, options: RenderOptions<T> & { columns: Column<T>[] }): Promise<number>;
  /**
   * A full walk's pages as they arrive (export, --all), one write a page: the bytes list() gives
   * their rows. `csvWithoutFormat`: with no -o, CSV (the export's file) rather than a table.
   */
  pages<T extends object>(
    pages: AsyncIterable<T[]>,
    options: RenderOptions<T> & { columns: Column<T>[]; csvWithoutFormat?: boolean },
  ): Promise<number>;
  /** A document as the command has it (a plan, a report, the server's answer) as JSON on stdout: indented with -o json (or `indent`), else one line. */
  json(value: unknown, indent?: boolean): void;
  /** Text composed for people (a plan, a report's lines, a pulled file) on stdout as it is: quoted, made visible and painted by its command. */
  text(text: string): void;
  /** Resolved once stdout takes more: a document written in pieces waits here between them. */
  drained(): Promise<void>;
  /** Success chatter: stderr, only on a terminal, silenced by -q. */
  message(text: string): void;
  /** What a log must keep (an id the server assigned): stderr whether or not it is a terminal; silenced by -q. */
  notice(text: string): void;
  /**
   * What a command changed, in one line, as gh says it: `✓ deleted label 4` on stderr, on a
   * terminal or not (a script's log keeps it); silenced by -q. Every mutating verb says it here.
   */
  done(text: string): void;
  /** Always shown on stderr as `warning: ...`. */
  warn(text: string): void;
}

const DONE_MARK = '✓';

export function createOutput(io: IOStreams, options: OutputOptions): Output {
  const { format, quiet } = options;
  const now = options.now ?? (() => new Date());
  const selecting = options.fields !== undefined || options.jq !== undefined;
  const terminalTable = format === 'table' && io.isStdoutTTY;
  const asNdjson = format === 'ndjson';

  const layout = async (): Promise<TableLayout> => {
    // string-width (and chalk, when colour is on) only matter on a terminal.
    const { default: stringWidth } = await import('string-width');
    return { width: io.columns ?? 80, widthOf: (text) => stringWidth(text), paint: paintFor(io.colorEnabled) };
  };

  // On a terminal, chatter wraps at its width like the tables (words stay whole); in a log it is one line.
  const chatter = (line: string) => {
    const text = withTarget(line, options.target);
    return (io.isStderrTTY ? wrap(text, io.stderrColumns ?? 80, (t) => t.length).join('\n') : text) + '\n';
  };

  let checkedFields = false;
  const select = (record: object): Record<string, unknown> => {
    const fields = options.fields!;
    const source = record as Record<string, unknown>;
    if (!checkedFields) {
      // Commands that know their record's fields check --json before sending; this catches the rest.
      const unknown = fields.filter((f) => !(f in source));
      if (unknown.length > 0) throw unknownFieldsError(unknown, Object.keys(source));
      checkedFields = true;
    }
    return Object.fromEntries(fields.map((f) => [f, source[f] ?? null]));
  };
  const selected = (record: object) => (options.fields ? select(record) : record);
  // Strings come out raw (like jq -r): on a terminal each line is made visible on its own.
  const writeJq = (text: string) => io.out(io.isStdoutTTY ? text.split('\n').map(visible).join('\n') : text);
  const printJq = async (value: unknown) => {
    const { runJq } = await import('./jq.js');
    writeJq(await runJq(value, options.jq!, { pretty: io.isStdoutTTY }));
  };

  // Nothing written is nothing said: handleError's -o json error object looks at what reached stdout.
  const write = (text: string) => {
    if (text !== '') io.out(text);
  };
  /** The text of a list written as its rows come (everything but the terminal table and --jq), in format `as`. */
  const piped = <T extends object>(columns: Column<T>[], idKey: string | undefined, as: OutputFormat) => {
    const json = as === 'json' || (options.fields !== undefined && as !== 'ndjson');
    const ndjson = as === 'ndjson';
    let count = 0;
    const row = (record: T): string => {
      const first = count++ === 0;
      if (selecting && json) return (first ? '\n  ' : ',\n  ') + jsonText(selected(record), true).replace(/\n/g, '\n  ');
      if (selecting && ndjson) return jsonText(selected(record), false) + '\n';
      if (quiet) return idLine(record, idKey);
      if (json) return (first ? '\n  ' : ',\n  ') + jsonText(record, true).replace(/\n/g, '\n  ');
      if (ndjson) return jsonText(record, false) + '\n';
      if (as === 'csv')
        return csvLine(
          columns.map((c) => valueOf(record, c)),
          io,
        );
      return columns.map((c) => visibleLine(cellText(valueOf(record, c)))).join('\t') + '\n';
    };
    const bracketed = json && (!quiet || selecting);
    return {
      start: bracketed
        ? '['
        : as === 'csv' && !quiet && !selecting
          ? csvLine(
              columns.map((c) => c.key),
              io,
            )
          : '',
      row,
      // Same bytes as JSON.stringify(rows, null, 2). If a page fails midway the array stays
      // unterminated on purpose: a parser must fail rather than take a partial list as whole.
      end: () => (bracketed ? (count === 0 ? ']\n' : '\n]\n') : ''),
      count: () => count,
    };
  };

  return {
    format,
    quiet,
    selecting,
    structured: format === 'json' || format === 'ndjson',

    async record(record, opts = {}) {
      if (options.jq !== undefined) return printJq(selected(record));
      if (options.fields) return io.out(jsonText(select(record), !asNdjson) + '\n');
      const columns = opts.columns ?? columnsOf(record);
      if (quiet) return io.out(idLine(record, opts.idKey));
      if (format === 'json') return io.out(jsonText(record, true) + '\n');
      if (format === 'ndjson') return io.out(jsonText(record, false) + '\n');
      // The header's keys, then the record's values.
      if (format === 'csv')
        return io.out([columns.map((c) => c.key), columns.map((c) => valueOf(record, c))].map((values) => csvLine(values, io)).join(''));
      if (!terminalTable) {
        // gh style when piped: `key<TAB>value`, one field a line, easy to cut/grep.
        for (const c of columns) io.out(`${c.key}\t${visibleLine(cellText(valueOf(record, c)))}\n`);
        return;
      }
      const at = now();
      const cells = columns.map((c): TableCell => {
        const value = valueOf(record, c);
        let text = cellText(c.show ? c.show(record) : value);
        if (isTimeKey(c.key) && typeof value === 'string' && text !== '') text = `${text} (${relativeTime(text, at)})`;
        // Values keep their own line breaks here: each line is made visible on its own.
        return {
          text: text
            .split(/\r\n|[\r\n]/)
            .map(visible)
            .join('\n'),
          tone: toneFor(c, value),
        };
      });
      io.out(
        renderRecord(
          columns.map((c) => c.header),
          cells,
          await layout(),
        ),
      );
    },

    async list(rows, opts) {
      const { columns } = opts;
      let count = 0;
      if (options.jq !== undefined) {
        const { runJqOverList } = await import('./jq-list.js');
        const chosen = (async function* () {
          for await (const row of rows) yield selected(row);
        })();
        return runJqOverList(chosen, options.jq, { pretty: io.isStdoutTTY, write: (text) => text !== '' && writeJq(text) });
      }
      if (terminalTable && !quiet && !selecting) {
        const at = now();
        const buffered: TableCell[][] = [];
        const numeric = columns.map(() => true);
        for await (const row of rows) {
          buffered.push(
            columns.map((c, i) => {
              const value = valueOf(row, c);
              if (typeof value !== 'number' && value !== null && value !== undefined) numeric[i] = false;
              const text = isTimeKey(c.key) && typeof value === 'string' ? relativeTime(value, at) : cellText(c.show ? c.show(row) : value);
              return { text: visibleLine(text), tone: toneFor(c, value) };
            }),
          );
          count++;
        }
        const table = columns.map((c, i) => ({
          header: c.header,
          whole: c.fixed === true || c.key === 'id' || c.key.endsWith('_id') || numeric[i] || isStatusKey(c.key),
          // A time says when; on a terminal too narrow for the rest it goes first.
          optional: isTimeKey(c.key),
        }));
        if (count > 0) io.out(renderTable(table, buffered, await layout()));
        return count;
      }
      const writer = piped(columns, opts.idKey, format);
      write(writer.start);
      for await (const row of rows) write(writer.row(row));
      write(writer.end());
      return writer.count();
    },

    async pages(pages, opts) {
      const { columns } = opts;
      const as = opts.csvWithoutFormat && format === 'table' ? 'csv' : format;
      if (options.jq !== undefined || (as === 'table' && terminalTable && !quiet && !selecting)) {
        return this.list(
          (async function* () {
            for await (const page of pages) yield* page;
          })(),
          opts,
        );
      }
      const writer = piped(columns, opts.idKey, as);
      write(writer.start);
      // One write a page: a million small writes to stdout cost more than the rows themselves.
      for await (const page of pages) write(page.map(writer.row).join(''));
      write(writer.end());
      return writer.count();
    },

    json(value, indent = format === 'json') {
      io.out(jsonText(value, indent) + '\n');
    },

    text: write,
    drained: () => io.outDrained(),

    message(text) {
      if (!quiet && io.isStderrTTY) io.err(chatter(visible(text)));
    },

    notice(text) {
      if (!quiet) io.err(chatter(visible(text)));
    },

    warn(text) {
      io.err(chatter(`warning: ${visible(text)}`));
    },

    done(text) {
      // The mark is painted after wrapping, so its escape codes never count as width.
      if (!quiet) io.err(chatter(`${DONE_MARK} ${visible(text)}`).replace(DONE_MARK, paint(io.stderrColorEnabled, 'green', DONE_MARK)));
    },
  };
}

/** `--json` named fields the records do not have: exit 2, each with the field it may have meant, listing the ones there are. */
export function unknownFieldsError(unknown: string[], available: string[]): UsageError {
  const names = unknown.map((f) => `"${f}"${didYouMean(f, available)}`).join(', ');
  return new UsageError(`unknown field${unknown.length === 1 ? '' : 's'} ${names} for --json; available: ${available.join(', ')}`);
}

/** A row's id and a line break (-q); nothing for a row without one. */
function idLine(row: object, idKey = 'id'): string {
  const id = (row as Record<string, unknown>)[idKey];
  return id !== undefined && id !== null ? `${visibleLine(cellText(id))}\n` : '';
}

function csvLine(values: unknown[], io: IOStreams): string {
  return values.map((v) => csvCell(v, io.isStdoutTTY)).join(',') + '\n';
}
