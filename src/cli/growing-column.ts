// Numbers appended in order to a typed array that doubles when full: a column of a million rows
// costs a few bytes a row and no object (the row report's problems, a file's numbers).

type Typed = Int32Array | Float64Array | Uint8Array;

export class GrowingColumn<T extends Typed> {
  private values: T;
  length = 0;

  constructor(
    private readonly make: new (size: number) => T,
    size = 256,
  ) {
    this.values = new make(size);
  }

  push(value: number): void {
    if (this.length === this.values.length) {
      const wider = new this.make(this.values.length * 2);
      wider.set(this.values);
      this.values = wider;
    }
    this.values[this.length++] = value;
  }

  at(index: number): number {
    return this.values[index];
  }

  /** The values so far, in a typed array of their own (to sort, say). */
  copy(): T {
    return this.values.slice(0, this.length) as T;
  }
}
