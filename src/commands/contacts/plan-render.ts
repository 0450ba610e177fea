// How a plan (plan.ts) is shown: -o json (or --json/--jq) gives it as data, the counts and every
// contact's changes; otherwise a line for each contact the run touches or that needs a word
// (unchanged ones are counted): several rows of one contact together, each change `from -> to`,
// each held change `!` with why it is kept as stored, each emptied value kept, the notes, the
// groups the run creates (or, `?`, the columns a server's contacts do not show), and the counts last.
import type { Context } from '../../cli/context.js';
import { countOf, countText } from '../../cli/text.js';
import { listed } from './places.js';
import type { HeldChange, Plan, PlannedContact } from './plan.js';
import { unreadableCellLine, unreadableLines, unshownLines } from './plan-unshown.js';
import { unsentEmptiedLines } from './plan-update.js';
import { pacedText } from '../../cli/batched-text.js';
import { PlanTally, type PlanTotals, type SummaryCounts } from './plan-tally.js';

const MARK: Record<PlannedContact['action'], string> = {
  create: '+',
  update: '~',
  unchanged: '=',
  invalid: 'x',
  skipped: '!',
  delete: '-',
  absent: '·',
  failed: 'x',
};
const shown = (value: unknown) => JSON.stringify(value ?? null);

/** `rows 2, 3, 4 are one contact: created by row 2, updated by rows 3 and 4`. */
function repeatedLine(contact: PlannedContact): string {
  const rows = contact.rows!;
  const creating = rows.filter((row) => row.does === 'create').map((row) => row.place);
  const updating = rows.filter((row) => row.does === 'update').map((row) => row.place);
  const deleting = contact.action === 'delete' || contact.action === 'absent';
  const does = deleting
    ? ['named once']
    : [...(creating.length > 0 ? [`created by ${listed(creating)}`] : []), `updated by ${listed(updating)}`];
  return `${contact.place} are one contact: ${does.join(', ')}`;
}

const keyOf = (reason: string) => reason.slice(0, reason.indexOf(': '));

/** What the line says of a contact after its place. */
function whatOf(contact: PlannedContact, who: string): string {
  if (contact.action === 'absent') return `${who}: not in the workspace (already gone)`;
  if (contact.action === 'failed') return `${who}: its request failed, nothing was changed`;
  if (contact.action === 'skipped' && contact.id === null && contact.label === undefined) return `${who}: not created`;
  // An import's number not read may be stored: its row creates the contact or updates it.
  if (contact.action === 'create' && contact.unread !== undefined) return `create or update ${who}`;
  return `${contact.action} ${who}`.trimEnd();
}

function contactLine(contact: PlannedContact): string {
  const who =
    contact.label ??
    (contact.id !== null ? `contact ${contact.id}${contact.number !== null ? ` (${contact.number})` : ''}` : (contact.number ?? ''));
  const what = whatOf(contact, who);
  // A change's failure or already-gone contact that no record holds has no place of its own.
  const lines = [`${MARK[contact.action]} ${contact.place === '' ? what : `${contact.place}: ${what}`}`];
  if (contact.rows !== undefined) lines.push(`    ${repeatedLine(contact)}`);
  if (contact.unread !== undefined) lines.push(`    ${unreadLine(contact)}`);
  for (const [key, change] of Object.entries(contact.changes)) {
    // A value whose stored one was not read has no `from`: only what is sent is shown.
    lines.push(
      contact.action === 'create' || change.from === undefined
        ? `    ${key}: ${shown(change.to)}`
        : `    ${key}: ${shown(change.from)} -> ${shown(change.to)}`,
    );
  }
  for (const [key, value] of Object.entries(contact.kept ?? {})) lines.push(`    ${key}: emptied in the file, kept ${shown(value)}`);
  for (const error of contact.errors ?? []) lines.push(`    ${error}`);
  for (const [key, change] of Object.entries(contact.held ?? {})) lines.push(`    ! ${heldLine(key, change)}`);
  for (const why of contact.suspicious) if (contact.held?.[keyOf(why)] === undefined) lines.push(`    ! ${why} (applied: --apply-flagged)`);
  for (const note of contact.notes ?? []) lines.push(`    note: ${note}`);
  for (const [key, { cell, why }] of Object.entries(contact.unreadable ?? {})) lines.push(`    ${unreadableCellLine(key, cell, why)}`);
  return lines.join('\n') + '\n';
}

/** Why a contact was not read, and what the run does without it. */
function unreadLine(contact: PlannedContact): string {
  const does = contact.action === 'delete' ? 'the delete is sent (deleted, or found already gone)' : 'the row is sent as it is';
  return `not read (${contact.unread}): ${does}`;
}

/** One held change: what is kept (or left out) and why. */
export function heldLine(key: string, change: HeldChange): string {
  if (key === 'number') return `${key}: ${change.why}: the row is left out`;
  if (change.instead !== undefined)
    return `${key}: ${shown(change.instead)} (the server's name for a new contact without one), not ${shown(change.to)}: ${change.why}`;
  if (change.from === null) return `${key}: ${shown(change.to)} left out: ${change.why}`;
  return `${key}: ${shown(change.from)} kept, not ${shown(change.to)}: ${change.why}`;
}

/** The held cells as a plan (`are`) or a finished run (`were`) says them; `onNew` of them a new contact's. */
export function heldSentence(cells: number, past: boolean, onNew = 0): string {
  const be = (n: number) => (past ? (n === 1 ? 'was' : 'were') : n === 1 ? 'is' : 'are');
  const kept = cells - onNew;
  const what =
    onNew === 0
      ? ` and ${be(cells)} kept as stored`
      : kept === 0
        ? ` and ${be(cells)} left out`
        : `: ${countText(kept)} ${be(kept)} kept as stored, ${countText(onNew)} ${be(onNew)} left out`;
  return `${countOf(cells, 'cell')} ${cells === 1 ? 'looks' : 'look'} changed by a spreadsheet${what}: --apply-flagged to apply ${cells === 1 ? 'it' : 'them'}`;
}

/** The counts, as the last line says them. */
function planSummary(plan: PlanTotals, counts: SummaryCounts): string {
  const failedPart = plan.failed !== undefined ? [`${countText(plan.failed)} failed`] : [];
  const parts =
    plan.delete !== undefined
      ? [
          // An undo deletes what its change created and creates what it deleted: one plan of both.
          ...(['create', 'update'] as const).flatMap((action) => (plan[action] > 0 ? [`${countText(plan[action])} to ${action}`] : [])),
          `${countText(plan.delete)} to delete`,
          `${countText(plan.absent ?? 0)} already gone`,
          ...(plan.unchanged > 0 ? [`${countText(plan.unchanged)} unchanged`] : []),
          ...(plan.skipped > 0 ? [`${countText(plan.skipped)} skipped`] : []),
          ...failedPart,
        ]
      : [
          `${countText(plan.create)} to create`,
          `${countText(plan.update)} to update`,
          `${countText(plan.unchanged)} unchanged`,
          `${countText(plan.invalid)} invalid`,
          ...(plan.skipped > 0 ? [`${countText(plan.skipped)} skipped`] : []),
          ...failedPart,
        ];
  const more: string[] = [];
  // A delete's repeated rows set no values: the contact is deleted once.
  const together = plan.delete !== undefined ? 'each deleted once' : "the last row's values win";
  if (plan.repeated > 0) more.push(`${countOf(plan.repeated, 'contact')} named by several rows (shown together, ${together})`);
  if (plan.held > 0) more.push(`${heldSentence(plan.held, false, counts.heldOnNew)} (marked !)`);
  const { applied } = counts;
  if (applied > 0) more.push(`${countText(applied)} with a change that looks made by a spreadsheet, applied (marked !)`);
  if (plan.not_read !== undefined)
    more.push(
      `${countOf(plan.not_read, 'contact')} not read first, ${plan.delete !== undefined ? 'each delete sent' : `sent as the file gives ${plan.not_read === 1 ? 'it' : 'them'}`}`,
    );
  if (plan.new_groups.length > 0)
    more.push(`${countOf(plan.new_groups.length, 'contact group')} to create: ${plan.new_groups.map((name) => shown(name)).join(', ')}`);
  return `Plan: ${parts.join(', ')}${more.map((part) => `; ${part}`).join('')}.`;
}

export async function renderPlan(ctx: Context, plan: Plan): Promise<void> {
  if (ctx.output.structured || ctx.output.selecting) {
    await ctx.output.record(plan);
    return;
  }
  // A plan in memory says what it makes besides contacts first; a streamed one (an import's dry run) knows it only at the end.
  ctx.output.text(
    headLines(plan)
      .map((line) => `${line}\n`)
      .join(''),
  );
  const counts = await writePlanContacts(ctx, plan.contacts);
  ctx.output.text(`${planSummary(plan, counts)}\n`);
}

/** The groups the run creates, the columns a server's contacts do not show. */
const headLines = (plan: PlanTotals): string[] => [
  ...plan.new_groups.map((name) => `+ contact group ${shown(name)}: created by the import`),
  ...unshownLines(plan.not_shown ?? {}, plan.lacking_groups ?? []),
  ...unreadableLines(plan.unreadable_cells),
  ...unsentEmptiedLines(plan.unsent_emptied ?? {}),
];

/** An unchanged contact is counted, not listed, unless there is something to say about it. */
const said = (contact: PlannedContact) =>
  contact.action !== 'unchanged' ||
  contact.notes !== undefined ||
  contact.kept !== undefined ||
  contact.rows !== undefined ||
  contact.unreadable !== undefined;

/**
 * The lines of a plan's contacts as they come, written a piece at a time and paced by stdout (a
 * million contacts' lines are never one string); gives back what the last line counts of them.
 */
export async function writePlanContacts(
  ctx: Context,
  contacts: Iterable<PlannedContact> | AsyncIterable<PlannedContact>,
): Promise<SummaryCounts> {
  const counts = new PlanTally();
  const out = pacedText(ctx.output);
  for await (const contact of contacts) {
    counts.add(contact);
    if (!said(contact)) continue;
    const wait = out.write(contactLine(contact));
    if (wait !== undefined) await wait;
  }
  out.end();
  return counts;
}

/** What a streamed plan says after its contacts: the groups the run creates, the columns a server's contacts do not show, and the counts. */
export function writePlanEnd(ctx: Context, plan: PlanTotals, counts: SummaryCounts): void {
  ctx.output.text([...headLines(plan), planSummary(plan, counts)].map((line) => `${line}\n`).join(''));
}
