// The one CSV reader (src/formats/csv/reader.ts): every well-formed RFC 4180 file is read exactly as
// csv-parse reads it (a differential property test over generated files), line numbers are the
// file's, and a broken record costs its own line only.
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvTokenizer, CSV_MESSAGES, MAX_QUOTED_CHARS, tokenizeCsv, type CsvToken } from '../../src/formats/csv/reader.js';

const LINE_ENDS = ['\n', '\r\n', '\r'] as const;

/** Characters a cell is made of: separators, quotes, every line end, spaces, tabs, emoji, marks, RTL. */
const cellChar = fc.constantFrom(
  'a',
  'B',
  ' ',
  '\t',
  ',',
  ';',
  '"',
  '\n',
  '\r',
  '=',
  '+',
  '-',
  '@',
  "'",
  'é',
  'e\u0301',
  '😀',
  'שלום',
  '\u200f',
  '\u00a0',
  'x',
);
const cellText = fc.array(cellChar, { maxLength: 8 }).map((parts) => parts.join(''));

/** A well-formed file: its records, the separator, each record's line end, and whether cells are quoted. */
const wellFormed = fc
  .record({
    separator: fc.constantFrom(',', ';', '\t'),
    records: fc.array(fc.array(fc.record({ text: cellText, quoted: fc.boolean() }), { minLength: 1, maxLength: 5 }), {
      minLength: 1,
      maxLength: 8,
    }),
    ends: fc.array(fc.constantFrom(...LINE_ENDS), { minLength: 8, maxLength: 8 }),
    finalEnd: fc.boolean(),
  })
  .map(({ separator, records, ends, finalEnd }) => {
    // A cell that holds a separator, quote, line end, or is empty in a one-cell record, must be quoted.
    const needsQuotes = (text: string, alone: boolean) => /["\r\n]/.test(text) || text.includes(separator) || (alone && text === '');
    const cells = records.map((record) =>
      record.map((cell) => ({ ...cell, quoted: cell.quoted || needsQuotes(cell.text, record.length === 1) })),
    );
    const text = cells
      .map(
        (record, i) =>
          record.map((c) => (c.quoted ? `"${c.text.replaceAll('"', '""')}"` : c.text)).join(separator) +
          (i < cells.length - 1 || finalEnd ? ends[i] : ''),
      )
      .join('');
    return { separator, text, records: cells.map((record) => record.map((c) => c.text)) };
  });

/** The line each record starts on, counted independently: line ends outside quotes and inside, CRLF once. */
function startLines(text: string, separator: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let quoted = false;
  let atStart = true;
  for (let i = 0; i < text.length; i++) {
    if (atStart) lines.push(line), (atStart = false);
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      line++;
      if (!quoted) atStart = true;
    }
  }
  void separator;
  return lines;
}

const records = (tokens: CsvToken[]) => tokens.map((t) => (t.kind === 'record' ? t.cells : `error@${t.line}: ${t.message}`));

/** Feeds `text` in pieces cut at `cuts` (a CRLF or a doubled quote may be cut in two). */
function tokenizeInPieces(text: string, separator: string, cuts: number[]): CsvToken[] {
  const tokenizer = new CsvTokenizer(separator);
  const out: CsvToken[] = [];
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const point of points) {
    tokenizer.push(text.slice(from, point), false, out);
    from = point;
  }
  tokenizer.push(text.slice(from), true, out);
  return out;
}

describe('the CSV reader against csv-parse', () => {
  const csvParse = (text: string, separator: string) =>
    parse(text, { delimiter: separator, record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true, bom: true }) as string[][];

  it('reads every well-formed RFC 4180 file exactly as csv-parse does, whatever the separator and line ends', () => {
    fc.assert(
      fc.property(wellFormed, ({ separator, text, records: written }) => {
        const ours = records(tokenizeCsv(text, separator));
        expect(ours).toEqual(csvParse(text, separator));
        expect(ours).toEqual(written);
      }),
      { numRuns: 1500 },
    );
  });

  it('gives each record the line it starts on, and reads the same when the text arrives in pieces', () => {
    fc.assert(
      fc.property(wellFormed, fc.array(fc.nat(), { maxLength: 6 }), ({ separator, text }, cuts) => {
        const whole = tokenizeCsv(text, separator);
        expect(whole.map((t) => t.line)).toEqual(startLines(text, separator));
        expect(tokenizeInPieces(text, separator, cuts)).toEqual(whole);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('broken records cost their own line', () => {
  const lines = (text: string) =>
    tokenizeCsv(text).map((t) => (t.kind === 'record' ? `${t.line}: ${t.cells.join('|')}` : `${t.line}! ${t.message}`));

  it('a quote that never closes is reported on its line, and the rows after it are read', () => {
    expect(lines('number,name\n1,"Ann\n2,Bob\n3,Cy\n')).toEqual(['1: number|name', `2! ${CSV_MESSAGES.unclosed}`, '3: 2|Bob', '4: 3|Cy']);
  });

  it('a quote closed too far away (beyond 64 KiB) is not a value: the rows in between are read', () => {
    const rows = Array.from({ length: 4000 }, (_, i) => `${1000000 + i},Person ${i}`);
    const text = `number,name\n1,"Ann\n${rows.join('\n')}\n2,Lee"\n3,Cy\n`;
    expect(text.length).toBeGreaterThan(MAX_QUOTED_CHARS);
    const out = lines(text);
    expect(out.slice(0, 3)).toEqual(['1: number|name', `2! ${CSV_MESSAGES.unclosed}`, '3: 1000000|Person 0']);
    expect(out).toContain('4002: 1003999|Person 3999');
    expect(out.at(-1)).toBe('4004: 3|Cy');
  });

  it('a value closed within the bound keeps its line breaks, however they are written', () => {
    expect(lines('n,note\r\n1,"a\r\nb\rc\nd"\r\n2,e')).toEqual(['1: n|note', '2: 1|a\r\nb\rc\nd', '6: 2|e']);
  });

  it('text after a closing quote and a quote inside an unquoted value are errors of their line', () => {
    expect(lines('a,b\n1,"x"y\n2,z"w\n3,ok\n')).toEqual([
      '1: a|b',
      `2! ${CSV_MESSAGES.afterQuote}`,
      `3! ${CSV_MESSAGES.strayQuote}`,
      '4: 3|ok',
    ]);
  });

  it('a quote pairing across lines that does not read as a value costs the first line only', () => {
    // Line 2 opens a value; line 3's quotes cannot close it into a record, so line 3 is read again on its own.
    expect(lines('a,b\n1,"Ann\n2,"Bob"\n3,Cy\n')).toEqual(['1: a|b', `2! ${CSV_MESSAGES.afterQuote}`, '3: 2|Bob', '4: 3|Cy']);
  });

  it('a line too long to be a row is reported, and the next is read, also when it arrives in pieces', () => {
    const long = 'x'.repeat(2 * 1024 * 1024);
    const text = `a,b\n1,${long}\n2,ok\n`;
    const expected = ['1: a|b', `2! ${CSV_MESSAGES.tooLong}`, '3: 2|ok'];
    expect(lines(text)).toEqual(expected);
    const pieces = tokenizeInPieces(text, ',', [10, 70_000, 1_200_000, 2_000_000]);
    expect(pieces.map((t) => (t.kind === 'record' ? `${t.line}: ${t.cells.join('|')}` : `${t.line}! ${t.message}`))).toEqual(expected);
  });
});
