// What one row of an import sets, as the journal writes it when the row is checked (import-outcome.ts).
// Most rows name a contact of their own with a name, an e-mail, maybe a field: such a row is
// written as the record line of the contact it creates (records.ts createdLine: its predicted
// values as contacts/plan.ts createdState makes them, the name `Unknown` and active unless the row
// says otherwise), so that where it is that contact's only row, and the import has no --group,
// the change's file takes the very bytes. A bit of its kind says which values the row set, so it
// is read back exactly as an update of a stored contact too. Any other row (a held cell, groups,
// an emptied field) is written as its RowSets.
import type { ImportRow } from '../api/schemas/index.js';
import { type RowSets, UNNAMED } from '../commands/contacts/plan.js';
import { importRowSets } from '../commands/imports/import-plan.js';
import type { ByteLog } from './byte-log.js';
import { createdLine } from './records.js';

/** The row is written as the record line of its new contact; else as its RowSets. */
const CREATED = 1;
/** Which values a row written as its new contact's set (the others are the new contact's own). */
const SETS = { name: 2, email: 4, gender: 8, status: 16, fields: 32 } as const;

/** Whether a row of this kind was written as the record line of the contact it creates. */
export const isCreated = (kind: number): boolean => (kind & CREATED) !== 0;

/** What a row sends, without what the run leaves out of it (`held`: plan keys, `fields.city`). */
function sentSets(value: ImportRow, held: readonly string[] | undefined): RowSets {
  const sets = importRowSets(value, undefined);
  for (const key of held ?? []) {
    if (key.startsWith('fields.') && sets.fields !== undefined) {
      const { [key.slice('fields.'.length)]: _held, ...others } = sets.fields;
      sets.fields = others;
    } else delete sets[key as 'name' | 'email' | 'gender'];
  }
  return sets;
}

/** Whether each field the row sets holds a value (an emptied one removes a stored value: no new contact's). */
function fieldsFilled(fields: Record<string, string> | undefined): boolean {
  if (fields === undefined) return true;
  for (const name in fields) if (fields[name] === '') return false;
  return true;
}

/** Writes what `value` sets into `log`; returns the row's kind, which rowSets needs to read it back. */
export function encodeRow(log: ByteLog, value: ImportRow, held: readonly string[] | undefined): number {
  if (held !== undefined || (value.contact_groups?.length ?? 0) > 0 || !fieldsFilled(value.fields)) {
    log.append(JSON.stringify(sentSets(value, held)));
    return 0;
  }
  const name = value.name !== undefined && value.name !== '';
  log.append(
    createdLine(value.number, name ? value.name! : UNNAMED, value.email ?? null, value.gender ?? null, value.status ?? true, value.fields),
  );
  return (
    CREATED |
    (name ? SETS.name : 0) |
    (value.email !== undefined ? SETS.email : 0) |
    (value.gender !== undefined ? SETS.gender : 0) |
    (value.status !== undefined ? SETS.status : 0) |
    (value.fields !== undefined ? SETS.fields : 0)
  );
}

/** The values of a created contact's record line as written (isCreated), in createdLine's order. */
const createdValues = (line: string) => JSON.parse(line) as Parameters<typeof createdLine>;

/** A created contact's record line as written (isCreated), with the import's --group `group` joined. */
export function withGroup(line: string, group: string): string {
  const [number, name, email, gender, status, fields] = createdValues(line);
  return createdLine(number, name, email, gender, status, fields, [group]);
}

/** What a row written by encodeRow sets, from its kind and its text. */
export function rowSets(kind: number, text: string): RowSets {
  if (!isCreated(kind)) return JSON.parse(text) as RowSets;
  const [, name, email, gender = null, status = true, fields = {}] = createdValues(text);
  const created = { name, email, gender, status, fields };
  const sets: RowSets = {};
  for (const key of Object.keys(SETS) as Array<keyof typeof SETS>)
    if ((kind & SETS[key]) !== 0) Object.assign(sets, { [key]: created[key] });
  return sets;
}
