// The plan of a file of contacts against the live workspace (Terraform's plan as the
// model; docs/import-file.md "Plans"): per contact, create / update / unchanged / invalid (delete / absent for a delete), and
// for an update each field that changes, `from` -> `to`. Changes that look made by a spreadsheet
// (leading zeros lost, a value in scientific notation, a new number equal to a contact's but for
// its leading zeros) are flagged. Pure: the rows come in read from any file format, the live
// contacts as the list gives them; plan-render.ts prints it, the verbs decide on it.
import { isScientificNotation } from '../../formats/csv/cells.js';
import { normalizeNumber, type Contact } from '../../api/schemas/index.js';

type PlanAction = 'create' | 'update' | 'unchanged' | 'invalid' | 'delete' | 'absent';

/** What one row of the file asks for, whatever the file's format. */
export interface PlanRow {
  /** Where the row is, as messages name it (`row 3`, `line 3`). */
  place: string;
  /** The contact it names: an id (update, delete) or, for an import, its number (an update's is compared, never sent). */
  id?: number;
  number?: string;
  /** The values it sets; a value not given is left as it is. */
  sets?: {
    name?: string;
    email?: string | null;
    gender?: string | null;
    status?: boolean;
    fields?: Record<string, string>;
    /** Group names: joined (an import) or the contact's groups from now on (an update). */
    groups?: { names: string[]; replace: boolean };
  };
  /** Why the row cannot be applied (the local check's messages). */
  errors?: string[];
}

interface Change {
  from: unknown;
  to: unknown;
}

export interface PlannedContact {
  place: string;
  action: PlanAction;
  id: number | null;
  number: string | null;
  /** By field: `name`, `email`, `status`, `contact_groups`, `fields.<name>`. */
  changes: Record<string, Change>;
  /** Why a change looks made by a spreadsheet (a real run asks before applying it). */
  suspicious: string[];
  errors?: string[];
  /** What the row asks that the run will not do (an update's other number). */
  notes?: string[];
}

export interface Plan {
  create: number;
  update: number;
  unchanged: number;
  invalid: number;
  delete?: number;
  absent?: number;
  /** Contacts with a change that looks made by a spreadsheet. */
  suspicious: number;
  contacts: PlannedContact[];
}

/** The live contacts, looked up by id and by number. */
export interface LiveContacts {
  byId: Map<number, Contact>;
  byNumber: Map<string, Contact>;
  /** Numbers by their digits without leading zeros, where that differs from the number. */
  byUnpadded: Map<string, Contact>;
}

export function liveContacts(contacts: Iterable<Contact>): LiveContacts {
  const live: LiveContacts = { byId: new Map(), byNumber: new Map(), byUnpadded: new Map() };
  for (const contact of contacts) {
    live.byId.set(Number(contact.id), contact);
    live.byNumber.set(String(contact.number), contact);
    const unpadded = String(contact.number).replace(/^0+/, '');
    if (unpadded !== String(contact.number)) live.byUnpadded.set(unpadded, contact);
  }
  return live;
}

/** Why changing `from` to `to` looks made by a spreadsheet, if it does. */
export function spreadsheetDamage(from: unknown, to: unknown): string | undefined {
  if (typeof to !== 'string') return undefined;
  const before = typeof from === 'string' ? from : '';
  if (isScientificNotation(to) && !isScientificNotation(before))
    return `"${to}" is in scientific notation, as a spreadsheet writes a long number: its last digits may be lost`;
  if (/^0+\d+$/.test(before) && to === (before.replace(/^0+/, '') || '0'))
    return `"${before}" would lose its leading zeros, as a spreadsheet drops them`;
  if (/^\d{16,}$/.test(before) && before !== to && to === roundedTo15Digits(before))
    return `"${before}" would become "${to}": a spreadsheet keeps 15 significant digits of a number and rounds the rest to zeros`;
  return undefined;
}

/** A run of digits as a spreadsheet keeps it as a number: its first 15 significant digits, rounded, the rest zeros. */
function roundedTo15Digits(digits: string): string {
  const lead = digits.match(/^0*/)![0];
  const significant = digits.slice(lead.length);
  if (significant.length <= 15) return digits;
  const kept = BigInt(significant.slice(0, 15)) + (Number(significant[15]) >= 5 ? 1n : 0n);
  const rounded = `${kept}${'0'.repeat(significant.length - 15)}`;
  return rounded.slice(0, significant.length + (String(kept).length > 15 ? 1 : 0));
}

const groupNames = (contact: Contact) => (contact.contact_groups ?? []).map((group) => group.name);
const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join('\0') === [...b].sort().join('\0');

/** What applying `row` would change on `contact`. */
function changesOf(row: PlanRow, contact: Contact): Record<string, Change> {
  const changes: Record<string, Change> = {};
  const sets = row.sets ?? {};
  const compare = (key: string, from: unknown, to: unknown) => {
    if (to !== undefined && (from ?? null) !== to) changes[key] = { from: from ?? null, to };
  };
  compare('name', contact.name, sets.name);
  compare('email', contact.email, sets.email);
  compare('gender', contact.gender, sets.gender);
  compare('status', contact.status, sets.status);
  for (const [name, value] of Object.entries(sets.fields ?? {})) {
    // An empty value removes the field (the API's rule); a field the contact lacks is from null.
    compare(`fields.${name}`, contact.fields?.[name], value === '' ? null : value);
  }
  if (sets.groups !== undefined) {
    const before = groupNames(contact);
    const after = sets.groups.replace ? sets.groups.names : [...new Set([...before, ...sets.groups.names])];
    if (!sameSet(before, after)) changes.contact_groups = { from: before, to: after };
  }
  return changes;
}

function suspiciousOf(changes: Record<string, Change>): string[] {
  return Object.entries(changes).flatMap(([key, change]) => {
    const why = spreadsheetDamage(change.from, change.to);
    return why === undefined ? [] : [`${key}: ${why}`];
  });
}

/** What one row of an import does: it updates the contact with its number, or creates one. */
export function plannedImport(row: PlanRow, live: LiveContacts): PlannedContact {
  const number = row.number ?? null;
  if (row.errors !== undefined)
    return { place: row.place, action: 'invalid', id: null, number, changes: {}, suspicious: [], errors: row.errors };
  const contact = number === null ? undefined : live.byNumber.get(number);
  if (contact !== undefined) return planned(row, contact);
  const near = number === null ? undefined : live.byUnpadded.get(number.replace(/^0+/, ''));
  const changes = createdValues(row);
  const beside =
    near === undefined
      ? []
      : [
          `number: "${number}" would be a new contact beside contact ${near.id}, "${near.number}": a spreadsheet may have dropped its leading zeros`,
        ];
  return { place: row.place, action: 'create', id: null, number, changes, suspicious: [...beside, ...suspiciousOf(changes)] };
}

/** An import's plan: each row as plannedImport reads it. */
export function planImport(rows: Iterable<PlanRow>, live: LiveContacts): Plan {
  return tally([...rows].map((row) => plannedImport(row, live)));
}

/** An update's plan (`contacts update --from`): each row names its contact by id. */
export function planUpdate(rows: Iterable<PlanRow>, live: LiveContacts): Plan {
  return tally(
    [...rows].map((row): PlannedContact => {
      if (row.errors !== undefined)
        return { place: row.place, action: 'invalid', id: row.id ?? null, number: null, changes: {}, suspicious: [], errors: row.errors };
      const contact = live.byId.get(row.id!);
      if (contact === undefined)
        return {
          place: row.place,
          action: 'invalid',
          id: row.id!,
          number: null,
          changes: {},
          suspicious: [],
          errors: [`there is no contact ${row.id} in the workspace`],
        };
      return withNumberNote(planned(row, contact), row.number);
    }),
  );
}

/** An update's row with a number other than the contact's: the published API changes no number on update, so the plan says it is left. */
function withNumberNote(contact: PlannedContact, number: string | undefined): PlannedContact {
  if (number === undefined || contact.number === null || normalizeNumber(number) === contact.number) return contact;
  const note = `the number "${number}" is not applied: an update does not change a contact's number`;
  return { ...contact, notes: [note] };
}

/** A delete's plan (`contacts delete --from`): each id deleted, or already absent. */
export function planDelete(rows: Iterable<PlanRow>, live: LiveContacts): Plan {
  return tally(
    [...rows].map((row): PlannedContact => {
      const contact = live.byId.get(row.id!);
      return {
        place: row.place,
        action: contact === undefined ? 'absent' : 'delete',
        id: row.id!,
        number: contact === undefined ? null : String(contact.number),
        changes: {},
        suspicious: [],
      };
    }),
  );
}

function planned(row: PlanRow, contact: Contact): PlannedContact {
  const changes = changesOf(row, contact);
  const action = Object.keys(changes).length === 0 ? 'unchanged' : 'update';
  return { place: row.place, action, id: Number(contact.id), number: String(contact.number), changes, suspicious: suspiciousOf(changes) };
}

/** A new contact's values, each from nothing. */
function createdValues(row: PlanRow): Record<string, Change> {
  const changes: Record<string, Change> = {};
  const sets = row.sets ?? {};
  for (const key of ['name', 'email', 'gender', 'status'] as const)
    if (sets[key] !== undefined) changes[key] = { from: null, to: sets[key] };
  for (const [name, value] of Object.entries(sets.fields ?? {})) changes[`fields.${name}`] = { from: null, to: value };
  if (sets.groups !== undefined && sets.groups.names.length > 0) changes.contact_groups = { from: [], to: sets.groups.names };
  return changes;
}

function tally(contacts: PlannedContact[]): Plan {
  const count = (action: PlanAction) => contacts.filter((contact) => contact.action === action).length;
  const plan: Plan = {
    create: count('create'),
    update: count('update'),
    unchanged: count('unchanged'),
    invalid: count('invalid'),
    suspicious: 0,
    contacts,
  };
  if (contacts.some((contact) => contact.action === 'delete' || contact.action === 'absent'))
    Object.assign(plan, { delete: count('delete'), absent: count('absent') });
  plan.suspicious = contacts.filter((contact) => contact.suspicious.length > 0).length;
  return plan;
}
