/**
 * Import processing on the stand-in: a moment after the 201, the CSV's rows become contacts
 * (processImport says how) and the import is `completed`, or `failed` without a number column.
 * It keeps no counters: the published API shows none.
 */
import { characters, timestamp } from './http.js';
import type { Row, State } from './routes.js';

/** A plain CSV reader (quotes and commas inside quotes): enough for the tests' files. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(cell), (cell = '');
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell), rows.push(row), (row = []), (cell = '');
    } else cell += ch;
  }
  if (cell !== '' || row.length) row.push(cell), rows.push(row);
  return rows.filter((r) => r.some((c) => c !== ''));
}

/** A number as contacts are matched by it: spaces, dashes, dots, parentheses and a leading + taken off. */
const normalised = (number: string) =>
  number
    .trim()
    .replace(/[\s\-.()]/g, '')
    .replace(/^\+/, '');
const BOOLEANS: Record<string, boolean> = {
  true: true,
  yes: true,
  '1': true,
  active: true,
  false: false,
  no: false,
  '0': false,
  inactive: false,
};
const GENDERS = ['male', 'female', 'other'];

/** The values a row sets (its non-empty cells), or undefined for a row the import skips. */
function rowValues(cell: (name: string) => string): Record<string, unknown> | undefined {
  const values: Record<string, unknown> = {};
  const name = cell('name');
  if (characters(name) > 50) return undefined;
  if (name !== '') values.name = name;
  const email = cell('email');
  if (email !== '' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) return undefined;
  if (email !== '') values.email = email;
  const gender = cell('gender').toLowerCase();
  if (gender !== '' && !GENDERS.includes(gender)) return undefined;
  if (gender !== '') values.gender = gender;
  const status = cell('status').toLowerCase();
  if (status !== '' && BOOLEANS[status] === undefined) return undefined;
  if (status !== '') values.status = BOOLEANS[status];
  return values;
}

/**
 * The rules wsm's docs give an import (the published API shows none): rows in order, a contact matched by its
 * number as stored without spaces, dashes, dots, parentheses or a leading +; a new number creates
 * a contact (`Unknown` without a name, active unless the row says otherwise), a known one is
 * updated with the row's non-empty cells; a bad row is skipped. Groups and fields are not kept.
 */
export function processImport(state: State, record: Row, text: string): void {
  const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
  const names = (header ?? []).map((name) => name.trim().toLowerCase());
  const numberAt = names.indexOf('number');
  if (numberAt < 0) {
    record.status = 'failed';
    return;
  }
  for (const cells of rows) {
    const cell = (name: string) => (names.indexOf(name) < 0 ? '' : (cells[names.indexOf(name)] ?? '').trim());
    const number = normalised(cell('number'));
    const values = rowValues(cell);
    if (!/^\d{7,15}$/.test(number) || values === undefined) continue;
    const existing = state.contacts.find((c) => normalised(String(c.number)) === number);
    if (existing) Object.assign(existing, values, { updated_at: timestamp() });
    else
      state.contacts.push({
        id: state.nextId++,
        number,
        name: 'Unknown',
        email: null,
        gender: null,
        status: true,
        avatar: null,
        ...values,
        created_at: timestamp(),
        updated_at: timestamp(),
        deleted_at: null,
      } as Row);
  }
  record.status = 'completed';
  record.updated_at = timestamp();
}
