/**
 * The journal of every resource beyond contacts, end to end: each single write
 * verb (labels, contact groups, contact fields, roles, users, templates, imports' delete, the
 * partner defaults) is a change of its own, and `wsm undo` of it leaves the resource as it was
 * before (a re-created record's id aside), on `wsm serve` and on the stand-in of the published API.
 * Where the published API has no operation to invert with, the plan says so for that record and
 * the undo exits 8, changing nothing.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, NOT_SUPPORTED, type Backend } from './backends.js';
import { binaryFirstRunner, wsmInProcess } from './in-process.js';

/** The first run of each command goes to the built binary, every later one in-process (in-process.ts). */
const wsm = binaryFirstRunner();

type Row = Record<string, unknown> & { id: number };

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`wsm undo of a resource's change on ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsm(backend.env, args);
    // The changes to undo, and reads of the records and the journal: in-process.
    const arrange = (...args: string[]) => wsmInProcess(backend.env, args);
    const json = async (...args: string[]) => {
      const res = await arrange(...args, '-o', 'json');
      expect(res.code, res.stderr).toBe(0);
      return JSON.parse(res.stdout);
    };
    /** The records as the server keeps them, without what it makes (ids, times). */
    const bare = (rows: Row[]) =>
      rows.map(({ id: _id, created_at: _c, updated_at: _u, ...rest }) => rest).sort((a, b) => String(a.name).localeCompare(String(b.name)));
    const listed = async (resource: string) => bare(await json(resource, 'list', '--all'));
    const lastChange = async () => (await json('history'))[0] as { id: string; summary: string; command: string };
    const undo = (...args: string[]) => run('undo', 'last', '--yes', ...args);

    beforeAll(async () => {
      backend = await kind.start();
    });
    afterAll(async () => {
      if (backend) await backend.stop();
    });

    it('a label: an update set back, flagged when changed since; its create deleted where the server can', async () => {
      const created = await json('labels', 'create', 'VIP', '--color', '#aabbcc');
      const before = bare([await json('labels', 'get', String(created.id))]);
      expect((await arrange('labels', 'update', String(created.id), '--name', 'Gold')).code).toBe(0);
      const change = await lastChange();
      expect(change.summary).toBe(`labels update ${created.id}`);
      const dry = await run('undo', change.id, '--dry-run');
      expect(dry.stdout).toBe(
        `~ record 1: update label ${created.id}\n    name: "Gold" -> "VIP"\nPlan: 0 to create, 1 to update, 0 unchanged, 0 invalid.\n`,
      );
      expect((await arrange('labels', 'update', String(created.id), '--name', 'Silver')).code).toBe(0);
      const flagged = await run('undo', change.id, '--yes');
      expect(flagged.stdout).toContain(
        `! record 1: skipped label ${created.id}\n    note: changed since: name is "Silver" now, neither "Gold" (the change's) nor "VIP" (before it); left as it is (--force sets it back)\n`,
      );
      expect(flagged.code).toBe(0);
      const forced = await run('undo', change.id, '--yes', '--force');
      expect([forced.code, forced.stderr]).toEqual([0, `✓ undid change ${change.id}: 1 set back, 0 deleted, 0 created again, 0 failed\n`]);
      expect(bare([await json('labels', 'get', String(created.id))])).toEqual(before);

      const made = await json('labels', 'create', 'Temp');
      const res = await run('undo', (await lastChange()).id, '--yes');
      if (backend.extensions) {
        expect([res.code, res.stdout]).toEqual([
          0,
          `- record 1: delete label ${made.id}\nPlan: 1 to delete, 0 already gone.\n${made.id}\tdeleted\t200\tlabel ${made.id}\n`,
        ]);
        expect((await run('labels', 'get', String(made.id))).code).toBe(4);
      } else {
        expect(res.stdout).toContain(
          `! record 1: skipped label ${made.id}\n    note: cannot be undone: this server has no delete for labels (an extension of wsm serve the published API lacks)\n`,
        );
        expect(res.stderr).toMatch(
          /^nothing undone of change \S+; [^\n]*\nerror: 1 record of change \S+ cannot be undone in full \(see the plan's notes\)\n$/,
        );
        expect(res.code).toBe(8);
        expect((await json('labels', 'get', String(made.id))).name).toBe('Temp');
      }
    });

    it('a label deleted, made again from its before-image, the new id said (the published API deletes none)', async () => {
      const label = await json('labels', 'create', 'Gone', '--color', '#112233');
      if (!backend.extensions) {
        const before = (await json('history')).length;
        expect((await run('labels', 'delete', String(label.id), '--yes')).stderr).toMatch(NOT_SUPPORTED);
        expect((await json('history')).length).toBe(before);
        return;
      }
      const before = await listed('labels');
      expect((await arrange('labels', 'delete', String(label.id), '--yes')).code).toBe(0);
      const res = await undo('-o', 'json');
      expect(res.code, res.stderr).toBe(0);
      const [result] = JSON.parse(res.stdout).results;
      expect(result).toMatchObject({ outcome: 'created again', message: `was label ${label.id}` });
      expect(result.id).not.toBe(label.id);
      expect(await listed('labels')).toEqual(before);
    });

    it("an apply's replacement (the old label deleted, a new one of its name created) is undone: the new one deleted, the old one made again", async () => {
      const made = await json('labels', 'create', 'urgent', '--color', '#00ff00');
      // The change as `wsm apply` keeps a replacement: the old record's delete, then the new one's create.
      const { id: _id, ...meta } = (await json('history'))[0];
      const id = '29991231-235959-999';
      const history = join(backend.env.WSM_CONFIG_DIR!, 'history');
      const image = (labelId: number, color: string) => ({ id: labelId, name: 'urgent', color });
      const records = [
        { kind: 'resource', resource: 'labels', op: 'delete', id: 999, before: image(999, '#ff0000'), after: null },
        { kind: 'resource', resource: 'labels', op: 'create', id: made.id, before: null, after: image(made.id, '#00ff00') },
      ];
      writeFileSync(join(history, `${id}.jsonl`), records.map((record) => `${JSON.stringify(record)}\n`).join(''), { mode: 0o600 });
      writeFileSync(join(history, `${id}.json`), JSON.stringify({ ...meta, summary: 'apply ws.yaml', records: 2 }), { mode: 0o600 });
      const res = await run('undo', id, '--yes');
      // The forged change sorts after every other: gone again, `last` names the real ones.
      for (const name of [`${id}.json`, `${id}.jsonl`]) rmSync(join(history, name));
      if (backend.extensions) {
        expect(res.stderr).toBe(`✓ undid change ${id}: 0 set back, 1 deleted, 1 created again, 0 failed\n`);
        const labels = (await json('labels', 'list', '--all')) as Row[];
        expect(labels.filter((label) => label.name === 'urgent').map((label) => label.color)).toEqual(['#ff0000']);
      } else {
        expect(res.stdout).toContain(`! record 2: skipped label ${made.id}\n    note: cannot be undone: this server has no delete`);
        expect(res.code).toBe(8);
      }
    });

    it('a contact group: its create undone on wsm serve; the published API has no delete, said per record', async () => {
      const before = await listed('groups');
      expect((await arrange('groups', 'create', 'Team')).code).toBe(0);
      const res = await undo();
      if (backend.extensions) {
        expect(res.code, res.stderr).toBe(0);
        expect(await listed('groups')).toEqual(before);
      } else {
        expect(res.stdout).toMatch(/note: cannot be undone: this server has no delete for contact groups \(an extension of wsm serve/);
        expect(res.code).toBe(8);
      }
    });

    it('a contact field: its create deleted and its delete made again, on both', async () => {
      const before = await listed('fields');
      const field = await json('fields', 'create', 'city');
      expect((await undo()).code).toBe(0);
      expect(await listed('fields')).toEqual(before);
      const again = await json('fields', 'create', 'region');
      const withIt = await listed('fields');
      expect((await arrange('fields', 'delete', String(again.id), '--yes')).code).toBe(0);
      const res = await undo();
      expect(res.stdout).toContain(`    note: was contact field ${again.id}: created again with a new id\n`);
      expect(res.code, res.stderr).toBe(0);
      expect(await listed('fields')).toEqual(withIt);
      expect(field.id).not.toBe(again.id);
    });

    it('a role: its create and its update undone on wsm serve; the published API cannot delete it', async () => {
      const before = await listed('roles');
      const role = await json('roles', 'create', 'Helper');
      if (!backend.extensions) {
        const res = await undo();
        expect(res.stdout).toContain(`note: cannot be undone: this server has no delete for roles`);
        expect(res.code).toBe(8);
        return;
      }
      expect((await arrange('roles', 'update', String(role.id), '--permission', 'labels.view', '--name', 'Aide')).code).toBe(0);
      const res = await undo();
      expect(res.stdout).toContain(
        `~ record 1: update role ${role.id}\n    name: "Aide" -> "Helper"\n    permissions: ["labels.view"] -> []\n`,
      );
      expect(res.code).toBe(0);
      expect((await undo()).code).toBe(0); // the undo of the undo: Aide again
      // The create, undone: the role is Aide again, changed since it was made, so only --force deletes it.
      const create = (await json('history'))[3].id;
      expect((await run('undo', create, '--yes')).stdout).toContain(
        `note: changed since: name is "Aide" now, not "Helper" as the change made it; kept (--force deletes it)`,
      );
      expect((await run('undo', create, '--yes', '--force')).code).toBe(0);
      expect(await listed('roles')).toEqual(before);
    });

    it("a user's update set back; a password sent is said not kept, and the undo exits 8", async () => {
      const before = await listed('users');
      const [user] = (await json('users', 'list')) as Row[];
      expect((await arrange('users', 'update', String(user.id), '--name', 'Renamed', '--timezone', 'Europe/Lisbon')).code).toBe(0);
      expect((await undo()).code).toBe(0);
      expect(await listed('users')).toEqual(before);
      // The journal keeps the command line, the password hidden.
      expect((await run('users', 'update', String(user.id), '--name', 'Other', '--password', 'new-secret-1')).code).toBe(0);
      expect((await lastChange()).command).toContain('--password ***');
      const res = await undo();
      expect(res.stdout).toContain('    note: password: not kept by the journal, not set back\n');
      expect(res.code).toBe(8);
      expect(await listed('users')).toEqual(before);
      // A user made (an extension of wsm serve) is journaled, and no API deletes a user.
      const made = await run('users', 'create', '--name', 'Bot', '--email', 'bot@example.com', '--password', 'bot-password', '--role', '1');
      if (!backend.extensions) return expect(made.stderr).toMatch(NOT_SUPPORTED);
      const change = await lastChange();
      expect(change.summary).toMatch(/^users create \(user \d+\)$/);
      expect((await run('history', 'show', 'last')).stdout).toContain('    note: password: sent, not kept (an undo cannot set it back)\n');
      const undone = await undo();
      expect(undone.stdout).toMatch(/^! record 1: skipped user \d+\n    note: cannot be undone: the API has no delete for users\n/);
      expect(undone.code).toBe(8);
    });

    it('a template: its create undone by its delete; a template deleted cannot be brought back', async () => {
      const template = await json(
        'templates',
        'create',
        '--name',
        'order_ready',
        '--language',
        'en',
        '--category',
        'UTILITY',
        '--body',
        'Ready',
      );
      expect((await lastChange()).summary).toBe(`templates create (template ${template.id})`);
      const res = await undo();
      expect(res.stdout).toBe(
        `- record 1: delete template ${template.id}\nPlan: 1 to delete, 0 already gone.\n${template.id}\tdeleted\t200\ttemplate ${template.id}\n`,
      );
      expect(res.code).toBe(0);
      expect((await run('templates', 'get', String(template.id))).code).toBe(4);
      const kept = await json('templates', 'create', '--name', 'order_kept', '--language', 'en', '--category', 'UTILITY', '--body', 'Kept');
      expect((await arrange('templates', 'delete', String(kept.id), '--yes')).code).toBe(0);
      const gone = await undo();
      expect(gone.stdout).toContain('note: cannot be undone: a template deleted at the provider cannot be brought back');
      expect(gone.code).toBe(8);
    });

    it("an import's delete is journaled, and cannot be undone: its file is not kept", async () => {
      const file = join(backend.dir, 'people.csv');
      writeFileSync(file, 'number,name\n14155550177,Imported\n');
      const imported = await json('imports', 'create', file, '--wait');
      expect((await arrange('imports', 'delete', String(imported.id), '--yes')).code).toBe(0);
      expect((await lastChange()).summary).toBe(`imports delete ${imported.id}`);
      const res = await undo();
      expect(res.stdout).toContain(
        `! record 1: skipped contact import ${imported.id}\n    note: cannot be undone: the import's file is not kept`,
      );
      expect(res.code).toBe(8);
    });

    it('the partner defaults set back where the server reads them; said to have no before-image where it cannot', async () => {
      expect((await arrange('permissions', 'set', 'contacts.view', 'contacts.create')).code).toBe(0);
      const first = await lastChange();
      expect(first.summary).toBe('permissions set');
      expect((await arrange('permissions', 'set', 'contacts.view')).code).toBe(0);
      const res = await undo();
      if (backend.extensions) {
        expect(res.stdout).toBe(
          '~ record 1: update the partner defaults\n    permissions: ["contacts.view"] -> ["contacts.view","contacts.create"]\nPlan: 0 to create, 1 to update, 0 unchanged, 0 invalid.\n\tset back\t200\tthe partner defaults\n',
        );
        expect(res.code).toBe(0);
      } else {
        expect(res.stdout).toMatch(
          /^! record 1: skipped the partner defaults\n    note: cannot be undone: the partner defaults: no before-image \(this server cannot read them: [^\n]+\)\n/,
        );
        expect(res.code).toBe(8);
      }
    });
  });
}
