// The contact ids of an `update|delete --from` file, and what is said of a file refused. A file of
// a million bad lines, or one line of 50 MB, is refused in a few lines: each value quoted at most
// QUOTED characters long, and the first SHOWN rows' places named, with how many rows there are.
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

/**
 * What an `update|delete --from` file is refused for, by place (`row 3 email`): the first SHOWN
 * rows' kept, every row counted. A row is counted once however many of its places are wrong; rows
 * are added in file order.
 */
export class Refusals {
  private readonly shown: Record<string, string[]> = {};
  private count = 0;
  private last: string | undefined;

  /** `row` names the line or row, `place` what in it is wrong (the row itself by default). */
  add(row: string, problems: string[], place = row): void {
    if (row !== this.last) {
      this.count += 1;
      this.last = row;
    }
    if (this.count <= SHOWN) this.shown[place] = problems;
  }

  /** Throws when some row was refused: `<headline>` and the places, first ones first, the rows counted in the places' word (`line`, `row`). */
  throwAny(headline: string): void {
    if (this.last === undefined) return;
    const noun = this.last.split(' ')[0];
    const many = this.count > SHOWN ? ` (${countOf(this.count, noun)}; the first ${SHOWN} below)` : '';
    throw new RequestValidationError(`${headline}${many}: nothing was sent`, this.shown);
  }
}
