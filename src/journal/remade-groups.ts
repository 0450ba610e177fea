// The contact groups an undo makes again (a change that deleted them: the undo of an import that
// made them) and the contacts it brings back that were in them. A group made again gets a new id
// the plan cannot know, so the plan names it by the id it had, and its request goes first (a run
// of its own, undo-order.ts): the contacts' requests, sent once it has ended, carry its new id in
// place of the old. A group the server would not make leaves the contacts without it, as said.
import type { ContactCreateBody, ContactUpdateBody } from '../api/schemas/index.js';
import type { OtherRecords, UndoStep } from './inverse.js';
import type { JournalRecord } from './records.js';

/** The groups a change deleted that its undo makes again: the id each had -> its place in the plan (`record 3`). */
export function groupsMadeAgain(records: readonly JournalRecord[], probe: OtherRecords): Map<number, string> {
  const made = new Map<number, string>();
  records.forEach((record, index) => {
    if (record.kind !== 'resource' || record.resource !== 'groups' || record.op !== 'delete' || record.id === null) return;
    const scratch: UndoStep[] = [];
    const place = `record ${index + 1}`;
    probe(record, place, scratch);
    if (scratch.some((step) => step.op === 'resource' && step.does === 'create')) made.set(record.id, place);
  });
  return made;
}

/** The group ids of an undo's run so far: the id each group made again had -> the id the server gave it. */
export class RemadeGroups {
  private readonly ids = new Map<number, number>();
  /** Each group to be made again, by the id it had -> its name. */
  private readonly names = new Map<number, string>();

  constructor(steps: readonly UndoStep[]) {
    for (const step of steps)
      if (step.op === 'resource' && step.resource === 'groups' && step.does === 'create' && step.was !== undefined)
        this.names.set(step.was, String(step.body?.name ?? ''));
  }

  /** A group step's outcome: a group made again is known by its new id from now on. */
  made(step: UndoStep, id: number | null): void {
    if (step.op === 'resource' && step.resource === 'groups' && step.does === 'create' && step.was !== undefined && id !== null)
      this.ids.set(step.was, id);
  }

  /**
   * A contact's body with each group made again under its new id; one the server did not make is
   * left out (the request would be refused whole), and named in `left`.
   */
  body<Body extends ContactCreateBody | ContactUpdateBody>(body: Body): { body: Body; left: string[] } {
    // The undo's own bodies: ids as its plan wrote them (inverse.ts).
    const groups = body.contact_groups as number[] | undefined;
    if (groups === undefined || !groups.some((id) => this.names.has(id))) return { body, left: [] };
    const left = groups.filter((id) => this.names.has(id) && !this.ids.has(id)).map((id) => this.names.get(id)!);
    const contact_groups = groups.flatMap((id) => (this.names.has(id) ? (this.ids.has(id) ? [this.ids.get(id)!] : []) : [id]));
    return { body: { ...body, contact_groups }, left };
  }
}
