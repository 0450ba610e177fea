/**
 * Plan = apply as a property: for a generated workspace and a generated file (one number written
 * several ways, padded ids, emptied cells, unknown ids, spreadsheet damage, a new contact whose one
 * name cell is held, one new number with and without its leading zeros before or after each
 * other, invalid cells, group and custom field cells (one not JSON), a name written decomposed; CSV or .xlsx; as
 * it is, with --apply-flagged or --strict), the contacts the plan of `--dry-run -o json` predicts
 * are the contacts the real run leaves, contact by contact: both the contact it says each leaves
 * (`after`) and the stored contact with the changes it shows (a new contact from nothing, active).
 * Contacts are compared as the contract compares them (text NFC); on the stand-in, whose contacts
 * show no groups or fields, the plan promises none. And the run holds the rules the plan states:
 * without --apply-flagged no new number stands beside one with more leading zeros, nor is made of
 * a number cell written as a decimal (`14155550104.00`), and a second plan
 * after the run has nothing to create or update. The workspace is set through the API; the plan
 * and the run are the CLI's (wsmInProcess against the real server).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { writeExcelLike } from '../formats/xlsx/excel-like.js';
import type { Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';

/** A contact as the list gives it, the values a plan predicts. */
export interface Stored {
  id: number;
  number: string;
  name: string;
  email: string | null;
  gender: string | null;
  status: boolean;
}
type Seed = Omit<Stored, 'id'>;

const NUMBERS = ['14155550101', '14155550102', '07700900123', '14155550104'];
// Zoë composed, as stored; the file may write it decomposed (the contract compares NFC).
const NAMES = ['Ann', 'Bob', '007', '1234567890123457', 'Zo\u00eb'];
const EMAILS = [null, 'a@example.com', 'b@example.com'];
const GENDERS = [null, 'male', 'female'];

/** A number as an operator or a spreadsheet may write it. */
const writtenNumber = fc.oneof(
  fc.constantFrom(...NUMBERS),
  fc.constantFrom(...NUMBERS).map((n) => `+${n.slice(0, 1)} ${n.slice(1, 4)} ${n.slice(4, 7)}-${n.slice(7)}`),
  fc.constantFrom(...NUMBERS).map((n) => `(${n.slice(0, 4)}) ${n.slice(4)}`),
  fc.constant('(0) 7700 900123'), // its leading zero kept apart
  fc.constant('7700900123'), // its leading zero dropped
  fc.constant('007700900123'), // a zero more than the stored one: another number
  fc.constant('14155550104.00'), // a spreadsheet's decimal: a new number, left out unless --apply-flagged
  fc.constant('1.41556E+10'), // scientific notation: an invalid row
  fc.constant('12'), // too short: an invalid row
);
const nameCell = fc.constantFrom('', 'Ann', 'Bob', 'Cid', '7', '1.23457E+16', '1234567890123460', '007', 'Zoe\u0308', 'Zo\u00eb');
const emailCell = fc.constantFrom('', 'c@example.com', 'a@example.com', 'not-mail');
const genderCell = fc.constantFrom('', 'Female', 'male', 'other', 'robot');
const statusCell = fc.constantFrom('', 'TRUE', 'false', 'no');
// Groups and a custom field: planned as changes on wsm serve, said as sent on the stand-in, whose contacts show neither.
// A groups cell that is no JSON array: an invalid row on wsm serve, sent as written (its row created) on the stand-in.
const groupsCell = fc.constantFrom('', '[]', '["VIP"]', '["VIP","News"]', 'not-json');
const cityCell = fc.constantFrom('', 'Oslo', 'Bergen');

const seedArb = fc.uniqueArray(
  fc.record({
    number: fc.constantFrom(...NUMBERS),
    name: fc.constantFrom(...NAMES),
    email: fc.constantFrom(...EMAILS),
    gender: fc.constantFrom(...GENDERS),
    status: fc.boolean(),
  }),
  { selector: (seed) => seed.number, maxLength: 4 },
);

/** A generated case: the workspace's contacts, the verb, the file's format and its rows for each verb. */
export interface Generated {
  seeds: Seed[];
  verb: 'import' | 'update';
  xlsx: boolean;
  /** The flags of the dry run and the run alike. */
  flags: string[];
  importRows: string[][];
  updateRows: Array<[{ at: number; pad: string }, string, string, string]>;
}

const importRows = fc.array(fc.tuple(writtenNumber, nameCell, emailCell, genderCell, statusCell, groupsCell, cityCell), {
  minLength: 1,
  maxLength: 6,
});
/** An update's id: a contact's (by its place in the workspace), padded with zeros, or one the workspace lacks. */
const updateId = fc.oneof(
  fc.nat({ max: 3 }).map((at) => ({ at, pad: '' })),
  fc.nat({ max: 3 }).map((at) => ({ at, pad: '00' })),
  fc.constant({ at: -1, pad: '' }),
);
const updateRows = fc.array(
  fc.tuple(
    updateId,
    nameCell,
    emailCell.filter((e) => e !== 'not-mail'),
    genderCell.filter((g) => g !== 'robot'),
  ),
  {
    minLength: 1,
    maxLength: 5,
  },
);

export const caseArb: fc.Arbitrary<Generated> = fc.record({
  seeds: seedArb,
  verb: fc.constantFrom('import' as const, 'update' as const),
  xlsx: fc.boolean(),
  flags: fc.constantFrom([], [], ['--apply-flagged'], ['--strict']),
  importRows,
  updateRows,
});

const csvText = (rows: string[][]) =>
  rows.map((cells) => cells.map((cell) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',')).join('\n') + '\n';

async function api(backend: Backend, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${backend.url}/workspaces/${backend.workspace}${path}`, {
    method,
    headers: { authorization: `Bearer ${backend.token}`, 'content-type': 'application/json', accept: 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function contacts(backend: Backend): Promise<Stored[]> {
  const all: Stored[] = [];
  for (let page = 1; ; page++) {
    const body = (await api(backend, 'GET', `/contacts?page=${page}&per_page=100`)) as { data: Stored[] };
    all.push(...body.data.map((c) => ({ ...c, id: Number(c.id) })));
    if (body.data.length < 100) return all;
  }
}

/** The workspace as the case says: every contact deleted, the seeds created; the field `city` there. */
async function seed(backend: Backend, seeds: Seed[]): Promise<Stored[]> {
  const fields = (await api(backend, 'GET', '/contact-fields?per_page=100')) as { data: Array<{ name: string }> };
  if (!fields.data.some((field) => field.name === 'city')) await api(backend, 'POST', '/contact-fields', { name: 'city' });
  for (const contact of await contacts(backend)) await api(backend, 'DELETE', `/contacts/${contact.id}`);
  for (const { status, ...body } of seeds) {
    const created = (await api(backend, 'POST', '/contacts', body)) as { data: { id: number } };
    if (!status) await api(backend, 'POST', `/contacts/${created.data.id}`, { name: body.name, status: false });
  }
  return contacts(backend);
}

type View = {
  name: unknown;
  email: unknown;
  gender: unknown;
  status: unknown;
  contact_groups?: unknown[];
  fields?: Record<string, unknown>;
};
/** A contact's values as the contract compares them: text NFC, groups by name in any order (the list gives `{id, name}`, a plan names). */
const view = (c: View) => ({
  name: typeof c.name === 'string' ? c.name.normalize('NFC') : c.name,
  email: c.email ?? null,
  gender: c.gender ?? null,
  status: Boolean(c.status),
  contact_groups: (c.contact_groups ?? []).map((group) => (typeof group === 'string' ? group : (group as { name: string }).name)).sort(),
  fields: c.fields ?? {},
});
const normalised = (number: string) => number.replace(/[\s\-.()]/g, '').replace(/^\+/, '');

interface Planned {
  action: string;
  id: number | null;
  number: string | null;
  changes: Record<string, { to: unknown }>;
  after?: View;
  not_shown?: Record<string, unknown>;
}

/** A contact as the plan's lines show it: the stored one (a new one: nothing, active) with each change shown. */
function shown(contact: Planned, stored: Stored | undefined): ReturnType<typeof view> {
  const base: View = stored ?? { name: null, email: null, gender: null, status: true };
  const to = (key: keyof View) => (key in contact.changes ? contact.changes[key].to : base[key]);
  const fields: Record<string, unknown> = { ...base.fields };
  for (const [key, change] of Object.entries(contact.changes))
    if (key.startsWith('fields.') && change.to === null) delete fields[key.slice('fields.'.length)];
    else if (key.startsWith('fields.')) fields[key.slice('fields.'.length)] = change.to;
  const groups = to('contact_groups') as unknown[] | undefined;
  return view({ name: to('name'), email: to('email'), gender: to('gender'), status: to('status'), contact_groups: groups, fields });
}

/** A number the run created beside one with the same digits and leading zeros: what the plan's rule leaves out unless --apply-flagged. */
function twinsCreated(live: Stored[], found: Stored[]): string[] {
  const before = new Set(live.map((c) => normalised(c.number)));
  const padded = new Set(
    found
      .map((c) => normalised(c.number))
      .filter((n) => n.startsWith('0'))
      .map((n) => n.replace(/^0+/, '')),
  );
  return found.map((c) => normalised(c.number)).filter((n) => !before.has(n) && !n.startsWith('0') && padded.has(n));
}

/** A new number the run made of a cell written as a spreadsheet's decimal (`14155550104.00`): what the plan's rule leaves out unless --apply-flagged. */
function decimalsCreated(live: Stored[], found: Stored[], rows: string[][]): string[] {
  const before = new Set(live.map((c) => normalised(c.number)));
  const decimals = new Set(
    rows
      .map(([number]) => number)
      .filter((cell) => /^\d+\.0+$/.test(cell.trim()))
      .map(normalised),
  );
  return found.map((c) => normalised(c.number)).filter((n) => !before.has(n) && decimals.has(n));
}

/**
 * Runs one case: the plan, then the run; by number, the contacts the plan predicts (its `after`),
 * those its changes show, and those found; and the new numbers found beside padded twins or made of a decimal cell.
 */
export async function checkCase(
  backend: Backend,
  dir: string,
  value: Generated,
): Promise<{
  predicted: Record<string, unknown>;
  shown: Record<string, unknown>;
  found: Record<string, unknown>;
  twins: string[];
  plan: unknown;
  file: string;
  /** What a second plan, after the run, would still create and update: nothing. */
  again: { create: number; update: number };
}> {
  const live = await seed(backend, value.seeds);
  const rows =
    value.verb === 'import'
      ? [['number', 'name', 'email', 'gender', 'status', 'contact_groups', 'city'], ...value.importRows]
      : [
          ['id', 'name', 'email', 'gender'],
          ...value.updateRows.map(([{ at, pad }, name, email, gender]) => {
            const id = at >= 0 && at < live.length ? String(live[at].id) : '999999';
            return [`${pad}${id}`, name, email, gender];
          }),
        ];
  const file = join(dir, `case.${value.xlsx ? 'xlsx' : 'csv'}`);
  if (value.xlsx)
    await writeExcelLike(file, [
      { name: 'Sheet1', rows: Object.fromEntries(rows.map((cells, i) => [i + 1, cells.map((c) => (c === '' ? null : c))])) },
    ]);
  else writeFileSync(file, csvText(rows));
  const text = [...value.flags, ...rows.map((r) => r.join(','))].join('\n');
  const args = [...(value.verb === 'import' ? ['contacts', 'import', file] : ['contacts', 'update', '--from', file]), ...value.flags];
  const dry = await wsmInProcess(backend.env, [...args, '--dry-run', '-o', 'json']);
  const storedView = Object.fromEntries(live.map((c) => [normalised(c.number), view(c)]));
  const predicted: Record<string, unknown> = { ...storedView };
  const shownNow: Record<string, unknown> = { ...storedView };
  // Exit 2: no valid row, or --strict refusing the file: the run sends nothing either.
  const plan = dry.code === 2 ? dry.stderr : (JSON.parse(dry.stdout) as { contacts: Planned[] });
  if (typeof plan !== 'string')
    for (const contact of plan.contacts) {
      if (contact.after === undefined || contact.number === null) continue;
      const key = normalised(contact.number);
      predicted[key] = view(contact.after);
      shownNow[key] = shown(
        contact,
        live.find((c) => normalised(c.number) === key),
      );
    }
  const real = await wsmInProcess(backend.env, [...args, ...(value.verb === 'import' ? ['--wait', '--interval', '0.05s'] : []), '-q']);
  if (dry.code === 2 && real.code !== 2) throw new Error(`the dry run refused the file, the run did not (${real.code}): ${real.stderr}`);
  if (real.code !== 0 && real.code !== 8 && dry.code !== 2) throw new Error(`the run failed (${real.code}): ${real.stderr}`);
  const after = await contacts(backend);
  const found = Object.fromEntries(after.map((c) => [normalised(c.number), view(c)]));
  const twins = value.flags.includes('--apply-flagged')
    ? []
    : [...twinsCreated(live, after), ...(value.verb === 'import' ? decimalsCreated(live, after, value.importRows) : [])];
  const second = dry.code === 2 ? undefined : await wsmInProcess(backend.env, [...args, '--dry-run', '-o', 'json']);
  const { create, update } =
    second === undefined ? { create: 0, update: 0 } : (JSON.parse(second.stdout) as { create: number; update: number });
  return { predicted, shown: shownNow, found, twins, plan, file: text, again: { create, update } };
}
