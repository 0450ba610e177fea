/**
 * A number cell's text from its value and format code, as LibreOffice shows it (the whole corpus is
 * compared with LibreOffice itself in test/e2e/number-formats-libreoffice.test.ts): the formats
 * that were read wrong, the digits rule, and what is refused, naming the format.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { displayNumber, NumberFormatError } from '../../../src/formats/xlsx/number-format.js';
import { WorkbookError } from '../../../src/formats/workbook-error.js';
import { openWorkbook } from '../../../src/formats/xlsx/sheet-reader.js';
import { writeExcelLike } from './excel-like.js';
import { seededRandom } from '../../seeded-random.js';

const shows = (value: number, code: string, date1904 = false) => displayNumber(value, code, date1904).text;

describe('a number cell reads as LibreOffice shows it', () => {
  it.each([
    [447911123458, '+00 0000 000000', '+44 7911 123458'],
    [-1234, '#,##0;-#,##0', '-1,234'],
    [-0.5, '0.00%;-0.00%', '-50.00%'],
    [215551234, '000-000-0000', '021-555-1234'],
    [215551234, '(000) 000-0000', '(021) 555-1234'],
    [123456789, '0.0,,"M"', '123.5M'],
    [0.5, '# ?/?', ' 1/2'],
    [5, '0#', '05'],
    [42, '"ID "General', 'ID 42'],
    [0, '0;-0;"zero"', 'zero'],
    [101, '[>100]"big";"small"', 'big'],
    [-3, '[Red]0;[Blue]-0', '-3'],
    [1234.5, '[$€-407] #,##0.00', '€ 1,234.50'],
    [-1234.5, '_("$"* #,##0.00_);_("$"* \\(#,##0.00\\);_("$"* "-"??_);_(@_)', ' $(1,234.50)'],
    [Math.PI, '# ??/??', '3 14/99'],
    [0.999, '# ??/??', '1      '],
    [3, '0.#', '3'],
    [5, '0_€', '5  '],
    [0.8, 'hh:mm A/P', '07:12 p'],
    [447911123458, 'General', '447911123458'],
    [9007199254740991, 'General', '9007199254740991'],
    [123.45678901234568, 'General', '123.456789012346'],
    [12345, '@', '12345'],
  ])('%s with format %s shows %j', (value, code, shown) => {
    expect(displayNumber(value, code, false)).toEqual({ text: shown });
  });

  it('dates and times as the format writes them, in either date system; LibreOffice has no 29 February 1900', () => {
    expect(shows(45622, 'yyyy-mm-dd')).toBe('2024-11-26');
    expect(shows(45622, 'd-mmm-yy')).toBe('26-Nov-24');
    expect(shows(45622, 'd-mmm-yy', true)).toBe('27-Nov-28');
    expect(shows(0, 'yyyy-mm-dd', true)).toBe('1904-01-01');
    expect(shows(60, 'yyyy-mm-dd')).toBe('1900-02-28');
    expect(shows(45622, '[$-40C]mmmm d yyyy')).toBe('novembre 26 2024');
    expect(shows(1.5, '[h]:mm:ss', true)).toBe('36:00:00');
    expect(shows(-1.25, '[h]:mm:ss')).toBe('-30:00:00');
    expect(shows(0.4375, 'h:mm AM/PM')).toBe('10:30 AM');
  });

  it('a boolean LibreOffice saved as a number reads true or false', () => {
    expect(shows(1, '"TRUE";"TRUE";"FALSE"')).toBe('true');
    expect(shows(0, '"TRUE";"TRUE";"FALSE"')).toBe('false');
  });
});

describe('the digits rule: a display that drops digits the cell holds is read in full', () => {
  it.each([
    [447911123458, '0.00E+00', { text: '447911123458', shown: '4.48E+11' }],
    [12345.678, '0.00E+00', { text: '12345.678', shown: '1.23E+04' }],
    [-98765, '0.00E+00;(0.00E+00)', { text: '(98765)', shown: '(9.88E+04)' }],
    [1e20, 'General', { text: '100000000000000000000', shown: '1E+020' }],
    [1.5e-10, 'General', { text: '0.00000000015', shown: '1.5E-10' }],
    [1e20, '"ID "General', { text: 'ID 100000000000000000000', shown: 'ID 1E+020' }],
  ])('%s with format %s', (value, code, read) => {
    expect(displayNumber(value, code, false)).toEqual(read);
  });

  it('a scientific display that holds every digit is read as shown', () => {
    expect(displayNumber(1500, '0.00E+00', false)).toEqual({ text: '1.50E+03' });
    expect(displayNumber(0.000123, '0.00E+00', false)).toEqual({ text: '1.23E-04' });
  });
});

describe('what cannot be shown is refused, naming the format', () => {
  it.each([
    ['0.00E', 'Illegal character'],
    ['"abc', 'Illegal character'],
    ['[Bogus]0', 'Illegal character'],
    ['0;0;0;0;0', 'Unexpected partition'],
    [`0.${'0'.repeat(101)}`, 'it asks for 102 digits: a spreadsheet shows a number in 100 characters at most'],
  ])('format %s', (code, why) => {
    const refusal = () => displayNumber(1, code, false);
    expect(refusal).toThrow(NumberFormatError);
    const quoted = code.length > 60 ? `${code.slice(0, 60)}…` : code;
    expect(refusal).toThrow(`its number format "${quoted}" cannot be rendered (${why}`);
  });

  it('a 22-zero format is shown with its zeros', () => {
    expect(shows(1, '0'.repeat(22))).toBe(`${'0'.repeat(21)}1`);
  });

  it.each([
    [35_000_000, 'yyyy-mm-dd'],
    [-700_000, 'yyyy-mm-dd'],
    [11_274_306, 'yyyy-mm-dd', true],
    [50_000, '[h]:mm:ss'],
  ])('%s with format %s (a spreadsheet shows #FMT)', (value, code, date1904 = false) => {
    expect(() => displayNumber(value, code, date1904)).toThrow(
      `it holds ${value}, which its number format "${code}" cannot show (a spreadsheet shows #FMT or ###)`,
    );
  });

  const dir = mkdtempSync(join(tmpdir(), 'wsm-number-format-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a workbook holding such a cell is refused by the reader, naming the file, the cell and the format', async () => {
    const path = join(dir, 'bad-format.xlsx');
    await writeExcelLike(path, [{ name: 'Sheet1', rows: { 1: ['number'], 2: [{ number: 5 }], 3: [{ number: 7, format: '0.00E' }] } }]);
    const workbook = await openWorkbook(path);
    const read = async () => {
      for await (const _ of workbook.rows());
    };
    await expect(read()).rejects.toThrow(WorkbookError);
    await expect(read()).rejects.toThrow(
      `${path} (cell A3 of sheet "Sheet1"): its number format "0.00E" cannot be rendered (Illegal character: 0.00E): format the column as text or General, then import again`,
    );
    await workbook.close();
  });
});

describe('any format code and any value', () => {
  const random = seededRandom;
  const PIECES = [
    '0',
    '#',
    '?',
    '.',
    ',',
    ';',
    '%',
    'E+',
    'E-',
    '/',
    '"x"',
    '"',
    '\\',
    '_',
    '*',
    '@',
    'General',
    'y',
    'm',
    'd',
    'h',
    's',
    'AM/PM',
    'A/P',
    '[h]',
    '[Red]',
    '[>5]',
    '[$€-407]',
    '[',
    ']',
    ' ',
    '-',
    '+',
    '(',
    ')',
  ];
  const VALUES = [0, -0, 1, -1, 0.5, -2.75, 447911123458, 1e20, -1e-10, 45622.4375, 2958465, 1e308, 5e-324];

  it('renders or is refused as a NumberFormatError: never another error', () => {
    const next = random(41);
    const other: string[] = [];
    for (let n = 0; n < 3000; n++) {
      const code = Array.from({ length: 1 + Math.floor(next() * 8) }, () => PIECES[Math.floor(next() * PIECES.length)]).join('');
      for (const value of VALUES) {
        try {
          expect(typeof displayNumber(value, code, next() < 0.5).text).toBe('string');
        } catch (error) {
          if (!(error instanceof NumberFormatError)) other.push(`${JSON.stringify(code)} ${value}: ${(error as Error).message}`);
        }
      }
    }
    expect(other).toEqual([]);
  });
});
