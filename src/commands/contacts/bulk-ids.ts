// The contact ids of an `update|delete --from` file, and what is said of those that are none. A
// file of a million bad lines, or one line of 50 MB, is refused in a few lines: each value quoted
// at most QUOTED characters long, and the first SHOWN places named, with how many there are.
import { RequestValidationError } from '../../cli/errors.js';
import { countOf } from '../../cli/text.js';

export const ID = /^\d+$/;
const QUOTED = 40;
const SHOWN = 20;

/** A contact id as the plan and the request name it: `002` is contact 2. */
export const canonicalId = (text: string) => String(Number(text));

const quoted = (text: string) =>
  `"${text.length > QUOTED ? `${text.slice(0, QUOTED)}…" (${countOf(text.length, 'character')})` : `${text}"`}`;

/** What is wrong with a contact id as a record holds it (a whole number from 1 up to what JSON numbers hold exactly). */
export function idProblem(text: string): string | undefined {
  if (!ID.test(text) || Number(text) < 1) return `${quoted(text)} is not a contact id (a positive whole number).`;
  if (Number(text) > Number.MAX_SAFE_INTEGER) return `${quoted(text)} is not a contact id (at most ${Number.MAX_SAFE_INTEGER}).`;
  return undefined;
}

/** The places whose id is wrong: the first SHOWN kept, all counted. */
export class IdRefusals {
  private readonly shown: Record<string, string[]> = {};
  private count = 0;

  add(place: string, problem: string): void {
    this.count += 1;
    if (this.count <= SHOWN) this.shown[place] = [problem];
  }

  /** Throws when some place was wrong: `<source> has <what>` and the places, first ones first. */
  throwAny(source: string, what: string, noun: string): void {
    if (this.count === 0) return;
    const many = this.count > SHOWN ? ` (${countOf(this.count, noun)}; the first ${SHOWN} below)` : '';
    throw new RequestValidationError(`${source} has ${what}${many}: nothing was sent`, this.shown);
  }
}
