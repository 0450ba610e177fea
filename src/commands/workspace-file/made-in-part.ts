// A create the server made, whose follow-up request failed: the record exists all the same, so the
// apply's report and its change journal must know its id (undo deletes what the journal keeps).

export class MadeInPart extends Error {
  constructor(
    readonly id: number,
    readonly record: unknown,
    /** What the record lacks, as the report says it: `without its permissions`. */
    readonly lacking: string,
    cause: unknown,
  ) {
    super(`created (id ${id}), but ${lacking}`, { cause });
  }
}
