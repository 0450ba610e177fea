// The numbers of the rows the journal follows through an import, each with its row and line, in
// typed arrays: a row costs a few writes and no object. A number (7 to 15 digits, leading zeros
// kept) is held as one exact double, its key: the number read with a 1 before it, so `007` and
// `7` differ. Which numbers are named by more than one row is found when first asked, by one sort.

const POWERS = Array.from({ length: 17 }, (_, n) => 10 ** n);

export class NumberKeys {
  /** Entries held at first; the arrays double as they fill. */
  static readonly FIRST = 1024;

  /** The key of a number as the server stores it (digits only): exact up to 15 digits. */
  static keyOf(number: string): number {
    return POWERS[number.length] + Number(number);
  }

  /** Whether `key` is in `sorted` (distinct(), sorted ascending). */
  static holds(sorted: Float64Array, key: number): boolean {
    let low = 0;
    let high = sorted.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle] === key) return true;
      if (sorted[middle] < key) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  private keys = new Float64Array(NumberKeys.FIRST);
  private rows = new Int32Array(NumberKeys.FIRST);
  private lines = new Int32Array(NumberKeys.FIRST);
  private size = 0;
  /** Found when first asked: each number named more than once, its entries in file order, by its first entry. */
  private repeats: Map<number, number[]> | undefined;
  /** The entries after the first of a number named more than once. */
  private later: Set<number> | undefined;

  /** Appends a number's key, named at `row`, `line`; returns its entry. */
  add(key: number, row: number, line: number): number {
    if (this.size === this.keys.length) this.grow();
    const entry = this.size++;
    this.keys[entry] = key;
    this.rows[entry] = row;
    this.lines[entry] = line;
    this.repeats = undefined;
    return entry;
  }

  get count(): number {
    return this.size;
  }

  keyOf(entry: number): number {
    return this.keys[entry];
  }

  /** An entry's number, as it was added. */
  numberOf(entry: number): string {
    return String(this.keys[entry]).slice(1);
  }

  /** The keys of the entries whose row (or line) is one of `places`. */
  keysAt(by: 'row' | 'line', places: ReadonlyMap<number, unknown>): Set<number> {
    const at = by === 'row' ? this.rows : this.lines;
    const keys = new Set<number>();
    for (let entry = 0; entry < this.size; entry++) if (places.has(at[entry])) keys.add(this.keys[entry]);
    return keys;
  }

  /** Every key once, sorted. */
  distinct(): Float64Array {
    const sorted = this.keys.slice(0, this.size).sort();
    let kept = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[kept++] = sorted[i];
    return sorted.slice(0, kept);
  }

  /** The first entry of each number, in file order. */
  *firsts(): Iterable<number> {
    this.findRepeats();
    const later = this.later!;
    for (let entry = 0; entry < this.size; entry++) if (later.size === 0 || !later.has(entry)) yield entry;
  }

  /** Whether the number of `first` (a first entry) is named by other entries too. */
  repeated(first: number): boolean {
    return this.findRepeats().has(first);
  }

  /** The entries of the number of `first` (a first entry), in file order. */
  entriesOf(first: number): readonly number[] {
    return this.findRepeats().get(first) ?? [first];
  }

  private findRepeats(): Map<number, number[]> {
    if (this.repeats !== undefined) return this.repeats;
    const sorted = this.keys.slice(0, this.size).sort();
    const twice = new Set<number>();
    for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) twice.add(sorted[i]);
    const byKey = new Map<number, number[]>();
    for (let entry = 0; twice.size > 0 && entry < this.size; entry++) {
      const key = this.keys[entry];
      if (!twice.has(key)) continue;
      const entries = byKey.get(key);
      if (entries === undefined) byKey.set(key, [entry]);
      else entries.push(entry);
    }
    this.repeats = new Map([...byKey.values()].map((entries) => [entries[0], entries]));
    this.later = new Set([...byKey.values()].flatMap((entries) => entries.slice(1)));
    return this.repeats;
  }

  private grow(): void {
    const size = this.keys.length * 2;
    const keys = new Float64Array(size);
    keys.set(this.keys);
    this.keys = keys;
    for (const name of ['rows', 'lines'] as const) {
      const wider = new Int32Array(size);
      wider.set(this[name]);
      this[name] = wider;
    }
  }
}

/**
 * Keys (NumberKeys.keyOf, never 0) held once each, in an open-addressed table of doubles: whether a
 * row's number is new costs one probe, where counting the numbers again by a sort of every entry
 * cost a sort a row. The table doubles at half full.
 */
export class KeySet {
  private table: Float64Array;
  private held = 0;

  constructor(keys: Float64Array) {
    this.table = new Float64Array(KeySet.sizeFor(keys.length));
    for (const key of keys) this.add(key);
  }

  get size(): number {
    return this.held;
  }

  /** Adds `key`; whether it was new. */
  add(key: number): boolean {
    const mask = this.table.length - 1;
    // The key is an integer below 2 ** 53: its low and high words mixed.
    let slot = Math.imul((key >>> 0) ^ Math.floor(key / 2 ** 32), 0x9e3779b1) & mask;
    while (this.table[slot] !== 0) {
      if (this.table[slot] === key) return false;
      slot = (slot + 1) & mask;
    }
    this.table[slot] = key;
    if (++this.held * 2 > this.table.length) this.grow();
    return true;
  }

  /** Every key, sorted ascending (as NumberKeys.holds takes them). */
  sorted(): Float64Array {
    return this.table.filter((key) => key !== 0).sort();
  }

  private static sizeFor(count: number): number {
    let size = 1024;
    while (size < count * 2 + 2) size *= 2;
    return size;
  }

  private grow(): void {
    const keys = this.table.filter((key) => key !== 0);
    this.table = new Float64Array(this.table.length * 2);
    this.held = 0;
    for (const key of keys) this.add(key);
  }
}
