// The numbers of one import file written both with and without leading zeros (`016505550009` and
// `16505550009`). A spreadsheet drops a number's leading zeros and never adds them, so the one
// without is likely the other damaged, wherever it sits in the file: the plan leaves its row out
// unless it names a stored contact (contacts/plan-import.ts). Read over every number cell of the
// file before the plan, whatever the rest of the row holds. Each number is appended to a typed
// array as a double (its digits without the leading zeros: exact up to 15 digits) and the twins are
// found at the end by one native sort of each kind, as number-table.ts finds repeated numbers: a
// million numbers cost 8 bytes each and no object or hash probe, and only the twins are kept.
import { GrowingColumn } from '../../cli/growing-column.js';

/** A number as the server stores it (normalised): 7 to 15 digits. */
const STORED_NUMBER = /^\d{7,15}$/;
/** The smallest value of 7 digits: a padded number of fewer digits without its zeros has no twin that is a number. */
const SEVEN_DIGITS = 1_000_000;

export class PaddedTwins {
  private readonly plain = new GrowingColumn(Float64Array, 1024);
  private readonly padded = new GrowingColumn(Float64Array, 1024);
  /** By entry of `padded`: the length of the number as written, zeros and all. */
  private readonly paddedLengths = new GrowingColumn(Uint8Array, 1024);

  /** A number cell of the file, as the server stores it (normalizeNumber); anything else is no number and is passed over. */
  add(number: string): void {
    if (!STORED_NUMBER.test(number)) return;
    const value = Number(number);
    if (number.charCodeAt(0) !== 48) {
      this.plain.push(value);
      return;
    }
    if (value < SEVEN_DIGITS) return;
    this.paddedLengths.push(number.length);
    this.padded.push(value);
  }

  /** Each number the file writes both ways: the one without leading zeros -> the first one with them. */
  twins(): Map<string, string> {
    const both = new Set<number>();
    if (this.padded.length > 0 && this.plain.length > 0) {
      const plain = this.plain.copy().sort();
      const padded = this.padded.copy().sort();
      for (let i = 0, j = 0; i < plain.length && j < padded.length; )
        if (plain[i] < padded[j]) i++;
        else if (plain[i] > padded[j]) j++;
        else {
          both.add(plain[i]);
          i++;
        }
    }
    const twins = new Map<string, string>();
    for (let entry = 0; entry < this.padded.length && twins.size < both.size; entry++) {
      const value = this.padded.at(entry);
      const digits = String(value);
      if (both.has(value) && !twins.has(digits)) twins.set(digits, digits.padStart(this.paddedLengths.at(entry), '0'));
    }
    return twins;
  }
}
