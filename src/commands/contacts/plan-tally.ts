// A plan's counts, taken a contact at a time: a plan of every contact in memory (an update's, an
// undo's) counts them all at once, and an import's dry run counts each contact as it is settled
// and listed, without keeping it (plan-import.ts).
import type { Plan, PlanAction, PlannedContact } from './plan.js';

/** A plan without its list of contacts: what is known once every contact was counted. */
export type PlanTotals = Omit<Plan, 'contacts'>;

/** What a plan's last line says beyond its counts: the held cells of new contacts, the contacts whose flagged changes are applied. */
export interface SummaryCounts {
  heldOnNew: number;
  applied: number;
}

export class PlanTally implements SummaryCounts {
  private readonly actions: Record<PlanAction, number> = {
    create: 0,
    update: 0,
    unchanged: 0,
    invalid: 0,
    skipped: 0,
    delete: 0,
    absent: 0,
    failed: 0,
  };
  private suspicious = 0;
  private held = 0;
  private repeated = 0;
  private notRead = 0;
  /** Held cells of a contact with no id (a new one, or a row left out whole): nothing stored is kept, they are only left out. */
  heldOnNew = 0;
  /** Contacts with a change that looks made by a spreadsheet, applied (--apply-flagged). */
  applied = 0;

  add(contact: PlannedContact): void {
    this.actions[contact.action]++;
    const held = Object.keys(contact.held ?? {}).length;
    this.held += held;
    if (contact.id === null) this.heldOnNew += held;
    if (contact.suspicious.length > 0) {
      this.suspicious++;
      if (contact.held === undefined) this.applied++;
    }
    if (contact.rows !== undefined) this.repeated++;
    if (contact.unread !== undefined) this.notRead++;
  }

  /** The counts so far; `newGroups`: the contact groups the run creates. */
  totals(newGroups: string[] = []): PlanTotals {
    const { actions } = this;
    const totals: PlanTotals = {
      create: actions.create,
      update: actions.update,
      unchanged: actions.unchanged,
      invalid: actions.invalid,
      skipped: actions.skipped,
      suspicious: this.suspicious,
      held: this.held,
      repeated: this.repeated,
      new_groups: newGroups,
    };
    if (actions.delete > 0 || actions.absent > 0) Object.assign(totals, { delete: actions.delete, absent: actions.absent });
    if (actions.failed > 0) totals.failed = actions.failed;
    if (this.notRead > 0) totals.not_read = this.notRead;
    return totals;
  }
}

/** The counts of a plan's contacts, and the contacts. */
export function tally(contacts: PlannedContact[], newGroups: string[] = []): Plan {
  const { delete: deleting, absent, failed, not_read, ...counts } = summaryCounts(contacts).totals(newGroups);
  // The order JSON has always given them in: the contacts after the new groups.
  return {
    ...counts,
    contacts,
    ...(deleting !== undefined ? { delete: deleting, absent } : {}),
    ...(failed !== undefined ? { failed } : {}),
    ...(not_read !== undefined ? { not_read } : {}),
  };
}

/** The held cells of new contacts and the contacts whose flagged changes are applied, of a plan in memory. */
export function summaryCounts(contacts: Iterable<PlannedContact>): PlanTally {
  const counts = new PlanTally();
  for (const contact of contacts) counts.add(contact);
  return counts;
}
