// The numbers of one import file written both with and without leading zeros (`016505550009` and
// `16505550009`). A spreadsheet drops a number's leading zeros and never adds them, so the one
// without is likely the other damaged, wherever it sits in the file: the plan leaves its row out
// unless it names a stored contact (contacts/plan-import.ts). Read over every number cell of the
// file before the plan, whatever the rest of the row holds. Each number is appended to a typed
// array as a double (its digits without the leading zeros: exact up to 15 digits) and the twins are
// found at the end by one native sort of each kind, as number-table.ts finds repeated numbers: a
// million numbers cost 8 bytes each and no object or hash probe, and only the twins are kept.

/** A number as the server stores it (normalised): 7 to 15 digits. */
const STORED_NUMBER = /^\d{7,15}$/;
/** The smallest value of 7 digits: a padded number of fewer digits without its zeros has no twin that is a number. */
const SEVEN_DIGITS = 1_000_000;

/** Doubles appended in order, in a typed array that doubles as it fills. */
class Values {
  array = new Float64Array(1024);
  size = 0;

  push(value: number): void {
    if (this.size === this.array.length) {
      const wider = new Float64Array(this.array.length * 2);
      wider.set(this.array);
      this.array = wider;
    }
    this.array[this.size++] = value;
  }

  sorted(): Float64Array {
    return this.array.slice(0, this.size).sort();
  }
}

export class PaddedTwins {
  private readonly plain = new Values();
  private readonly padded = new Values();
  /** By entry of `padded`: the length of the number as written, zeros and all. */
  private paddedLengths = new Uint8Array(1024);

  /** A number cell of the file, as the server stores it (normalizeNumber); anything else is no number and is passed over. */
  add(number: string): void {
    if (!STORED_NUMBER.test(number)) return;
    const value = Number(number);
    if (number.charCodeAt(0) !== 48) {
      this.plain.push(value);
      return;
    }
    if (value < SEVEN_DIGITS) return;
    if (this.padded.size === this.paddedLengths.length) {
      const wider = new Uint8Array(this.paddedLengths.length * 2);
      wider.set(this.paddedLengths);
      this.paddedLengths = wider;
    }
    this.paddedLengths[this.padded.size] = number.length;
    this.padded.push(value);
  }

  /** Each number the file writes both ways: the one without leading zeros -> the first one with them. */
  twins(): Map<string, string> {
    const both = new Set<number>();
    if (this.padded.size > 0 && this.plain.size > 0) {
      const plain = this.plain.sorted();
      const padded = this.padded.sorted();
      for (let i = 0, j = 0; i < plain.length && j < padded.length; )
        if (plain[i] < padded[j]) i++;
        else if (plain[i] > padded[j]) j++;
        else {
          both.add(plain[i]);
          i++;
        }
    }
    const twins = new Map<string, string>();
    for (let entry = 0; entry < this.padded.size && twins.size < both.size; entry++) {
      const value = this.padded.array[entry];
      const digits = String(value);
      if (both.has(value) && !twins.has(digits)) twins.set(digits, digits.padStart(this.paddedLengths[entry], '0'));
    }
    return twins;
  }
}
