// Numbers as the server stores them (7 to 15 digits, normalised), each with the row and line that
// first named it, kept in typed arrays in the order they came: a million numbers cost no object
// each, so following every row of a large import adds nearly nothing for the garbage collector.
// A number of 15 digits or fewer is exact as a double; its leading zeros are kept as its length.

const STORED_NUMBER = /^\d{7,15}$/;

export class NumberTable {
  private values = new Float64Array(1024);
  private lengths = new Uint8Array(1024);
  private rows = new Int32Array(1024);
  private lines = new Int32Array(1024);
  /** Open addressing: each slot holds an entry's index plus one, 0 when free. */
  private slots = new Int32Array(4096);
  size = 0;

  /** Whether `number` is one the table can hold (any other is no stored number, and is never in it). */
  static holds(number: string): boolean {
    return STORED_NUMBER.test(number);
  }

  /** The entry of `number`, or -1. */
  find(number: string): number {
    const slot = this.slotOf(Number(number), number.length);
    return this.slots[slot] - 1;
  }

  /** Adds `number` (first named at `row`, `line`) unless it is in the table; its entry either way. */
  add(number: string, row: number, line: number): { entry: number; added: boolean } {
    const value = Number(number);
    let slot = this.slotOf(value, number.length);
    if (this.slots[slot] !== 0) return { entry: this.slots[slot] - 1, added: false };
    if (this.size === this.values.length) {
      this.grow();
      slot = this.slotOf(value, number.length);
    }
    const entry = this.size++;
    this.values[entry] = value;
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

  private slotOf(value: number, length: number): number {
    const mask = this.slots.length - 1;
    let slot = Math.imul((value % 0x100000000) ^ Math.floor(value / 0x100000000) ^ (length << 24), 0x9e3779b1) >>> 0;
    for (slot &= mask; ; slot = (slot + 1) & mask) {
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
    this.slots = new Int32Array(size * 4);
    for (let entry = 0; entry < this.size; entry++) this.slots[this.slotOf(this.values[entry], this.lengths[entry])] = entry + 1;
  }
}
