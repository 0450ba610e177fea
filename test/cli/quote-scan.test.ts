/**
 * The scan of an import file's quotes (imports/open-quote.ts quoteScan) as the encoding check feeds
 * it: it must clear exactly the texts wsm's own reader reads without a quote that is misplaced or
 * never closes, and give the same verdict however the text is cut into chunks (a quote last in a
 * chunk is decided by the next one's first character; a quote first in a chunk by the last one's).
 */
import { describe, expect, it } from 'vitest';
import { quoteScan } from '../../src/commands/imports/open-quote.js';
import { CSV_MESSAGES, MAX_QUOTED_CHARS, tokenizeCsv } from '../../src/formats/csv/reader.js';
import { seededRandom } from '../seeded-random.js';

const QUOTE_ERRORS = new Set<string>([CSV_MESSAGES.strayQuote, CSV_MESSAGES.afterQuote, CSV_MESSAGES.unclosed]);

/** What wsm's reader says: whether some row holds a quote it cannot read, and whether the quotes are odd in number. */
function readerVerdict(text: string) {
  const misread = tokenizeCsv(text).some((token) => token.kind === 'error' && QUOTE_ERRORS.has(token.message));
  const odd = (text.split('"').length - 1) % 2 === 1;
  return { clear: !misread && !odd, odd };
}

/** The scan's verdict on `text` fed in the pieces the cut points make. */
function scanVerdict(text: string, cuts: number[] = []) {
  const fed: string[] = [];
  const scan = quoteScan((piece) => fed.push(piece));
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    scan.feed(text.slice(from, cut));
    from = cut;
  }
  expect(fed.join('')).toBe(text);
  return { clear: scan.clear, odd: scan.odd };
}

const TEXTS: Record<string, string> = {
  'a quote inside an unquoted value, the quotes even in number': 'number,name\n+351920000061,Ann "Lee" Smith\n+351920000062,Bob\n',
  'text after a closing quote': 'number,name\n+351920000061,"Ann" Lee\n+351920000062,Bob\n',
  'a doubled quote inside an unquoted value': 'number,name\n+351920000061,Ann ""Lee""\n+351920000062,Bob\n',
  'a quote that never closes': 'number,name\n+351920000061,"Ann\n+351920000062,Bob\n',
  'a lone quote inside a value': 'number,name\n+351920000061,Ma"x\n',
  'doubled quotes inside quoted values, on several lines':
    'number,name,city\n1,"Ann ""Lee"" Smith","Porto\r\nNorte"\r2,"""",""\n3,"a,b",\n',
  'a quoted value last in the file, no line end after it': 'number,name\n1,"Ann ""A"""',
  'a quoted value right after a CR': 'number,name\r"1",Ann\r"2",""',
  'a quote at the start of the file': '"number",name\n1,Ann\n',
};

describe('the scan of an import file’s quotes', () => {
  for (const [name, text] of Object.entries(TEXTS))
    it(`${name}: the verdict of wsm's reader, at every cut into two and three chunks`, () => {
      const whole = scanVerdict(text);
      expect(whole).toEqual(readerVerdict(text));
      for (let cut = 0; cut <= text.length; cut++) {
        expect(scanVerdict(text, [cut]), `cut at ${cut}`).toEqual(whole);
        for (let second = cut; second <= text.length; second++)
          expect(scanVerdict(text, [cut, second]), `cut at ${cut} and ${second}`).toEqual(whole);
      }
    });

  it('clears the well-formed texts and refuses the others, as named', () => {
    const cleared = Object.entries(TEXTS)
      .filter(([, text]) => scanVerdict(text).clear)
      .map(([name]) => name);
    expect(cleared).toEqual([
      'doubled quotes inside quoted values, on several lines',
      'a quoted value last in the file, no line end after it',
      'a quoted value right after a CR',
      'a quote at the start of the file',
    ]);
  });

  it('gives the verdict of wsm’s reader on generated texts of quotes, commas, line ends and letters, however cut', () => {
    const random = seededRandom(42);
    const alphabet = ['"', '"', '"', ',', '\n', '\r', 'a'];
    for (let n = 0; n < 3000; n++) {
      let text = '';
      const length = 1 + Math.floor(random() * 12);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      const whole = scanVerdict(text);
      expect(whole, JSON.stringify(text)).toEqual(readerVerdict(text));
      for (let cut = 0; cut <= text.length; cut++) expect(scanVerdict(text, [cut]), `${JSON.stringify(text)} cut at ${cut}`).toEqual(whole);
    }
  });

  it('does not clear a quoted value longer than the reader takes, though it closes', () => {
    const text = `number,name\n1,"${'x'.repeat(MAX_QUOTED_CHARS + 1)}"\n2,Bob\n`;
    expect(readerVerdict(text).clear).toBe(false);
    expect(scanVerdict(text)).toEqual({ clear: false, odd: false });
    expect(scanVerdict(text, [20, 40_000])).toEqual({ clear: false, odd: false });
  });
});
