// What a spreadsheet does to a value it reads as a number and writes back: leading zeros dropped,
// scientific notation, digits past the 15th rounded to zeros, the number written in its own format
// (`1.50` as `1.5`, `1,000` as `1000`, `5%` as `5.00%`), a date or a time written in its own
// (`Jan 5` as `01/05/26`, `12:30` as `12:30:00 PM`); and to a cell's line breaks, which it
// saves as LF whatever they were (CRLF, CR). A plan holds such a change.
import { normalizeNumber } from '../../api/schemas/index.js';
import { isScientificNotation } from '../../formats/csv/cells.js';
import type { LiveContacts } from './plan.js';

const PADDED = /^0+\d+$/;
const LONG_DIGITS = /^\d{16,}$/;

/** A number as a spreadsheet reads one from text: a sign, a currency sign before or after it, commas between thousands, a decimal point, a percent sign. */
const NUMBER_TEXT = /^([-+]?)([$€£¥]?)\s?(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d*))?\s?([$€£¥]?)(%?)$/;

/** The number `text` holds, written as a General cell shows it, with its currency and percent signs apart; undefined for any other text. */
function numberOf(text: string): { value: string; unit: string } | undefined {
  const match = NUMBER_TEXT.exec(text.trim());
  if (match === null) return undefined;
  const [, sign, before, whole, fraction = '', after, percent] = match;
  if (!/\d/.test(whole + fraction) || (before !== '' && after !== '')) return undefined;
  const digits = whole.replaceAll(',', '').replace(/^0+/, '') || '0';
  const decimals = fraction.replace(/0+$/, '');
  const value = `${digits}${decimals === '' ? '' : `.${decimals}`}`;
  return { value: sign === '-' && value !== '0' ? `-${value}` : value, unit: `${before}${after}${percent}` };
}

/** A number a spreadsheet may write back otherwise (`1.50`, `1,000`, `+5`, `5%`, `$5`): not as a General cell shows it, or with a sign of its format. */
const reformattable = (text: string): boolean => {
  const number = numberOf(text);
  return number !== undefined && (number.unit !== '' || number.value !== text.trim());
};

/** Two texts holding one number, with the same currency and percent signs. */
function sameNumber(a: string, b: string): boolean {
  const [first, second] = [numberOf(a), numberOf(b)];
  return first !== undefined && second !== undefined && first.value === second.value && first.unit === second.unit;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = `(?:${MONTHS.join('|')})[a-z]*\\.?`;
/** Text a spreadsheet reads as a date or a time: `1/2`, `5-12`, `2024-01-05`, `Jan 5`, `5 Jan 2024`, `12:30`, `9:05 am`. */
const DATE_OR_TIME = new RegExp(
  `^(?:\\d{1,4}[/.-]\\d{1,2}(?:[/.-]\\d{1,4})?|${MONTH}\\s+\\d{1,2}(?:,?\\s+\\d{2,4})?|\\d{1,2}[\\s-]${MONTH}(?:[\\s-]\\d{2,4})?|\\d{1,2}:\\d{2}(?::\\d{2})?(?:\\s?[ap]m)?)$`,
  'i',
);
/** A date or a time as a spreadsheet writes one in its own format: `01/05/26`, `1/5/2026`, `05.01.26`, `12:30:00 PM`. */
const WRITTEN_DATE_OR_TIME = /^(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{1,2}:\d{2}:\d{2}(?:\s?[AP]M)?)$/i;

/** The numbers a date or time is written with, a month's name as its number, a year by its last two digits. */
function dateParts(text: string): number[] {
  const named = text.toLowerCase().replace(/[a-z]+/g, (word) => {
    const month = MONTHS.indexOf(word.slice(0, 3));
    return month < 0 ? ' ' : ` ${month + 1} `;
  });
  return (named.match(/\d+/g) ?? []).map((digits) => Number(digits) % 100);
}

/** `to` is the date or time `from` is, as a spreadsheet writes it back: each of `from`'s numbers among `to`'s. */
function sameDate(from: string, to: string): boolean {
  const left = dateParts(to);
  for (const part of dateParts(from)) {
    const at = left.indexOf(part);
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

/** A value a spreadsheet may damage when it is written over (zeros dropped, digits rounded, a number or a date reformatted, CRLF or CR made LF): the `from` side of spreadsheetDamage. */
export const damageable = (value: unknown): boolean =>
  typeof value === 'string' &&
  (PADDED.test(value) || LONG_DIGITS.test(value) || value.includes('\r') || reformattable(value) || DATE_OR_TIME.test(value.trim()));

/** A value a spreadsheet may have written: a number (its zeros, digits or format may be gone), scientific notation, a date or a time: the `to` side of spreadsheetDamage. */
export const spreadsheetWritten = (value: string): boolean =>
  numberOf(value) !== undefined || isScientificNotation(value) || WRITTEN_DATE_OR_TIME.test(value.trim());

/** Why changing `from` to `to` looks made by a spreadsheet, if it does; `stored`: `from` is the workspace's value. */
export function spreadsheetDamage(from: unknown, to: unknown, stored = true): string | undefined {
  if (typeof to !== 'string') return undefined;
  const before = typeof from === 'string' ? from : '';
  if (isScientificNotation(to) && !isScientificNotation(before))
    return `"${to}" is in scientific notation, as a spreadsheet writes a long number: its last digits may be lost`;
  if (PADDED.test(before) && to === (before.replace(/^0+/, '') || '0'))
    return `"${before}" would lose its leading zeros, as a spreadsheet drops them`;
  if (LONG_DIGITS.test(before) && before !== to && to === roundedTo15Digits(before))
    return `"${before}" would become "${to}": a spreadsheet keeps 15 significant digits of a number and rounds the rest to zeros`;
  if (stored && reformattable(before) && before.trim() !== to.trim() && sameNumber(before, to))
    return `"${before}" would become "${to}": the same number in another format, as a spreadsheet writes a number back`;
  if (stored && before !== to && DATE_OR_TIME.test(before.trim()) && WRITTEN_DATE_OR_TIME.test(to.trim()) && sameDate(before, to))
    return `"${before}" would become "${to}": the same date or time in another format, as a spreadsheet writes one back`;
  if (stored && before.includes('\r') && !to.includes('\r') && to === before.replace(/\r\n?/g, '\n'))
    return "only its line breaks differ (CRLF or CR stored, LF in the file), as a spreadsheet saves a cell's line breaks";
  return undefined;
}

/** A number cell a spreadsheet wrote as a decimal (a column formatted `0.00`): digits, a dot and only zeros. */
const DECIMAL_ZEROS = /^\d+\.0+$/;

/** Whether a number cell reads as a spreadsheet's decimal: `447911123458.00`, never a dotted number such as `415.555.0101`. */
export const spreadsheetDecimal = (cell: string): boolean => DECIMAL_ZEROS.test(cell.trim());

/** The number a cell holds as the spreadsheet read it: a decimal's dot and zeros taken off, any other cell as it is. */
export const withoutDecimalZeros = (cell: string): string => (spreadsheetDecimal(cell) ? cell.trim().replace(/\.0+$/, '') : cell);

/**
 * Why a row's number cell, new to the workspace, looks written by a spreadsheet as a decimal, if it
 * does: the import drops its dot as it drops any separator and keeps the zeros, a number nobody meant.
 * The stored contact whose number the decimal writes is named (a sheet of exported contacts).
 */
export function decimalNumber(cell: string | undefined, number: string, live: Pick<LiveContacts, 'byNumber'>): string | undefined {
  if (cell === undefined || !spreadsheetDecimal(cell)) return undefined;
  const meant = live.byNumber.get(normalizeNumber(withoutDecimalZeros(cell)));
  const beside = meant === undefined ? '' : `, beside contact ${meant.id}, "${meant.number}"`;
  return `"${cell.trim()}" would be a new contact, "${number}"${beside}: a spreadsheet writes a number as a decimal (a column formatted 0.00) and the import reads its dot as a separator, keeping the zeros`;
}

/** A run of digits as a spreadsheet keeps it as a number: its first 15 significant digits, rounded, the rest zeros. */
function roundedTo15Digits(digits: string): string {
  const lead = digits.match(/^0*/)![0];
  const significant = digits.slice(lead.length);
  if (significant.length <= 15) return digits;
  const kept = BigInt(significant.slice(0, 15)) + (Number(significant[15]) >= 5 ? 1n : 0n);
  const rounded = `${kept}${'0'.repeat(significant.length - 15)}`;
  return rounded.slice(0, significant.length + (String(kept).length > 15 ? 1 : 0));
}
