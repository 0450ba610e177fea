// What a spreadsheet does to a value it reads as a number and writes back: leading zeros dropped,
// scientific notation, digits past the 15th rounded to zeros; and to a cell's line breaks, which it
// saves as LF whatever they were (CRLF, CR). A plan holds such a change.
import { isScientificNotation } from '../../formats/csv/cells.js';

const PADDED = /^0+\d+$/;
const LONG_DIGITS = /^\d{16,}$/;

/** A value a spreadsheet may damage when it is written over (zeros dropped, digits rounded, CRLF or CR made LF): the `from` side of spreadsheetDamage. */
export const damageable = (value: unknown): boolean =>
  typeof value === 'string' && (PADDED.test(value) || LONG_DIGITS.test(value) || value.includes('\r'));

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
  if (stored && before.includes('\r') && !to.includes('\r') && to === before.replace(/\r\n?/g, '\n'))
    return "only its line breaks differ (CRLF or CR stored, LF in the file), as a spreadsheet saves a cell's line breaks";
  return undefined;
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
