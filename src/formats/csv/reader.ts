/**
 * The one CSV reader (RFC 4180) of every file wsm reads: import files on the server and in the
 * CLI's check, and `contacts update|delete --from`. It is fed decoded text in chunks and gives
 * back records with the line each starts on.
 *
 * - A quoted cell may hold the separator, doubled quotes and line breaks (LF, CRLF or CR).
 * - Outside quotes, CRLF, LF and CR each end a record, in any mix (a CRLF split between two
 *   chunks too): every line end is recognised, none is detected once per file.
 * - An empty line is a record of one empty cell, as csv-parse reads it (the caller decides
 *   what a blank record means).
 * - A record that cannot be read (a quote inside an unquoted cell, text after a closing quote, a
 *   quote that never closes) is reported on the line it starts on, and reading starts again on
 *   the line after that one: a broken record costs its own line, never the rows after it. A
 *   quoted cell is bounded: one not closed within MAX_QUOTED_CHARS (or by the end of the file)
 *   is reported so, and so is a record longer than MAX_RECORD_CHARS.
 *
 * Every well-formed file is read exactly as csv-parse reads it with `record_delimiter` set to
 * CRLF, LF and CR (test/formats/csv-reader.test.ts compares the two on generated files).
 */

/** A quoted cell spans at most this many characters (64 KiB): a quote left open costs no more. */
export const MAX_QUOTED_CHARS = 64 * 1024;
/** A record beyond this many characters (1 MiB) is a broken file, not a contact. */
export const MAX_RECORD_CHARS = 1024 * 1024;

/**
 * `line`: the file's line the record starts on (the header is line 1). `row`: the record's place
 * among the file's records, blank ones included (the header is row 1): the row number a
 * spreadsheet shows for it, which differs from `line` once a quoted value holds line breaks.
 */
export type CsvToken =
  | { kind: 'record'; cells: string[]; line: number; row: number }
  | { kind: 'error'; line: number; row: number; message: string };

export const CSV_MESSAGES = {
  strayQuote: 'The row has a quote inside a value that does not start with one.',
  afterQuote: 'The row has text after the closing quote of a value.',
  unclosed: `The row has a quoted value that is not closed (within ${MAX_QUOTED_CHARS / 1024} KiB or by the end of the file).`,
  tooLong: 'The row is too long.',
} as const;

const LF = '\n';
const CR = '\r';
const QUOTE = '"';
/** parseQuoted could not finish the record with the text it has: more is needed. */
const MORE = null;

interface Parsed {
  cells: string[];
  /** Where the next record starts. */
  next: number;
  /** Line ends inside the record's quoted cells. */
  breaks: number;
}
type Attempt = Parsed | { error: string } | typeof MORE;

/** Line ends in `text` (CRLF counts once). */
function lineBreaks(text: string): number {
  // Most quoted values hold none: two memchr-fast searches say so without a loop.
  if (text.indexOf(LF) < 0 && text.indexOf(CR) < 0) return 0;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) count += 1;
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) count += 1;
  }
  return count;
}

export class CsvTokenizer {
  private text = '';
  private line = 1;
  /** Records given out so far (the spreadsheet row of the last one). */
  private rows = 0;
  /** The last chunk ended with a CR that ended a record: an LF starting the next is its pair. */
  private pendingLf = false;
  /** Skipping the rest of a record too long to keep, begun on this line. */
  private skippingFrom: number | undefined;

  /** `separator`: one character (a comma, a semicolon, a tab). */
  constructor(readonly separator = ',') {}

  /** Feeds the next chunk of text (`end`: the last one) and appends the tokens it completes to `out`. */
  push(chunk: string, end: boolean, out: CsvToken[]): void {
    let text = this.text.length === 0 ? chunk : this.text + chunk;
    if (this.pendingLf && text.length > 0) {
      if (text.charCodeAt(0) === 10) text = text.slice(1);
      this.pendingLf = false;
    }
    if (this.skippingFrom !== undefined) {
      const at = this.nextLineStart(text, 0, end);
      if (at === undefined) {
        this.text = '';
        return;
      }
      out.push({ kind: 'error', line: this.skippingFrom, row: ++this.rows, message: CSV_MESSAGES.tooLong });
      this.line = this.skippingFrom + 1;
      this.skippingFrom = undefined;
      text = text.slice(at);
    }
    const sep = this.separator;
    const length = text.length;
    let pos = 0;
    // Positions of the next LF, CR and quote, each found once per reading position.
    let nextLf = text.indexOf(LF);
    let nextCr = text.indexOf(CR);
    let nextQuote = text.indexOf(QUOTE);
    while (pos < length) {
      if (nextLf >= 0 && nextLf < pos) nextLf = text.indexOf(LF, pos);
      if (nextCr >= 0 && nextCr < pos) nextCr = text.indexOf(CR, pos);
      if (nextQuote >= 0 && nextQuote < pos) nextQuote = text.indexOf(QUOTE, pos);
      const eol = nextCr < 0 || (nextLf >= 0 && nextLf < nextCr) ? nextLf : nextCr;
      if (nextQuote < 0 || (eol >= 0 && nextQuote > eol)) {
        // No quote on this line: its cells are the text between separators.
        if (eol < 0) {
          if (!end) break;
          if (length - pos > MAX_RECORD_CHARS)
            out.push({ kind: 'error', line: this.line, row: ++this.rows, message: CSV_MESSAGES.tooLong });
          else out.push({ kind: 'record', cells: text.slice(pos).split(sep), line: this.line, row: ++this.rows });
          pos = length;
          break;
        }
        if (eol - pos > MAX_RECORD_CHARS) out.push({ kind: 'error', line: this.line, row: ++this.rows, message: CSV_MESSAGES.tooLong });
        else out.push({ kind: 'record', cells: text.slice(pos, eol).split(sep), line: this.line, row: ++this.rows });
        this.line += 1;
        pos = this.afterLineEnd(text, eol, end);
        continue;
      }
      const attempt = this.parseQuoted(text, pos, end);
      if (attempt === MORE) break;
      if ('error' in attempt) {
        // Reported on its first line; reading goes on from the line after it.
        const at = this.nextLineStart(text, pos, end);
        if (at === undefined) break;
        out.push({ kind: 'error', line: this.line, row: ++this.rows, message: attempt.error });
        this.line += 1;
        pos = at;
        continue;
      }
      out.push({ kind: 'record', cells: attempt.cells, line: this.line, row: ++this.rows });
      this.line += 1 + attempt.breaks;
      pos = attempt.next;
    }
    this.text = pos >= length ? '' : text.slice(pos);
    if (!end && this.text.length > MAX_RECORD_CHARS) {
      // A record this long is not kept whole: the rest of its line is skipped as it arrives.
      const at = this.nextLineStart(this.text, 0, false);
      if (at === undefined) {
        this.skippingFrom = this.line;
        this.text = '';
      }
    }
  }

  /** The position after the line end at `eol` (CRLF taken whole, across chunks too). */
  private afterLineEnd(text: string, eol: number, end: boolean): number {
    if (text.charCodeAt(eol) === 13) {
      if (eol + 1 < text.length) return text.charCodeAt(eol + 1) === 10 ? eol + 2 : eol + 1;
      if (!end) this.pendingLf = true;
    }
    return eol + 1;
  }

  /** Where the line after the one holding `from` starts; undefined when that is not known yet. */
  private nextLineStart(text: string, from: number, end: boolean): number | undefined {
    const lf = text.indexOf(LF, from);
    const cr = text.indexOf(CR, from);
    const eol = cr < 0 || (lf >= 0 && lf < cr) ? lf : cr;
    if (eol < 0) return end ? text.length : undefined;
    return this.afterLineEnd(text, eol, end);
  }

  /** A record holding a quote, cell by cell from `start`. */
  private parseQuoted(text: string, start: number, end: boolean): Attempt {
    const sepCode = this.separator.charCodeAt(0);
    const length = text.length;
    const cells: string[] = [];
    let breaks = 0;
    let i = start;
    for (;;) {
      if (i - start > MAX_RECORD_CHARS) return { error: CSV_MESSAGES.tooLong };
      if (text.charCodeAt(i) === 34) {
        let value = '';
        let j = i + 1;
        for (;;) {
          const close = text.indexOf(QUOTE, j);
          if (close < 0 || close - i > MAX_QUOTED_CHARS) {
            if (!end && length - i <= MAX_QUOTED_CHARS) return MORE;
            return { error: CSV_MESSAGES.unclosed };
          }
          // A quote last in the text may be the first of a doubled pair.
          if (close + 1 === length && !end) return MORE;
          value += text.slice(j, close);
          if (text.charCodeAt(close + 1) === 34) {
            value += QUOTE;
            j = close + 2;
            continue;
          }
          i = close + 1;
          break;
        }
        breaks += lineBreaks(value);
        cells.push(value);
        if (i === length) return { cells, next: i, breaks }; // end is true here
        const c = text.charCodeAt(i);
        if (c === sepCode) {
          i += 1;
          continue;
        }
        if (c === 10 || c === 13) {
          if (c === 13 && i + 1 === length && !end) return MORE;
          return { cells, next: this.afterLineEnd(text, i, end), breaks };
        }
        return { error: CSV_MESSAGES.afterQuote };
      }
      // An unquoted cell: up to the next separator or line end.
      let stop = i;
      for (; stop < length; stop++) {
        const c = text.charCodeAt(stop);
        if (c === sepCode || c === 10 || c === 13) break;
        if (c === 34) return { error: CSV_MESSAGES.strayQuote };
      }
      if (stop === length && !end) return MORE;
      cells.push(text.slice(i, stop));
      if (stop === length) return { cells, next: stop, breaks };
      const c = text.charCodeAt(stop);
      if (c === sepCode) {
        i = stop + 1;
        continue;
      }
      if (c === 13 && stop + 1 === length && !end) return MORE;
      return { cells, next: this.afterLineEnd(text, stop, end), breaks };
    }
  }
}

/** Every token of CSV text held whole in memory. */
export function tokenizeCsv(text: string, separator = ','): CsvToken[] {
  const out: CsvToken[] = [];
  new CsvTokenizer(separator).push(text, true, out);
  return out;
}
