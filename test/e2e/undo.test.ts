/**
 * The change journal end to end: each kind of change a contact verb makes,
 * `wsm undo` of it, and the workspace as it was before (a re-created contact's id aside), on
 * `wsm serve` and on the stand-in for the hosted service (no GET-one: the before-image is found
 * in the workspace's list). `wsm history` lists, shows and clears; the files are private.
 */
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import { binaryFirstRunner, wsmInProcess } from './in-process.js';

/** The first run of each command goes to the built binary, every later one in-process (in-process.ts). */
const wsm = binaryFirstRunner();

interface Listed {
  id: number;
  number: string;
  name: string;
  email: string | null;
  status: boolean;
  fields: Record<string, string>;
  contact_groups: Array<{ name: string }>;
}

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`wsm undo on ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsm(backend.env, args);
    const arrange = (...args: string[]) => wsmInProcess(backend.env, args);
    /** The workspace's contacts without what the server makes (ids, times). */
    const workspace = async () => {
      const listed = JSON.parse((await arrange('contacts', 'list', '--all', '-o', 'json')).stdout) as Listed[];
      return listed
        .map(({ number, name, email, status, fields, contact_groups }) => ({
          number,
          name,
          email,
          status,
          fields: fields ?? {},
          groups: (contact_groups ?? []).map((group) => group.name),
        }))
        .sort((a, b) => a.number.localeCompare(b.number));
    };
    const lastChange = async () => JSON.parse((await arrange('history', '-o', 'json')).stdout)[0] as { id: string; summary: string };
    const idOf = async (number: string) =>
      (JSON.parse((await arrange('contacts', 'list', '--all', '-o', 'json')).stdout) as Listed[]).find((c) => c.number === number)!.id;

    beforeAll(async () => {
      backend = await kind.start();
      for (const [number, name] of [
        ['14155550101', 'Ann'],
        ['14155550102', 'Ben'],
      ])
        expect(
          (await arrange('contacts', 'create', '--number', number, '--name', name, '--email', `${name.toLowerCase()}@example.com`)).code,
        ).toBe(0);
    });
    afterAll(async () => {
      if (backend) await backend.stop();
    });

    it('a create, undone: the contact is deleted and the workspace is as before', async () => {
      const before = await workspace();
      expect((await arrange('contacts', 'create', '--number', '14155550199', '--name', 'Temp')).code).toBe(0);
      const change = await lastChange();
      expect(change.summary).toMatch(/^contacts create \(contact \d+\)$/);
      const res = await run('undo', change.id, '--yes');
      expect(res.stderr).toBe(`✓ undid change ${change.id}: 0 set back, 1 deleted, 0 created again, 0 failed\n`);
      expect(res.stdout).toMatch(/^- record 1: delete contact \d+ \(14155550199\)\n/);
      expect(res.code).toBe(0);
      expect(await workspace()).toEqual(before);
    });

    it('an update, undone: --dry-run shows each value set back and sends nothing; the real undo sets them back', async () => {
      const before = await workspace();
      const id = await idOf('14155550101');
      expect((await arrange('contacts', 'update', String(id), '--name', 'Annie', '--email', 'annie@example.com')).code).toBe(0);
      const change = await lastChange();
      const dry = await run('undo', change.id, '--dry-run');
      expect(dry.stdout).toBe(
        `~ record 1: update contact ${id} (14155550101)\n    name: "Annie" -> "Ann"\n    email: "annie@example.com" -> "ann@example.com"\n` +
          'Plan: 0 to create, 1 to update, 0 unchanged, 0 invalid.\n',
      );
      expect(dry.stderr).toBe('');
      expect(dry.code).toBe(0);
      expect(await workspace()).not.toEqual(before);
      const undone = await run('undo', change.id, '--yes');
      expect(undone.code).toBe(0);
      expect(await workspace()).toEqual(before);
    });

    it('a delete, undone: the contact is created again with its values, the new id said', async () => {
      const before = await workspace();
      const id = await idOf('14155550102');
      expect((await arrange('contacts', 'delete', String(id), '--yes')).code).toBe(0);
      const change = await lastChange();
      const res = await run('undo', 'last', '--yes', '-o', 'json');
      expect(res.code).toBe(0);
      const [result] = JSON.parse(res.stdout).results;
      expect(result).toMatchObject({ outcome: 'created again', message: `was contact ${id}` });
      expect(result.id).not.toBe(id);
      expect(await workspace()).toEqual(before);
      // The undo is a change of its own, and can be undone: the contact is gone again.
      const undo = await lastChange();
      expect(undo.summary).toBe(`undo ${change.id}`);
      expect((await run('undo', undo.id, '--yes')).code).toBe(0);
      expect((await workspace()).map((c) => c.number)).not.toContain('14155550102');
      expect((await run('undo', 'last', '--yes')).code).toBe(0);
      expect(await workspace()).toEqual(before);
    });

    it('a contact changed again since is flagged and left alone; --force sets it back', async () => {
      const id = await idOf('14155550101');
      expect((await arrange('contacts', 'update', String(id), '--name', 'Second')).code).toBe(0);
      const change = await lastChange();
      expect((await arrange('contacts', 'update', String(id), '--name', 'Third')).code).toBe(0);
      const res = await run('undo', change.id, '--yes');
      expect(res.stdout).toBe(
        `! record 1: skipped contact ${id} (14155550101)\n` +
          '    note: changed since: name is "Third" now, neither "Second" (the change\'s) nor "Ann" (before it); left as it is (--force sets it back)\n' +
          'Plan: 0 to create, 0 to update, 0 unchanged, 0 invalid, 1 skipped.\n',
      );
      expect(res.code).toBe(0);
      expect((await workspace()).find((c) => c.number === '14155550101')!.name).toBe('Third');
      expect((await run('undo', change.id, '--yes', '--force')).code).toBe(0);
      expect((await workspace()).find((c) => c.number === '14155550101')!.name).toBe('Ann');
    });

    it('a bulk update --from and a bulk delete --from, each undone: the workspace as before', async () => {
      const before = await workspace();
      const [ann, ben] = [await idOf('14155550101'), await idOf('14155550102')];
      const file = join(backend.dir, 'changes.csv');
      writeFileSync(file, `id,name,email\n${ann},Bulk Ann,\n${ben},Bulk Ben,bulk@example.com\n`);
      expect((await arrange('contacts', 'update', '--from', file)).code).toBe(0);
      const update = await lastChange();
      expect(update.summary).toBe(`contacts update --from ${file}`);
      const shown = await run('history', 'show', update.id);
      expect(shown.stdout).toContain(`~ record 2: update contact ${ben} (14155550102)\n    name: "Ben" -> "Bulk Ben"\n`);
      expect((await run('undo', update.id, '--yes')).code).toBe(0);
      expect(await workspace()).toEqual(before);

      const deleted = await wsmInProcess(backend.env, ['contacts', 'delete', '--from', '-', '--yes'], `${ann}\n${ben}\n`);
      expect(deleted.code).toBe(0);
      expect(await workspace()).toEqual([]);
      const undone = await run('undo', 'last', '--yes');
      expect(undone.stderr).toMatch(/^✓ undid change \S+: 0 set back, 0 deleted, 2 created again, 0 failed\n$/);
      expect(undone.code).toBe(0);
      expect(await workspace()).toEqual(before);
    });

    it('wsm history: lists newest first (-o json), shows a change as a plan, keeps its files private, clears with --yes only', async () => {
      const listed = JSON.parse((await run('history', 'list', '-o', 'json')).stdout) as Array<Record<string, unknown>>;
      expect(listed.length).toBeGreaterThan(5);
      expect(listed[0]).toMatchObject({ base_url: backend.url, workspace: backend.workspace, records: 2 });
      expect(listed.map((c) => c.id)).toEqual([...listed.map((c) => c.id as string)].sort().reverse());
      const created = listed.find((c) => String(c.summary).startsWith('contacts create'))!;
      expect(JSON.stringify(listed)).not.toContain(backend.token);
      const shown = await run('history', 'show', String(created.id));
      expect(shown.stdout).toContain(`\n+ record 1: create contact `);
      expect(shown.stdout).toContain('    number: "14155550');
      const folder = join(backend.env.WSM_CONFIG_DIR!, 'history');
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      expect(statSync(join(folder, `${String(created.id)}.json`)).mode & 0o777).toBe(0o600);
      const unasked = await run('history', 'clear');
      expect(unasked).toMatchObject({ code: 2, stderr: 'error: clearing the history needs --yes when not on a terminal\n' });
      const cleared = await run('history', 'clear', '--yes');
      expect(cleared.stderr).toBe(`✓ forgot ${listed.length} changes\n`);
      expect((await run('history', '-o', 'json')).stdout).toBe('[]\n');
      expect(await run('undo', 'last')).toMatchObject({ code: 2, stderr: 'error: no change kept yet: `wsm history` lists them\n' });
    });

    it('WSM_HISTORY=off changes without a journal; a bad limit or an unwritable journal stops the change before it is sent', async () => {
      const off = await wsm({ ...backend.env, WSM_HISTORY: 'off' }, ['contacts', 'create', '--number', '14155550401', '--name', 'Off']);
      expect(off.code).toBe(0);
      expect((await run('history', '-o', 'json')).stdout).toBe('[]\n');
      const bad = await wsm({ ...backend.env, WSM_HISTORY_CHANGES: 'ten' }, ['contacts', 'create', '--number', '14155550402']);
      expect(bad).toMatchObject({ code: 2, stderr: 'error: WSM_HISTORY_CHANGES must be a whole number from 1 to 100,000, got "ten"\n' });
      for (const word of ['0', 'false', 'no']) {
        const unclear = await wsm({ ...backend.env, WSM_HISTORY: word }, ['contacts', 'create', '--number', '14155550405']);
        expect(unclear).toMatchObject({
          code: 2,
          stderr: `error: WSM_HISTORY takes "off" (or "on", the default), got "${word}": nothing was sent\n`,
        });
      }
      expect((await wsm({ ...backend.env, WSM_HISTORY: 'ON' }, ['contacts', 'create', '--number', '14155550406'])).code).toBe(0);
      expect(JSON.parse((await run('history', '-o', 'json')).stdout)).toHaveLength(1);
      const folder = join(backend.env.WSM_CONFIG_DIR!, 'history');
      rmSync(folder, { recursive: true, force: true });
      writeFileSync(folder, 'not a folder');
      const blocked = await run('contacts', 'create', '--number', '14155550403');
      expect(blocked.code).toBe(1);
      expect(blocked.stderr).toMatch(
        /^error: cannot write the change journal in \S+ \(EEXIST\): nothing was sent; WSM_HISTORY=off changes without one \(no undo\)\n$/,
      );
      rmSync(folder);
      expect((await workspace()).map((c) => c.number)).not.toContain('14155550403');
      expect((await workspace()).map((c) => c.number)).not.toContain('14155550405');
    });

    it('an undo goes only where its change went: another workspace is refused, naming the profile', async () => {
      expect((await arrange('contacts', 'create', '--number', '14155550404')).code).toBe(0);
      const other = await run('undo', 'last', '-w', '00000000-0000-4000-8000-000000000000', '--yes');
      expect(other.code).toBe(2);
      expect(other.stderr).toContain(`workspace ${backend.workspace}`);
      expect(other.stderr).toContain('this command targets');
    });

    it('an import that creates 2 contacts and updates 2, undone: the workspace as before', async () => {
      const before = await workspace();
      const file = join(backend.dir, 'import.csv');
      writeFileSync(
        file,
        'number,name,email\n14155550101,Imported Ann,\n14155550102,Imported Ben,ib@example.com\n14155550601,New One,\n14155550602,New Two,two@example.com\n',
      );
      expect((await arrange('contacts', 'import', file, '--wait')).code).toBe(0);
      expect((await workspace()).length).toBe(before.length + 2);
      expect((await lastChange()).summary).toBe(`import ${file}`);
      const shown = await run('history', 'show', 'last');
      // The journal predicts the new contacts from the rows sent (it reads nothing after the import): known by number, not id.
      expect(shown.stdout).toMatch(/\+ record \d: create 14155550601\n {4}number: "14155550601"\n {4}name: "New One"\n/);
      expect(shown.stdout).toContain('    name: "Ben" -> "Imported Ben"\n');
      const undone = await run('undo', 'last', '--yes');
      expect(undone.stderr).toMatch(/^✓ undid change \S+: 2 set back, 2 deleted, 0 created again, 0 failed\n$/);
      expect(undone.code).toBe(0);
      expect(await workspace()).toEqual(before);
    });

    it('an import whose outcome or workspace was not read says so in its change, at the time', async () => {
      const file = join(backend.dir, 'import-later.csv');
      writeFileSync(file, 'number,name\n14155550101,Later Ann\n14155550603,New Three\n');
      expect((await arrange('contacts', 'import', file)).code).toBe(0);
      const unwaited = await run('history', 'show', 'last');
      expect(unwaited.stdout).toContain(
        "note: the import's outcome was not read (run without --wait: `wsm imports get ID --wait` reads it): the contacts it updated are kept as they were before it; those it created are not known, and undo leaves them\n",
      );
      // Only the before-image is known: no value is shown as the import's, least of all as emptied.
      expect(unwaited.stdout).toMatch(/^~ record 1: update contact \d+ \(14155550101\)\n(?! {4})/m);
      expect(unwaited.stdout).not.toContain('-> null');
      expect((await arrange('contacts', 'import', file, '--apply-flagged', '--wait')).code).toBe(0);
      const unread = await run('history', 'show', 'last');
      expect(unread.stdout).toContain(
        "note: no before-image was taken: --apply-flagged sends the file as it is, without reading the workspace; undo leaves the import's contacts as they are\n",
      );
    });
  });
}
