/**
 * The undo of a resource record, planned against the record as it is now (pure): the fields set
 * back are the update body's (a user's `role_id` from its `role`), a password is never set back,
 * a record changed since is flagged unless forced, and what the server cannot invert is said per
 * record and counted. A group an import made is the change's only while the undo's contact steps
 * leave it empty.
 */
import { describe, expect, it } from 'vitest';
import { DESCRIPTIONS } from '../../src/api/descriptions/index.js';
import type { ResourceKey } from '../../src/api/descriptions/catalog.js';
import type { ResourceRecord } from '../../src/journal/records.js';
import type { ResourceImage } from '../../src/journal/resource-image.js';
import { type LiveResources, liveKey, type NotUndone, type ResourceStep, resourceInverse } from '../../src/journal/resource-inverse.js';
import type { UndoStep } from '../../src/journal/inverse.js';
import type { Contact } from '../../src/api/schemas/index.js';
import type { ReadRecord } from '../../src/journal/resource-read.js';

function plan(
  record: ResourceRecord,
  now: ReadRecord,
  options: { force?: boolean; offered?: Record<string, boolean>; holder?: number } = {},
) {
  const live: LiveResources = {
    descriptions: new Map(Object.entries(DESCRIPTIONS) as Array<[ResourceKey, (typeof DESCRIPTIONS)[ResourceKey]]>),
    records: new Map([[liveKey(record), now]]),
    offered: new Map(Object.entries(options.offered ?? {})),
    holders: new Map(
      options.holder === undefined ? [] : [[liveKey(record), { field: 'name', value: record.before?.name ?? null, id: options.holder }]],
    ),
  };
  const cannot = { count: 0 };
  const steps: ResourceStep[] = [];
  const planned = resourceInverse(live, options.force ?? false, cannot)(record, 'record 1', steps);
  return { planned, steps, cannot: cannot.count };
}

const user = (name: string, role: number): ResourceImage => ({
  id: 7,
  name,
  email: 'ann@example.com',
  timezone: 'UTC',
  status: true,
  client: false,
  avatar_url: null,
  role: { id: role, name: `Role ${role}` },
});
const record = (
  resource: ResourceKey,
  op: ResourceRecord['op'],
  before: ResourceImage | null,
  after: ResourceImage | null,
): ResourceRecord => ({
  kind: 'resource',
  resource,
  op,
  id: 7,
  before,
  after,
});

describe('the undo of a resource record', () => {
  it("a user's update: name and role set back (role_id from its role), the password said not kept and counted", () => {
    const { planned, steps, cannot } = plan(
      { ...record('users', 'update', user('Ann', 1), user('Bob', 2)), unkept: ['password'] },
      { image: user('Bob', 2) },
    );
    expect(planned).toMatchObject({
      action: 'update',
      label: 'user 7',
      changes: { name: { from: 'Bob', to: 'Ann' }, role_id: { from: 2, to: 1 } },
      notes: ['password: not kept by the journal, not set back'],
    });
    expect(steps).toEqual([
      { op: 'resource', does: 'update', resource: 'users', id: 7, body: { name: 'Ann', role_id: 1 }, before: user('Bob', 2) },
    ]);
    expect(cannot).toBe(1);
  });

  it('a value already back is not sent; one changed since is flagged, and set back with force', () => {
    expect(
      plan(record('labels', 'update', { name: 'A', color: null }, { name: 'B', color: null }), { image: { name: 'A', color: null } })
        .planned.action,
    ).toBe('unchanged');
    const changed = record('labels', 'update', { name: 'A', color: null }, { name: 'B', color: null });
    const flagged = plan(changed, { image: { name: 'C', color: null } });
    expect([flagged.planned.action, flagged.steps.length, flagged.cannot]).toEqual(['skipped', 0, 0]);
    expect(flagged.planned.notes).toEqual([
      'changed since: name is "C" now, neither "B" (the change\'s) nor "A" (before it); left as it is (--force sets it back)',
    ]);
    expect(plan(changed, { image: { name: 'C', color: null } }, { force: true }).steps[0]).toMatchObject({ body: { name: 'A' } });
  });

  it('a create whose delete the server lacks cannot be undone, said and counted; where it has one, it is deleted', () => {
    const made = record('groups', 'create', null, { name: 'Team', contacts_count: 0 });
    const lacking = plan(made, { image: { name: 'Team', contacts_count: 3 } }, { offered: { 'groups.delete': false } });
    expect(lacking.planned).toMatchObject({
      action: 'skipped',
      notes: ['cannot be undone: this server has no delete for contact groups (an extension of wsm serve the published API lacks)'],
    });
    expect(lacking.cannot).toBe(1);
    // contacts_count is the server's, not the change's: a group that gained members is no group changed since.
    expect(plan(made, { image: { name: 'Team', contacts_count: 3 } }).steps).toMatchObject([{ does: 'delete', id: 7 }]);
    expect(plan(record('users', 'create', null, user('Ann', 1)), { image: user('Ann', 1) }).planned.notes).toEqual([
      'cannot be undone: the API has no delete for users',
    ]);
  });

  it('a delete made again from its create body; a template or an import deleted cannot be', () => {
    const group = plan(record('groups', 'delete', { name: 'Team', contacts_count: 4 }, null), { gone: true });
    expect(group.steps).toEqual([
      { op: 'resource', does: 'create', resource: 'groups', id: null, body: { name: 'Team' }, before: null, was: 7 },
    ]);
    expect(group.planned.notes).toEqual([
      'was contact group 7: created again with a new id',
      'the contacts that were in it are not put back in it',
    ]);
    expect(plan(record('templates', 'delete', { name: 'x' }, null), { gone: true }).planned.notes?.[0]).toMatch(
      /^cannot be undone: a template deleted at the provider cannot be brought back/,
    );
    expect(plan(record('imports', 'delete', { id: 7 }, null), { gone: true }).cannot).toBe(1);
  });

  it('an update without a before-image cannot be undone, and says why it had none', () => {
    const { planned, cannot } = plan(
      { ...record('labels', 'update', null, { name: 'B' }), unknown: 'label 7: not found before the change' },
      { gone: true },
    );
    expect([planned.notes, cannot]).toEqual([['cannot be undone: label 7: not found before the change'], 1]);
  });

  it('a deleted record whose name another holds now is flagged, not sent, whatever --force says, and is no failure', () => {
    const field = record('fields', 'delete', { id: 7, name: 'city' }, null);
    for (const force of [false, true])
      expect(plan(field, { gone: true }, { force, holder: 9 })).toEqual({
        planned: expect.objectContaining({ action: 'skipped', notes: ['its name "city" is contact field 9\'s now: not made again'] }),
        steps: [],
        cannot: 0,
      });
    expect(plan(field, { gone: true }).steps).toMatchObject([{ does: 'create', body: { name: 'city' }, was: 7 }]);
  });

  it("a group an import made: deleted once the undo's contact steps leave it empty, else flagged; on a server without its delete, it stays, said", () => {
    const made: ResourceRecord = { ...record('groups', 'create', null, { id: 7, name: 'NewG', contacts_count: 2 }), implied: true };
    const member = (id: number) => ({ id, contact_groups: [{ id: 7, name: 'NewG' }] }) as unknown as Contact;
    const live = (offered: Record<string, boolean>): LiveResources => ({
      descriptions: new Map(Object.entries(DESCRIPTIONS) as Array<[ResourceKey, (typeof DESCRIPTIONS)[ResourceKey]]>),
      records: new Map([[liveKey(made), { image: { id: 7, name: 'NewG', contacts_count: 2 } }]]),
      offered: new Map(Object.entries(offered)),
      holders: new Map(),
    });
    const undo = (steps: UndoStep[], offered: Record<string, boolean> = {}) => {
      const cannot: NotUndone = { count: 0 };
      const planned = resourceInverse(live(offered), false, cannot)(made, 'record 1', steps);
      return { planned, cannot, sent: steps.filter((step) => step.op === 'resource') };
    };
    const both: UndoStep[] = [
      { op: 'delete', id: 1, before: member(1) },
      { op: 'update', id: 2, body: { name: 'Bo', contact_groups: [] }, before: member(2) },
    ];
    expect(undo(both).sent).toMatchObject([{ does: 'delete', resource: 'groups', id: 7 }]);
    const one = undo([both[0]]);
    expect(one.sent).toEqual([]);
    expect(one.planned.notes).toEqual(['changed since: it holds 1 contact the undo leaves in it; kept (--force deletes it)']);
    const stays = undo(both, { 'groups.delete': false });
    expect(stays.planned).toMatchObject({
      action: 'skipped',
      notes: ['contact group "NewG" stays: this server cannot delete contact groups'],
    });
    expect(stays.cannot).toEqual({ count: 1, stays: ['contact group "NewG" stays: this server cannot delete contact groups'] });
  });
});
