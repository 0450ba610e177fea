// A real import sends what its plan says: the rows naming one contact are said (the last row's
// values win, as the server applies rows in order), and the changes that look made by a
// spreadsheet are left out of the upload cell by cell (held-cells.ts) and said, the first ten one
// by one, while the other cells of those rows go in.
import { basename } from 'node:path';
import type { Context } from '../../cli/context.js';
import { privateFile } from '../../cli/private-file.js';
import type { Plan, PlannedContact } from '../contacts/plan.js';
import { heldLine, heldSentence } from '../contacts/plan-render.js';
import { PlanTally, summaryCounts } from '../contacts/plan-tally.js';
import { RepeatedRows } from './repeated-refusal.js';
import { briefPlaces } from '../contacts/places.js';
import type { RepeatedNumbers } from '../contacts/repeated-numbers.js';
import { countOf, countText } from '../../cli/text.js';
import { bytesWithoutHeld } from './held-bytes.js';
import { type RewrittenRecord, rewrittenRecords, writeWithoutHeld } from './held-cells.js';
import type { HeldCells, PlanSaid } from './import-plan.js';
import type { HeldByPass } from './hold-pass.js';

/** Held records sent as parts of the file's own bytes; past them, the file is sent as a copy without its held cells. */
const BLOB_RECORDS = 1000;

/** Contacts several rows name, and held changes, named one by one before the count. */
const SAID_FIRST = 10;

/** Before the upload (or, for a plan that holds nothing, as the rows are checked after it): repeated rows and held cells, said. */
export function sayPlan(ctx: Context, file: string, plan: PlanSaid): void {
  const repeated = plan.contacts.filter((contact) => contact.rows !== undefined);
  for (const contact of repeated.slice(0, SAID_FIRST))
    ctx.output.warn(
      `${who(file, contact, plan.unread)}: the rows name one contact and are applied in order, the last row's values win (--strict refuses such a file)`,
    );
  const more = (plan.counts?.repeated ?? repeated.length) - Math.min(repeated.length, SAID_FIRST);
  if (more > 0) ctx.output.warn(`and ${countOf(more, 'more contact')} named by several rows (--dry-run lists them all)`);
  sayHeld(ctx, file, plan);
}

const who = (file: string, contact: PlannedContact, unread = false) =>
  `${file} ${briefPlaces(contact.place)}, ${contact.id !== null ? `contact ${contact.id}` : unread ? `contact with number ${contact.number}` : `new contact ${contact.number}`}`;

/** The held cells of a plan, said: the first ten one by one, then how many. */
export function sayHeld(ctx: Context, file: string, plan: PlanSaid): void {
  const held = plan.contacts.flatMap((contact) => Object.entries(contact.held ?? {}).map(([key, change]) => ({ contact, key, change })));
  for (const { contact, key, change } of held.slice(0, SAID_FIRST))
    ctx.output.warn(`${who(file, contact, plan.unread)}: ${heldLine(key, change)}`);
  const more = plan.held - Math.min(held.length, SAID_FIRST);
  if (more > 0) ctx.output.warn(`and ${countText(more)} more (--dry-run lists them all)`);
  const heldOnNew = plan.counts?.heldOnNew ?? summaryCounts(plan.contacts).heldOnNew;
  if (plan.held > 0) ctx.output.warn(`${file}: ${heldSentence(plan.held, true, heldOnNew)}`);
}

/** What is said of the contacts several rows name, found after the upload: the first of them, and how many (a million are never made whole). */
export function repeatedSaid(repeated: RepeatedNumbers, unread: boolean | undefined): PlanSaid {
  return { contacts: repeated.contacts(SAID_FIRST), held: 0, unread, counts: { repeated: repeated.count, heldOnNew: 0 } };
}

/**
 * What a run that plans first says of its plan, taken from its contacts as they are settled: the
 * first contacts several rows name and the first with held cells, kept to be said; every one
 * counted; and, for --strict, the first contacts several rows name, kept for its refusal. A plan
 * of a million contacts is said in a few lines and never held whole.
 */
export class PlanSaying {
  private readonly kept: PlannedContact[] = [];
  private readonly counts = new PlanTally();
  private heldKept = 0;
  private repeatedKept = 0;
  readonly repeated = new RepeatedRows();

  add(contact: PlannedContact): void {
    this.counts.add(contact);
    this.repeated.add(contact);
    const cells = Object.keys(contact.held ?? {}).length;
    const named = contact.rows !== undefined && this.repeatedKept < SAID_FIRST;
    const holding = cells > 0 && this.heldKept < SAID_FIRST;
    if (!named && !holding) return;
    if (contact.rows !== undefined) this.repeatedKept += 1;
    this.heldKept += cells;
    this.kept.push(contact);
  }

  /** What sayPlan says; `unread`: as PlanSaid has it. */
  said(unread: boolean | undefined): PlanSaid & Pick<Plan, 'held'> {
    const { held, repeated } = this.counts.totals();
    return { contacts: this.kept, held, unread, counts: { repeated, heldOnNew: this.counts.heldOnNew } };
  }
}

/**
 * Uploads `csv` (the file, or the CSV a sheet was read into, sent under its `name`) as the plan
 * says, through `create`: as it is when nothing is held, otherwise without the held cells, under
 * the same name: the file's own bytes with the held records in their place (held-bytes.ts), or, for
 * a file that lost lines since its rows were read, a private copy closed by `done` once the import
 * is followed.
 */
export async function sendAsPlanned<T>(
  ctx: Context,
  file: string,
  csv: { path: string; name: string | undefined },
  held: HeldCells,
  plan: PlanSaid,
  create: (path: string, name: string | undefined, bytes?: Blob) => Promise<T>,
): Promise<{ answer: T; done(): void }> {
  sayPlan(ctx, file, plan);
  return sendRewritten(csv, held.size === 0 ? [] : await rewrittenRecords(csv.path, held), create);
}

/** Uploads `csv` as the pass found it (hold-pass.ts): its held cells said, and left out; as it is when there is no pass. */
export async function sendPassed<T>(
  ctx: Context,
  file: string,
  csv: { path: string; name: string | undefined },
  pass: HeldByPass | undefined,
  create: (path: string, name: string | undefined, bytes?: Blob) => Promise<T>,
): Promise<{ answer: T; done(): void }> {
  if (pass !== undefined) sayHeld(ctx, file, pass.said);
  return sendRewritten(csv, pass?.records ?? [], create);
}

/** Uploads `csv` with `records` written anew (hold-pass.ts, or a plan's held rows): the file itself when there are none. */
async function sendRewritten<T>(
  csv: { path: string; name: string | undefined },
  records: readonly RewrittenRecord[],
  create: (path: string, name: string | undefined, bytes?: Blob) => Promise<T>,
): Promise<{ answer: T; done(): void }> {
  if (records.length === 0) return { answer: await create(csv.path, csv.name), done: () => {} };
  const name = csv.name ?? basename(csv.path);
  // A Blob is sent a part at a time, two parts a record: 300,000 held rows took over 30 s to send. Past a few, a copy is written in one pass.
  const bytes = records.length <= BLOB_RECORDS ? await bytesWithoutHeld(csv.path, records) : undefined;
  if (bytes !== undefined) return { answer: await create(csv.path, name, bytes), done: () => {} };
  const copy = privateFile(name);
  try {
    await writeWithoutHeld(csv.path, copy.fd, records);
    return { answer: await create(copy.path, name), done: () => copy.done() };
  } catch (error) {
    copy.done();
    throw error;
  }
}
