// The numbers of an import's rows as the server stores them (7 to 15 digits, normalised), each
// with its row and line, appended to typed arrays in the order they came: a row costs a few
// sequential writes and no object, so following every row of a million-row import adds nearly
// nothing to the check. Which numbers are named more than once is found when first asked, by one
// sort of the values (a hash table probed on every row cost the check 1 s of CPU a million rows,
// most of it waiting on memory). A number of 15 digits or fewer (every valid one) is exact as a
// double; its leading zeros are kept as its length.
import { GrowingColumn } from '../../cli/growing-column.js';

/** The entries of one number named by several rows: the first, then the others in file order. */
export type RepeatedEntries = readonly number[];

export class NumberTable {
  private readonly values = new GrowingColumn(Float64Array, 1024);
  private readonly lengths = new GrowingColumn(Uint8Array, 1024);
  private readonly rows = new GrowingColumn(Int32Array, 1024);
  private readonly lines = new GrowingColumn(Int32Array, 1024);
  /** Built when first asked, from the entries then: each number named more than once, by its first entry. */
  private repeats: Map<number, number[]> | undefined;

  /** Appends `number` (a valid row's, as the server stores it), named at `row`, `line`. */
  add(number: string, row: number, line: number): void {
    this.values.push(Number(number));
    this.lengths.push(number.length);
    this.rows.push(row);
    this.lines.push(line);
    this.repeats = undefined;
  }

  /** How many entries there are (each valid row added). */
  get count(): number {
    return this.values.length;
  }

  /** An entry's number, as it was added. */
  numberOf(entry: number): string {
    return String(this.values.at(entry)).padStart(this.lengths.at(entry), '0');
  }

  /** The row and line of an entry. */
  placeOf(entry: number): { row: number; line: number } {
    return { row: this.rows.at(entry), line: this.lines.at(entry) };
  }

  /** Each number named by more than one entry: its entries in file order, listed by first entry. */
  repeated(): RepeatedEntries[] {
    return [...this.repeatsByFirst().values()];
  }

  /** Every number once, in the order they were first named. */
  *numbers(): Iterable<string> {
    const repeats = this.repeatsByFirst();
    const later = new Set<number>();
    for (const entries of repeats.values()) for (const entry of entries.slice(1)) later.add(entry);
    for (let entry = 0; entry < this.count; entry++) if (!later.has(entry)) yield this.numberOf(entry);
  }

  private repeatsByFirst(): Map<number, number[]> {
    this.repeats ??= this.findRepeats();
    return this.repeats;
  }

  /** One native sort of the values finds those named twice (rare); one walk in order groups their entries. */
  private findRepeats(): Map<number, number[]> {
    const sorted = this.values.copy().sort();
    const twice = new Set<number>();
    for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) twice.add(sorted[i]);
    if (twice.size === 0) return new Map();
    const byKey = new Map<string, number[]>();
    for (let entry = 0; entry < this.count; entry++) {
      const value = this.values.at(entry);
      if (!twice.has(value)) continue;
      // The same value with other leading zeros is another number.
      const key = `${this.lengths.at(entry)}:${value}`;
      const entries = byKey.get(key);
      if (entries === undefined) byKey.set(key, [entry]);
      else entries.push(entry);
    }
    // Keys were met in the order of their first entries.
    const repeats = new Map<number, number[]>();
    for (const entries of byKey.values()) if (entries.length > 1) repeats.set(entries[0], entries);
    return repeats;
  }
}
