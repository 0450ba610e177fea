// The problems of an import file's refused rows (csv-check.ts), in file order, held in a few bytes
// each: a file of five million refused rows must not cost an object and a string a row. Each
// problem is its row and an id of its field and message in typed arrays; a row's line is its row
// plus a shift that changes only where a cell spans lines, kept once a change. Messages repeat, so
// each distinct one is kept once; a file whose every refusal says something different (a cell
// quoted in its message) is bounded too: past MESSAGES_KEPT distinct messages, or their
// KEPT_CHARS characters, a problem keeps its field and a message saying why its own is not kept.
import { GrowingColumn } from './growing-column.js';

export interface RowProblem {
  /** The spreadsheet row (the header is row 1). */
  row: number;
  /** The line of the file the row starts on. */
  line: number;
  field: string;
  message: string;
}

const MESSAGES_KEPT = 10_000;
const KEPT_CHARS = 1 << 22;

const notKept = (field: string) =>
  `This ${field} was refused; the reason is not kept: the file's refusals say more than ${MESSAGES_KEPT.toLocaleString('en-US')} different things.`;

/** Integers appended in order (growing-column.ts), ascending where a search asks. */
class IntColumn extends GrowingColumn<Int32Array> {
  constructor() {
    super(Int32Array);
  }

  /** The last index whose value is at most `value` (the values ascending), -1 when none is. */
  lastAtMost(value: number): number {
    let low = 0;
    let high = this.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      if (this.at(middle) <= value) low = middle + 1;
      else high = middle - 1;
    }
    return high;
  }
}

export class RowProblems implements Iterable<RowProblem> {
  private readonly rows = new IntColumn();
  private readonly ids = new IntColumn();
  /** Where each shift (line less row) starts, and the shift: one entry a change. */
  private readonly shiftFrom = new IntColumn();
  private readonly shifts = new IntColumn();
  /** The id of each kept message, by field (the strings a check gives again, so each is hashed once). */
  private readonly idOf = new Map<string, Map<string, number>>();
  private readonly said: Array<{ field: string; message: string }> = [];
  private keptChars = 0;
  /** Whether every line came at or after the one before (a file's order): a line is then found by halving. */
  private ordered = true;
  private byLine: Map<number, string> | undefined;

  get size(): number {
    return this.rows.length;
  }

  add({ row, line, field, message }: RowProblem): void {
    const index = this.rows.length;
    if (index > 0 && line < this.lineAt(index - 1)) this.ordered = false;
    this.rows.push(row);
    this.ids.push(this.idFor(field, message));
    const shift = line - row;
    if (this.shifts.length === 0 || this.shifts.at(this.shifts.length - 1) !== shift) {
      this.shiftFrom.push(index);
      this.shifts.push(shift);
    }
    this.byLine = undefined;
  }

  at(index: number): RowProblem {
    const { field, message } = this.said[this.ids.at(index)];
    return { row: this.rows.at(index), line: this.lineAt(index), field, message };
  }

  *[Symbol.iterator](): Iterator<RowProblem> {
    for (let index = 0; index < this.size; index++) yield this.at(index);
  }

  /** The messages of the problems of the row starting on `line`, joined by a space as the server joins them; undefined when it has none. */
  messagesAt(line: number): string | undefined {
    if (!this.ordered) return this.lineMessages().get(line);
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.lineAt(middle) < line) low = middle + 1;
      else high = middle;
    }
    let joined: string | undefined;
    for (let index = low; index < this.size && this.lineAt(index) === line; index++) {
      const { message } = this.said[this.ids.at(index)];
      joined = joined === undefined ? message : `${joined} ${message}`;
    }
    return joined;
  }

  /** Every problem, as JSON.stringify writes an array of them (a writer that streams them reads the iterator instead). */
  toJSON(): RowProblem[] {
    return [...this];
  }

  private lineAt(index: number): number {
    return this.rows.at(index) + this.shifts.at(this.shiftFrom.lastAtMost(index));
  }

  private idFor(field: string, message: string): number {
    let ids = this.idOf.get(field);
    if (ids === undefined) this.idOf.set(field, (ids = new Map()));
    const known = ids.get(message);
    if (known !== undefined) return known;
    const chars = field.length + message.length;
    const full = this.said.length >= MESSAGES_KEPT || this.keptChars + chars > KEPT_CHARS;
    // The stand-in is one message a field (a header's column), so it is kept whatever the budget.
    const standIn = notKept(field);
    if (full && message !== standIn) return this.idFor(field, standIn);
    this.keptChars += chars;
    this.said.push({ field, message });
    ids.set(message, this.said.length - 1);
    return this.said.length - 1;
  }

  /** Only for problems added out of line order: each line's messages, built once. */
  private lineMessages(): Map<number, string> {
    if (this.byLine !== undefined) return this.byLine;
    const lines = new Map<number, string>();
    for (const { line, message } of this) lines.set(line, lines.has(line) ? `${lines.get(line)} ${message}` : message);
    this.byLine = lines;
    return lines;
  }
}

/** The problems of `a` and `b` (each in row order) in one row order, `a`'s first within a row. */
export function mergedByRow(a: Iterable<RowProblem>, b: Iterable<RowProblem>): RowProblems {
  const merged = new RowProblems();
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  let l = left.next();
  let r = right.next();
  while (!l.done || !r.done) {
    if (r.done || (!l.done && l.value.row <= r.value.row)) {
      merged.add(l.value!);
      l = left.next();
    } else {
      merged.add(r.value);
      r = right.next();
    }
  }
  return merged;
}
