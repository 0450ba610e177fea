/**
 * Import processing on the stand-in: a moment after the 201, the CSV's rows become contacts
 * (a new number creates one, a known number updates it; bad rows are skipped) and the import is
 * `completed`, or `failed` without a number column. It keeps no counters: the published API shows none.
 */
import { timestamp } from './http.js';
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

export function processImport(state: State, record: Row, text: string): void {
  const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
  const column = (name: string) => header?.indexOf(name) ?? -1;
  const numberAt = column('number');
  if (numberAt < 0) {
    record.status = 'failed';
    return;
  }
  for (const cells of rows) {
    const number = cells[numberAt]?.trim();
    if (!number || !/^\+?[\d\s\-().]{7,20}$/.test(number)) continue;
    const name = cells[column('name')] || 'Unknown';
    const email = cells[column('email')] || null;
    const existing = state.contacts.find((c) => c.number === number);
    if (existing) Object.assign(existing, { name, email, updated_at: timestamp() });
    else
      state.contacts.push({
        id: state.nextId++,
        number,
        name,
        email,
        gender: null,
        status: true,
        avatar: null,
        created_at: timestamp(),
        updated_at: timestamp(),
        deleted_at: null,
      });
  }
  record.status = 'completed';
  record.updated_at = timestamp();
}
