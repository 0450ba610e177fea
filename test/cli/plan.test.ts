/**
 * The plan of a file of contacts against the live workspace: what each row would do,
 * each change from -> to, and the changes that look made by a spreadsheet.
 */
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../src/api/schemas/index.js';
import { UsageError } from '../../src/cli/errors.js';
import { refuseRepeated } from '../../src/commands/contacts/bulk-merge.js';
import { liveContacts } from '../../src/commands/contacts/plan.js';
import { spreadsheetDamage } from '../../src/commands/contacts/spreadsheet-damage.js';
import { planImport } from '../../src/commands/contacts/plan-import.js';
import { planDelete, planUpdate } from '../../src/commands/contacts/plan-update.js';

const contact = (id: number, number: string, more: Partial<Contact> = {}): Contact => ({
  id,
  workspace_id: '2f1c9a52-8d1e-4c3b-9f10-6a7b8c9d0e1f',
  number,
  name: `C${id}`,
  email: null,
  gender: null,
  status: true,
  avatar_url: null,
  contact_groups: [],
  fields: {},
  created_at: 'T',
  updated_at: 'T',
  ...more,
});
const live = liveContacts([
  contact(1, '07700900123', { fields: { code: '0042' }, contact_groups: [{ id: 3, name: 'VIP' }] }),
  contact(2, '14155550102', { name: 'Bob', email: 'bob@example.com' }),
]);

describe('spreadsheetDamage', () => {
  it.each([
    ['0042', '42', '"0042" would lose its leading zeros, as a spreadsheet drops them'],
    [
      '12345678901234567890',
      '1.23457E+19',
      '"1.23457E+19" is in scientific notation, as a spreadsheet writes a long number: its last digits may be lost',
    ],
    ['7', '1,5E+3', '"1,5E+3" is in scientific notation, as a spreadsheet writes a long number: its last digits may be lost'],
    ['00000', '0', '"00000" would lose its leading zeros, as a spreadsheet drops them'],
    [
      '1234567890123457',
      '1234567890123460',
      '"1234567890123457" would become "1234567890123460": a spreadsheet keeps 15 significant digits of a number and rounds the rest to zeros',
    ],
    [
      '9999999999999999',
      '10000000000000000',
      '"9999999999999999" would become "10000000000000000": a spreadsheet keeps 15 significant digits of a number and rounds the rest to zeros',
    ],
    ['1234567890123457', '1234567890123458', undefined],
    ['123456789012345', '123456789012340', undefined],
    ['42', '0042', undefined],
    ['Bob', 'Robert', undefined],
    ['1E+5', '2E+5', undefined],
    [null, '42', undefined],
  ])('%s -> %s', (from, to, why) => {
    expect(spreadsheetDamage(from, to)).toBe(why);
  });
});

describe('planUpdate', () => {
  const rows = () => [
    { place: 'line 2', id: 1, sets: { name: 'C1', fields: { code: '42' }, groups: { names: ['VIP'], replace: true } } },
    {
      place: 'line 3',
      id: 2,
      sets: { name: 'Bob', email: 'bob@example.com', fields: { code: '' }, groups: { names: ['A', 'B'], replace: true } },
    },
    { place: 'line 4', id: 9, sets: { name: 'X' } },
    { place: 'line 5', errors: ['email: The email field must be a valid email address.'] },
  ];
  it('only what differs is a change; groups are replaced; an empty field value removes it; a missing id is invalid', () => {
    const plan = planUpdate(rows(), live, true);
    expect(plan).toMatchObject({ create: 0, update: 2, unchanged: 0, invalid: 2, suspicious: 1, held: 0 });
    expect(plan.contacts[0].changes).toEqual({ 'fields.code': { from: '0042', to: '42' } });
    expect(plan.contacts[0].suspicious).toEqual(['fields.code: "0042" would lose its leading zeros, as a spreadsheet drops them']);
    expect(plan.contacts[1].changes).toEqual({ contact_groups: { from: [], to: ['A', 'B'] } });
    expect(plan.contacts[2]).toMatchObject({ action: 'invalid', errors: ['there is no contact 9 in the workspace'] });
  });
  it('without --apply-flagged a change that looks made by a spreadsheet is held: the contact keeps the value, and with nothing else it is skipped', () => {
    const plan = planUpdate(rows(), live, false);
    expect(plan).toMatchObject({ update: 1, skipped: 1, invalid: 2, suspicious: 1, held: 1 });
    expect(plan.contacts[0]).toMatchObject({
      action: 'skipped',
      changes: {},
      held: { 'fields.code': { from: '0042', to: '42', why: '"0042" would lose its leading zeros, as a spreadsheet drops them' } },
    });
    expect(plan.contacts[0].after?.fields).toEqual({ code: '0042' });
  });
});

describe('planUpdate and planDelete where contacts were not read, or do not show groups and fields', () => {
  const unread = { ids: new Set([9]), why: 'the workspace holds over 10,000 contacts' };
  it('a contact not read is an update sent as its row gives it, never unchanged; a delete of it is sent, never called gone', () => {
    const rows = [
      { place: 'line 2', id: 1, sets: { name: 'C1' } },
      { place: 'line 3', id: 9, sets: { name: 'X', fields: { city: '' }, groups: { names: [], replace: true } } },
    ];
    const plan = planUpdate(rows, live, false, { unread });
    expect(plan).toMatchObject({ update: 1, unchanged: 1, not_read: 1 });
    expect(plan.contacts[1]).toMatchObject({
      action: 'update',
      unread: unread.why,
      changes: { name: { to: 'X' }, 'fields.city': { to: null }, contact_groups: { to: [] } },
    });
    expect(plan.contacts[1].changes.name.from).toBeUndefined();
    expect(planDelete(rows, live, unread)).toMatchObject({ delete: 2, absent: 0, not_read: 1 });
    expect(planDelete(rows, live)).toMatchObject({ delete: 1, absent: 1 });
  });
  it('groups and fields the contacts do not show: a value given is sent and said, never unchanged; an emptied one is counted, not sent', () => {
    const rows = [
      { place: 'line 2', id: 1, sets: { name: 'C1', groups: { names: ['VIP'], replace: true }, fields: { city: 'Oslo' } } },
      { place: 'line 3', id: 2, sets: { name: 'Bob', groups: { names: [], replace: true }, fields: { city: '' } } },
    ];
    const plan = planUpdate(rows, live, false, { shown: { contact_groups: false, fields: false } });
    expect(plan).toMatchObject({ update: 1, unchanged: 1, unsent_emptied: { contact_groups: 1, 'fields.city': 1 } });
    expect(plan.contacts[0]).toMatchObject({
      action: 'update',
      changes: {},
      not_shown: { contact_groups: ['VIP'], 'fields.city': 'Oslo' },
    });
    expect(plan.contacts[1]).toMatchObject({ action: 'unchanged', changes: {} });
  });
});

describe('planImport', () => {
  it('by number: update, unchanged or create; groups are joined, never left; a number equal but for leading zeros is flagged', () => {
    const plan = planImport(
      [
        { place: 'row 2', number: '07700900123', sets: { groups: { names: ['VIP'], replace: false } } },
        { place: 'row 3', number: '14155550102', sets: { name: 'Bobby', groups: { names: ['New'], replace: false } } },
        { place: 'row 4', number: '7700900123', sets: { name: 'Ann' } },
        { place: 'row 5', errors: ['number: The number must be a phone number of 7 to 15 digits.'] },
      ],
      live,
      { applyFlagged: true },
    );
    expect(plan).toMatchObject({ create: 1, update: 1, unchanged: 1, invalid: 1, suspicious: 1 });
    expect(plan.contacts[1].changes).toEqual({ name: { from: 'Bob', to: 'Bobby' }, contact_groups: { from: [], to: ['New'] } });
    expect(plan.contacts[2]).toMatchObject({ action: 'create', changes: { name: { from: null, to: 'Ann' } } });
    expect(plan.contacts[2].suspicious).toEqual([
      'number: "7700900123" would be a new contact beside contact 1, "07700900123": a spreadsheet may have dropped its leading zeros',
    ]);
  });
});

describe('planImport follows the import: rows in order, one contact per number', () => {
  it('rows naming one number are one contact: created by the first, updated by the others, shown with its end state', () => {
    const plan = planImport(
      [
        { place: 'row 2', number: '16505550001', sets: { name: 'Dup First', fields: { city: 'Oslo' } } },
        { place: 'row 3', number: '16505550001', sets: { name: 'Dup Second' }, emptied: ['fields.city'] },
        { place: 'row 4', number: '16505550001', sets: { name: 'Dup Third', fields: { city: 'Bergen' } } },
        { place: 'row 5', number: '14155550102', sets: { name: 'Robert' } },
        { place: 'row 6', number: '14155550102', sets: { name: 'Bob' }, emptied: ['email'] },
      ],
      live,
      { applyFlagged: false },
    );
    expect(plan).toMatchObject({ create: 1, update: 0, unchanged: 1, repeated: 2 });
    expect(plan.contacts).toHaveLength(2);
    expect(plan.contacts[0]).toMatchObject({
      place: 'rows 2, 3, 4',
      action: 'create',
      rows: [
        { place: 'row 2', does: 'create' },
        { place: 'row 3', does: 'update' },
        { place: 'row 4', does: 'update' },
      ],
      changes: { name: { from: null, to: 'Dup Third' }, 'fields.city': { from: null, to: 'Bergen' } },
      after: { name: 'Dup Third', status: true, fields: { city: 'Bergen' } },
    });
    // Row 3 left the city empty (kept Oslo), row 4 set Bergen: nothing said is kept in the end.
    expect(plan.contacts[0].kept).toBeUndefined();
    // Robert, then Bob again: the contact ends as it was.
    expect(plan.contacts[1]).toMatchObject({ place: 'rows 5, 6', action: 'unchanged', id: 2, kept: { email: 'bob@example.com' } });
  });
  it('a new number beside a padded one is left out whole unless --apply-flagged; a group the workspace lacks is named', () => {
    const plan = planImport(
      [{ place: 'row 2', number: '7700900123', sets: { name: 'Ann', groups: { names: ['VIP', 'New'], replace: false } } }],
      live,
      { applyFlagged: false, groups: new Set(['VIP']) },
    );
    expect(plan).toMatchObject({ create: 0, skipped: 1, held: 1, new_groups: [] });
    const applied = planImport(
      [{ place: 'row 2', number: '7700900123', sets: { name: 'Ann', groups: { names: ['VIP', 'New'], replace: false } } }],
      live,
      { applyFlagged: true, groups: new Set(['VIP']) },
    );
    expect(applied).toMatchObject({ create: 1, skipped: 0, held: 0, new_groups: ['New'] });
  });
});

describe('planImport on a server whose contacts do not show groups or fields', () => {
  const rows = [
    {
      place: 'row 2',
      number: '14155550102',
      sets: { name: 'Bob', groups: { names: ['VIP', 'New'], replace: false }, fields: { city: 'Oslo' } },
    },
    { place: 'row 3', number: '14155550102', sets: { groups: { names: ['News'], replace: false }, fields: { city: 'Bergen' } } },
    { place: 'row 4', number: '16505550009', sets: { name: 'Dan', fields: { city: 'Oslo' } } },
  ];
  it('such cells are said as sent, not as changes; a contact with no other change is unchanged; no group is promised', () => {
    const plan = planImport(rows, live, { applyFlagged: false, groups: new Set(['VIP']), shown: { contact_groups: false, fields: false } });
    expect(plan).toMatchObject({ create: 1, update: 0, unchanged: 1, new_groups: [], lacking_groups: ['New', 'News'] });
    expect(plan.not_shown).toEqual({ contact_groups: 2, 'fields.city': 3 });
    expect(plan.contacts[0]).toMatchObject({
      action: 'unchanged',
      changes: {},
      not_shown: { contact_groups: ['VIP', 'New', 'News'], 'fields.city': 'Bergen' },
      after: { contact_groups: [], fields: {} },
    });
    expect(plan.contacts[1]).toMatchObject({
      action: 'create',
      changes: { name: { from: null, to: 'Dan' } },
      not_shown: { 'fields.city': 'Oslo' },
    });
  });
  it('groups shown and fields not: the groups are planned and created, the fields said as sent', () => {
    const plan = planImport(rows, live, { applyFlagged: false, groups: new Set(['VIP']), shown: { contact_groups: true, fields: false } });
    expect(plan).toMatchObject({ create: 1, update: 1, new_groups: ['New', 'News'], not_shown: { 'fields.city': 3 } });
    expect(plan.lacking_groups).toBeUndefined();
    expect(plan.contacts[0].changes).toEqual({ contact_groups: { from: [], to: ['VIP', 'New', 'News'] } });
  });
  it('a stored value written decomposed is no change from the same text composed', () => {
    const decomposed = liveContacts([contact(5, '14155550105', { name: 'Zoe\u0308', fields: { city: 'Tromso\u0308' } })]);
    const plan = planImport(
      [{ place: 'row 2', number: '14155550105', sets: { name: 'Zo\u00eb', fields: { city: 'Troms\u00f6' } } }],
      decomposed,
      {
        applyFlagged: false,
      },
    );
    expect(plan.contacts[0]).toMatchObject({ action: 'unchanged', changes: {} });
  });
});

describe('planDelete', () => {
  it('each id is deleted or already absent', () => {
    expect(
      planDelete(
        [
          { place: 'line 1', id: 2 },
          { place: 'line 2', id: 5 },
        ],
        live,
      ),
    ).toMatchObject({
      delete: 1,
      absent: 1,
      contacts: [
        { action: 'delete', number: '14155550102' },
        { action: 'absent', number: null },
      ],
    });
  });
});

describe('refuseRepeated (--strict of update|delete --from)', () => {
  const item = (id: string, line: number) => ({ id, line, where: `line ${line}` });
  it('passes a file naming each contact once; names the first three repeated contacts in one line and counts the rest', () => {
    expect(() => refuseRepeated([item('1', 1), item('2', 2)], 'ids.txt')).not.toThrow();
    const ids = ['1', '2', '3', '4', '5', '1', '2', '3', '4', '5', '6'];
    expect(() =>
      refuseRepeated(
        ids.map((id, at) => item(id, at + 1)),
        'ids.txt',
      ),
    ).toThrow(
      new UsageError(
        'ids.txt names contact 1 on lines 1 and 6; contact 2 on lines 2 and 7; contact 3 on lines 3 and 8; 2 more contacts (--strict refuses a contact named twice): nothing was sent',
      ),
    );
  });
});
