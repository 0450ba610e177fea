/**
 * The contact groups an import makes are part of its change: `wsm history show`
 * lists each, and `wsm undo` deletes it after the contacts, only while it still is what the import
 * made (its name, and no contact left in it once the import's contacts are undone); otherwise it is
 * flagged as changed since, and --force deletes it. On `wsm serve --api-only`, whose published API
 * has no group delete, the plan and the result say in one line that the group stays, and the undo
 * exits 8 as for any record it cannot take back; --dry-run shows the same lines. Undoing the undo
 * makes the group again first and brings its contacts back in it under its new id, as its dry run
 * says, and a third undo deletes it again.
 * The first run of each command (contacts import, history show, undo) is the built binary's, the
 * later ones run in-process (in-process.ts binaryFirstRunner); the set-up runs in-process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend } from './backends.js';
import { makesGroupFirst, throughProxy } from './forward.js';
import { binaryFirstRunner, wsmInProcess } from './in-process.js';

const wsm = binaryFirstRunner();

type Group = { id: number; name: string; contacts_count: number };

/** Runs an import of `rows` (after the header `number,name,contact_groups`) with --wait: its change's id. */
async function importRows(backend: Backend, name: string, rows: string): Promise<string> {
  const file = backendFile(backend, name, `number,name,contact_groups\n${rows}`);
  const imported = await wsm(backend.env, ['contacts', 'import', file, '--wait', '-y']);
  expect(imported.code, imported.stderr).toBe(0);
  const history = await wsmInProcess(backend.env, ['history', '-o', 'json']);
  return (JSON.parse(history.stdout) as Array<{ id: string }>)[0].id;
}

describe('the contact groups an import made, undone on wsm serve', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsm(backend.env, args);
  const arrange = (...args: string[]) => wsmInProcess(backend.env, args);
  const groups = async () => JSON.parse((await arrange('groups', 'list', '--all', '-o', 'json')).stdout) as Group[];
  const groupNamed = async (name: string) => (await groups()).find((group) => group.name === name);

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
  });
  afterAll(async () => {
    if (backend) await backend.stop();
  });

  it('history show lists the group the import made; undo deletes it after the contact, and --dry-run shows the same plan', async () => {
    expect((await arrange('groups', 'create', 'Known')).code).toBe(0);
    const change = await importRows(backend, 'p3.csv', '14155550999,Gina,"[""NewG"",""Known""]"\n');
    const made = (await groupNamed('NewG'))!;
    const shown = await run('history', 'show', change);
    expect(shown.stdout).toContain(
      `+ record 1: create contact group ${made.id}\n    name: "NewG"\n    contacts_count: 1\n    note: made by the import: its rows named this group, which the workspace lacked\n+ record 2: create 14155550999\n`,
    );
    // A group the workspace had is only joined: not the change's.
    expect(shown.stdout).not.toContain('name: "Known"');
    const dry = await run('undo', change, '--dry-run');
    expect(dry.code).toBe(0);
    const plan = `- record 2: delete contact ${(JSON.parse((await arrange('contacts', 'list', '-o', 'json')).stdout) as Array<{ id: number }>)[0].id} (14155550999)\n- record 1: delete contact group ${made.id}\nPlan: 2 to delete, 0 already gone.\n`;
    expect(dry.stdout).toBe(plan);
    const undone = await run('undo', change, '--yes');
    expect(undone.stdout.startsWith(plan)).toBe(true);
    // The result names the group's line by kind, so its id does not read as a contact's.
    expect(undone.stdout).toContain(`\n${made.id}\tdeleted\t200\tcontact group ${made.id}\n`);
    expect(undone.stderr).toMatch(/^✓ undid change \S+: 0 set back, 2 deleted, 0 created again, 0 failed\n$/);
    expect(undone.code).toBe(0);
    expect((await groups()).map((group) => group.name)).toEqual(['Known']);
  });

  it('a group holding a contact the undo leaves in it is changed since: kept, exit 0; --force deletes it', async () => {
    const change = await importRows(backend, 'joined.csv', '14155550801,Ann,"[""Team""]"\n');
    const team = (await groupNamed('Team'))!;
    // Someone else's contact joins the group after the import.
    expect((await arrange('contacts', 'create', '--number', '14155550802', '--name', 'Bob', '--group', String(team.id))).code).toBe(0);
    const undone = await run('undo', change, '--yes');
    expect(undone.stdout).toContain(
      `! record 1: skipped contact group ${team.id}\n    note: changed since: it holds 1 contact the undo leaves in it; kept (--force deletes it)\n`,
    );
    expect(undone.stderr).toMatch(/: 0 set back, 1 deleted, 0 created again, 0 failed; 1 record changed since or not restorable/);
    expect(undone.code).toBe(0);
    expect(await groupNamed('Team')).toMatchObject({ id: team.id, contacts_count: 1 });
    const forced = await run('undo', change, '--yes', '--force');
    expect(forced.stdout).toContain(
      `- record 1: delete contact group ${team.id}\n    note: changed since: it holds 1 contact the undo leaves in it; deleted (--force)\n`,
    );
    expect(forced.code, forced.stderr).toBe(0);
    expect(await groupNamed('Team')).toBeUndefined();
  });

  it('a group renamed since, or holding a contact flagged as changed since, is kept', async () => {
    const change = await importRows(backend, 'renamed.csv', '14155550811,Cid,"[""Crew""]"\n14155550812,Dee,"[""Band""]"\n');
    const crew = (await groupNamed('Crew'))!;
    const band = (await groupNamed('Band'))!;
    expect((await arrange('groups', 'update', String(crew.id), '--name', 'Staff')).code).toBe(0);
    const dee = (
      JSON.parse((await arrange('contacts', 'list', '--search', '14155550812', '-o', 'json')).stdout) as Array<{ id: number }>
    )[0];
    expect((await arrange('contacts', 'update', String(dee.id), '--name', 'Dee Edited')).code).toBe(0);
    const undone = await run('undo', change, '--yes');
    expect(undone.stdout).toContain(
      `! record 1: skipped contact group ${crew.id}\n    note: changed since: name is "Staff" now, not "Crew" as the change made it; kept (--force deletes it)\n`,
    );
    expect(undone.stdout).toContain(
      `! record 2: skipped contact group ${band.id}\n    note: changed since: it holds 1 contact the undo leaves in it; kept (--force deletes it)\n`,
    );
    expect(undone.code).toBe(0);
    expect((await groups()).map((group) => group.name).sort()).toEqual(['Band', 'Known', 'Staff']);
  });

  it('undoing the undo makes the group again first and brings its contacts back in it, as its dry run says; a third undo deletes it again once no contact is left in it', async () => {
    expect((await arrange('contacts', 'create', '--number', '14155550820', '--name', 'Fay')).code).toBe(0);
    const change = await importRows(backend, 'again.csv', '14155550821,Eve,"[""Again""]"\n14155550820,Fay,"[""Again""]"\n');
    const first = (await groupNamed('Again'))!;
    const contacts = async () =>
      (
        JSON.parse((await arrange('contacts', 'list', '--all', '-o', 'json')).stdout) as Array<{
          id: number;
          number: string;
          contact_groups: Array<{ id: number; name: string }>;
        }>
      ).filter((contact) => contact.number === '14155550820' || contact.number === '14155550821');
    const [fay, eve] = await contacts();
    expect((await arrange('undo', change, '--yes')).code).toBe(0);
    expect(await groupNamed('Again')).toBeUndefined();
    const lastChange = async () => (JSON.parse((await arrange('history', '-o', 'json')).stdout) as Array<{ id: string }>)[0].id;
    const undo = await lastChange();
    const madeFirst = `group "Again" (group ${first.id}) is made again first (record 3): the contact goes in it under its new id`;
    const plan = [
      `+ record 3: create contact group ${first.id}`,
      '    name: "Again"',
      `    note: was contact group ${first.id}: created again with a new id`,
      '    note: made first: the contacts this undo brings back that were in it go back in it under its new id',
      `~ record 2: update contact ${fay.id} (14155550820)`,
      '    contact_groups: [] -> ["Again"]',
      `    note: ${madeFirst}`,
      '+ record 1: create 14155550821',
      '    number: "14155550821"',
      '    name: "Eve"',
      '    status: true',
      '    contact_groups: ["Again"]',
      `    note: was contact ${eve.id}: created again with a new id`,
      `    note: ${madeFirst}`,
      'Plan: 2 to create, 1 to update, 0 unchanged, 0 invalid.',
      '',
    ].join('\n');
    const dry = await arrange('undo', undo, '--dry-run');
    expect(dry.stdout).toBe(plan);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    const redone = await run('undo', undo, '--yes');
    expect(redone.stdout.startsWith(dry.stdout)).toBe(true);
    expect(redone.stderr).toMatch(/^✓ undid change \S+: 1 set back, 0 deleted, 2 created again, 0 failed\n$/);
    expect(redone.code).toBe(0);
    const again = (await groupNamed('Again'))!;
    expect(again.id).not.toBe(first.id);
    expect(again.contacts_count).toBe(2);
    expect((await contacts()).map((contact) => contact.contact_groups)).toEqual([
      [{ id: again.id, name: 'Again' }],
      [{ id: again.id, name: 'Again' }],
    ]);
    const redo = await lastChange();
    expect((await arrange('history', 'show', redo)).stdout).toContain(
      `+ record 1: create contact group ${again.id}\n    name: "Again"\n    contacts_count: 0\n    note: made again by this undo for the contacts it brought back that were in it\n`,
    );
    // As the first undo did, a third undo keeps the group while a contact it does not take out is in it.
    const joined = await arrange('contacts', 'create', '--number', '14155550822', '--name', 'Joiner', '--group', String(again.id));
    expect(joined.code).toBe(0);
    const third = await arrange('undo', redo, '--yes');
    expect(third.stdout).toContain(
      `! record 1: skipped contact group ${again.id}\n    note: changed since: it holds 1 contact the undo leaves in it; kept (--force deletes it)\n`,
    );
    expect(third.stderr).toMatch(/: 1 set back, 1 deleted, 0 created again, 0 failed; 1 record changed since/);
    expect(third.code).toBe(0);
    expect(await groupNamed('Again')).toMatchObject({ id: again.id, contacts_count: 1 });
    // Once it holds none, the same undo run again deletes it.
    const joiner = JSON.parse((await arrange('contacts', 'list', '--search', '14155550822', '-o', 'json')).stdout) as Array<{ id: number }>;
    expect((await arrange('contacts', 'delete', String(joiner[0].id), '--yes')).code).toBe(0);
    const rest = await arrange('undo', redo, '--yes');
    expect(rest.stdout).toContain(`- record 1: delete contact group ${again.id}\nPlan: 1 to delete, 1 already gone, 1 unchanged.\n`);
    expect(rest.code, rest.stderr).toBe(0);
    expect(await groupNamed('Again')).toBeUndefined();
    expect((await contacts()).map((contact) => contact.contact_groups)).toEqual([[]]);
  });

  it('a group the server does not make again (its name taken meanwhile) leaves the contacts without it, said per contact; exit 8', async () => {
    const { proxy, arm } = await makesGroupFirst(new URL(backend.url), 'Taken');
    try {
      const env = throughProxy(backend.env, proxy, backend);
      const file = backendFile(backend, 'taken.csv', 'number,name,contact_groups\n14155550831,Gus,"[""Taken""]"\n');
      expect((await wsmInProcess(env, ['contacts', 'import', file, '--wait', '-y'])).code).toBe(0);
      expect((await wsmInProcess(env, ['undo', 'last', '--yes'])).code).toBe(0);
      arm();
      const redone = await wsmInProcess(env, ['undo', 'last', '--yes']);
      expect(redone.stdout).toMatch(/\tfailed\t422\t/);
      expect(redone.stdout).toMatch(/\n\d+\tcreated again\t200\twas contact \d+; without contact group "Taken": it was not made again\n/);
      expect(redone.stderr).toMatch(/: 0 set back, 0 deleted, 1 created again, 1 failed\n/);
      expect(redone.code).toBe(8);
      const gus = JSON.parse((await arrange('contacts', 'list', '--search', '14155550831', '-o', 'json')).stdout) as unknown[];
      expect(gus).toMatchObject([{ name: 'Gus', contact_groups: [] }]);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

describe('the contact groups an import made, on wsm serve --api-only (no group delete)', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsm(backend.env, args);

  beforeAll(async () => {
    backend = await BACKENDS[1].start();
  });
  afterAll(async () => {
    if (backend) await backend.stop();
  });

  it('the plan and the result say the group stays; the undo exits 8, its dry run 0 with the same lines; undoing that undo brings the contact back in it', async () => {
    const change = await importRows(backend, 'p3.csv', '14155550999,Gina,"[""NewG""]"\n');
    const listed = async () => JSON.parse((await wsmInProcess(backend.env, ['groups', 'list', '-o', 'json'])).stdout) as Group[];
    const [made] = await listed();
    expect((await run('history', 'show', change)).stdout).toContain(`+ record 1: create contact group ${made.id}\n    name: "NewG"\n`);
    const stays = 'contact group "NewG" stays: this server cannot delete contact groups';
    const planned = `! record 1: skipped contact group ${made.id}\n    note: ${stays}\nPlan: 1 to delete, 0 already gone, 1 skipped.\n`;
    const dry = await run('undo', change, '--dry-run');
    expect(dry.stdout).toMatch(/^- record 2: delete contact \d+ \(14155550999\)\n/);
    expect(dry.stdout).toContain(planned);
    expect(dry.stderr).toBe(`warning: ${stays}\n`);
    expect(dry.code).toBe(0);
    const undone = await run('undo', change, '--yes');
    expect(undone.stdout).toContain(planned);
    expect(undone.stderr).toBe(
      `warning: ${stays}\nundid change ${change}: 0 set back, 1 deleted, 0 created again, 0 failed; 1 record changed since or not restorable, left as it is (marked !)\nerror: 1 record of change ${change} cannot be undone in full (see the plan's notes)\n`,
    );
    expect(undone.code).toBe(8);
    expect(await listed()).toMatchObject([{ id: made.id, name: 'NewG', contacts_count: 0 }]);
    // The group stayed, so undoing the undo brings the contact back in it, as its plan says, with nothing to warn of.
    const history = JSON.parse((await wsmInProcess(backend.env, ['history', '-o', 'json'])).stdout) as Array<{ id: string }>;
    const redone = await wsmInProcess(backend.env, ['undo', history[0].id, '--yes']);
    expect(redone.stdout).toMatch(/^\+ record 1: create 14155550999\n( {4}.*\n)* {4}contact_groups: \["NewG"\]\n/);
    expect(redone.stderr).toMatch(/^✓ undid change \S+: 0 set back, 0 deleted, 1 created again, 0 failed\n$/);
    expect(redone.code).toBe(0);
    const gina = JSON.parse((await wsmInProcess(backend.env, ['contacts', 'list', '-o', 'json'])).stdout) as unknown[];
    expect(gina).toMatchObject([{ number: '14155550999', contact_groups: [{ id: made.id, name: 'NewG' }] }]);
  });
});
