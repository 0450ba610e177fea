// The contacts several rows of an import name, found without following their values: all the plan
// of a run that holds nothing has to say (imports/hold-scan.ts).
import { rowName } from '../../cli/text.js';
import { NumberTable } from './number-table.js';
import { placesOf } from './places.js';
import type { LiveContacts, PlannedContact } from './plan.js';

/**
 * The contacts several rows name, as ImportPlanner shows them (the same key, the number as the
 * server stores it; the same places; the contact, or the new number), without following any
 * contact's values: all the plan of a run that holds nothing has to say (imports/hold-scan.ts). A
 * million rows cost a few bytes each (number-table.ts).
 */
export class RepeatedNumbers {
  /**
   * `named`: each valid row's number, row and line, in file order; a table another follower of the
   * rows fills (import-tally.ts) is shared rather than filled twice.
   */
  constructor(
    private readonly live: LiveContacts,
    private readonly named = new NumberTable(),
  ) {}

  /** `number`: a valid row's, as the server stores it. */
  add(number: string, where: { row: number; line: number }): void {
    this.named.add(number, where.row, where.line);
  }

  /** Every number the rows name. */
  numbers(): Iterable<string> {
    return this.named.numbers();
  }

  /** How many contacts several rows name. */
  get count(): number {
    return this.named.repeated().length;
  }

  /** The contacts named by several rows, in the order of their first rows (as a plan lists them); `most`: the first so many of them. */
  contacts(most = Number.POSITIVE_INFINITY): PlannedContact[] {
    return this.named
      .repeated()
      .slice(0, most)
      .map((entries): PlannedContact => {
        const number = this.named.numberOf(entries[0]);
        const contact = this.live.byNumber.get(number);
        const places = entries.map((entry) => rowName(this.named.placeOf(entry)));
        return {
          place: placesOf(places),
          action: contact === undefined ? 'create' : 'update',
          id: contact === undefined ? null : Number(contact.id),
          number: contact === undefined ? number : String(contact.number),
          changes: {},
          suspicious: [],
          rows: places.map((place, at) => ({ place, does: at === 0 && contact === undefined ? 'create' : 'update' })),
        };
      });
  }
}
