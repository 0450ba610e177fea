// Numbers as the server stores them (7 to 15 digits, normalised), each with the row and line that
// first named it, kept in typed arrays in the order they came: a million numbers cost no object
// each, so following every row of a large import adds nearly nothing for the garbage collector.
// A number of 15 digits or fewer (every valid one) is exact as a double; its leading zeros are kept
// as its length.

export class NumberTable {
  private values = new Float64Array(1024);
  private lengths = new Uint8Array(1024);
  private rows = new Int32Array(1024);
  private lines = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  /** Open addressing: each slot holds an entry's index plus one, 0 when free; 2^bits slots. */
  private slots = new Int32Array(4096);
  private bits = 12;
  size = 0;

  /** The entry of `number`, or -1. */
  find(number: string): number {
    return this.slots[this.slotOf(number)] - 1;
  }

  /** Adds `number` (first named at `row`, `line`) unless it is in the table; its entry either way. */
  add(number: string, row: number, line: number): { entry: number; added: boolean } {
    let slot = this.slotOf(number);
    if (this.slots[slot] !== 0) return { entry: this.slots[slot] - 1, added: false };
    if (this.size === this.values.length) {
      this.grow();
      slot = this.slotOf(number);
    }
    const entry = this.size++;
    this.values[entry] = this.value;
    this.hashes[entry] = this.hash;
    this.lengths[entry] = number.length;
    this.rows[entry] = row;
    this.lines[entry] = line;
    this.slots[slot] = entry + 1;
    return { entry, added: true };
  }

  /** The row and line that first named an entry's number. */
  firstOf(entry: number): { row: number; line: number } {
    return { row: this.rows[entry], line: this.lines[entry] };
  }

  /** Every number, in the order they were added. */
  *numbers(): Iterable<string> {
    for (let entry = 0; entry < this.size; entry++) yield String(this.values[entry]).padStart(this.lengths[entry], '0');
  }

  /** The number slotOf last read, as a double, and its hash. */
  private value = 0;
  private hash = 0;

  /** The slot of `number` (its digits read once, for its value and its hash): its own, or the free one it would take. */
  private slotOf(number: string): number {
    let value = 0;
    let hash = 0x811c9dc5;
    for (let i = 0; i < number.length; i++) {
      const code = number.charCodeAt(i);
      value = value * 10 + (code - 48);
      hash = Math.imul(hash ^ code, 0x01000193);
    }
    this.value = value;
    this.hash = hash;
    return this.probe(value, number.length, hash);
  }

  private probe(value: number, length: number, hash: number): number {
    const mask = this.slots.length - 1;
    // Fibonacci hashing: the product's high bits depend on every bit of the hash.
    for (let slot = Math.imul(hash, 0x9e3779b1) >>> (32 - this.bits); ; slot = (slot + 1) & mask) {
      const held = this.slots[slot];
      if (held === 0 || (this.values[held - 1] === value && this.lengths[held - 1] === length)) return slot;
    }
  }

  private grow(): void {
    const size = this.values.length * 2;
    const widen = <T extends Float64Array | Uint8Array | Int32Array>(array: T, make: new (n: number) => T): T => {
      const wider = new make(size);
      wider.set(array);
      return wider;
    };
    this.values = widen(this.values, Float64Array);
    this.lengths = widen(this.lengths, Uint8Array);
    this.rows = widen(this.rows, Int32Array);
    this.lines = widen(this.lines, Int32Array);
    this.hashes = widen(this.hashes, Int32Array);
    this.bits += 1;
    this.slots = new Int32Array(1 << this.bits);
    for (let entry = 0; entry < this.size; entry++)
      this.slots[this.probe(this.values[entry], this.lengths[entry], this.hashes[entry])] = entry + 1;
  }
}
