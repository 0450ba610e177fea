// --strict refuses a file whose rows name one contact more than once, naming the first of them: a
// file of a million such contacts is refused in a few lines, and never held whole to say so.
import { RequestValidationError } from '../../cli/errors.js';
import { countOf } from '../../cli/text.js';
import type { PlannedContact } from '../contacts/plan.js';
import { briefPlaces } from '../contacts/places.js';

/** Contacts named one by one in the refusal. */
const NAMED = 20;

export class RepeatedRows {
  private readonly first: PlannedContact[] = [];
  private count = 0;

  /** A contact of the plan, as it is settled: kept when several rows name it and fewer than NAMED are. */
  add(contact: PlannedContact): void {
    if (contact.rows === undefined) return;
    this.count += 1;
    if (this.first.length < NAMED) this.first.push(contact);
  }

  /** --strict: exit 2 naming the rows of the first contacts several rows name, and how many more there are; nothing sent. */
  refuse(file: string): void {
    if (this.count === 0) return;
    const errors: Record<string, string[]> = {};
    for (const contact of this.first)
      errors[briefPlaces(contact.place)] = [`name one contact (${contact.number}): the last row's values would win`];
    if (this.count > NAMED)
      errors.more = [`${countOf(this.count - NAMED, 'more contact')} named by several rows (--dry-run lists them all)`];
    throw new RequestValidationError(`${file} has rows naming the same contact (--strict): nothing was sent`, errors);
  }
}
