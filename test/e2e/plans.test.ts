/**
 * Plans of update, import and delete files against wsm serve and the stand-in, and the runs they
 * predict. wsm runs in-process (in-process.ts: the binary's entry point, its bytes and exit code);
 * the built binary runs one of each command the file covers, on each backend: `contacts update
 * --from` (the real update, -o json), `contacts import` (the real import of spreadsheet damage),
 * `contacts delete --from` (a dry run from a pipe) and `contacts list` (with a refused token).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const HEADER = 'id,number,name,email,gender,status,contact_groups,created_at,updated_at';

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`plans against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const binary = (...args: string[]) => wsm(backend.env, args);
    const arrange = run;
    const file = (name: string, text: string) => backendFile(backend, name, text);
    const listed = async () =>
      JSON.parse((await arrange('contacts', 'list', '--all', '-o', 'json')).stdout) as Array<{
        id: number;
        number: string;
        name: string;
        status: boolean;
      }>;
    let ids: number[];
    // The stand-in's contacts show neither groups nor custom fields: such values are sent uncompared, emptied ones not sent.
    const unshown = kind === BACKENDS[2];

    beforeAll(async () => {
      backend = await kind.start();
      expect((await arrange('groups', 'create', 'VIP')).code).toBe(0);
      for (const [number, name] of [
        ['07700900123', 'Ann'],
        ['14155550102', 'Bob'],
        ['14155550103', 'Cid'],
      ]) {
        const created = await arrange('contacts', 'create', '--number', number, '--name', name);
        expect(created.code, created.stderr).toBe(0);
      }
      ids = (await listed()).map((c) => c.id);
    });
    afterAll(async () => {
      await backend?.stop();
    });

    it('update --from --dry-run: each changed field old -> new, unchanged counted, a spreadsheet-looking value held; nothing sent', async () => {
      const edited = file(
        'edited.csv',
        `${HEADER}\n${ids[0]},,Ann,,,true,,,\n${ids[1]},,Robert,,,FALSE,,,\n${ids[2]},,1.23457E+16,,,,,,\n999999,,Ghost,,,,,,\n`,
      );
      const res = await run('contacts', 'update', '--from', edited, '--dry-run');
      // An invalid row (an id the workspace lacks): exit 8, as the import's dry run.
      expect(res.code, res.stderr).toBe(8);
      expect(res.stderr.split('\n').slice(-2)).toEqual([`error: 1 of the 4 contacts in ${edited} is invalid`, '']);
      expect(res.stdout).toBe(
        (unshown
          ? "? contact_groups emptied in 4 rows, not sent: this server's contacts do not show groups, so an empty cell may be one it could not fill\n"
          : '') +
          `~ line 3: update contact ${ids[1]} (14155550102)\n` +
          '    name: "Bob" -> "Robert"\n' +
          '    status: true -> false\n' +
          `! line 4: skipped contact ${ids[2]} (14155550103)\n` +
          '    status: emptied in the file, kept true\n' +
          '    ! name: "Cid" kept, not "1.23457E+16": "1.23457E+16" is in scientific notation, as a spreadsheet writes a long number: its last digits may be lost\n' +
          'x line 5: invalid contact 999999\n' +
          '    there is no contact 999999 in the workspace\n' +
          'Plan: 0 to create, 1 to update, 1 unchanged, 1 invalid, 1 skipped; 1 cell looks changed by a spreadsheet and is kept as stored: --apply-flagged to apply it (marked !).\n',
      );
      const asJson = await run('contacts', 'update', '--from', edited, '--dry-run', '-o', 'json');
      expect(asJson.code).toBe(8);
      const json = JSON.parse(asJson.stdout);
      expect(json).toMatchObject({ create: 0, update: 1, unchanged: 1, invalid: 1, skipped: 1, suspicious: 1, held: 1 });
      expect(json.contacts[1]).toMatchObject({
        place: 'line 3',
        action: 'update',
        id: ids[1],
        changes: { name: { from: 'Bob', to: 'Robert' }, status: { from: true, to: false } },
      });
      // --max-failures tolerates the invalid row: exit 0, said in a warning.
      const tolerated = await run('contacts', 'update', '--from', edited, '--dry-run', '--max-failures', '1');
      expect(tolerated.code, tolerated.stderr).toBe(0);
      expect(tolerated.stderr.split('\n').slice(-2)).toEqual([
        `warning: 1 of the 4 contacts in ${edited} is invalid (tolerated: --max-failures 1)`,
        '',
      ]);
      expect((await listed()).map((c) => c.name)).toEqual(['Ann', 'Bob', 'Cid']);
    });

    it('update --from refuses a column the workspace has no field for, dry run or not: exit 2 naming it and the close field, nothing sent', async () => {
      expect((await arrange('fields', 'create', 'city')).code).toBe(0);
      const misspelt = file('ctiy.csv', `id,name,ctiy\n${ids[0]},Changed,1\n`);
      const refusal =
        `error: ${misspelt} names a contact field this workspace does not have: nothing was sent\n` +
        '  column "ctiy": The ctiy field is not a contact field of this workspace (did you mean "city"?).\n';
      for (const args of [['--dry-run'], ['--yes']]) {
        const res = await run('contacts', 'update', '--from', misspelt, ...args);
        expect([res.code, res.stdout, res.stderr]).toEqual([2, '', refusal]);
      }
      const flag = await wsmInProcess(backend.env, ['contacts', 'update', '--from', '-', '--field', 'cty=1', '--dry-run'], `${ids[0]}\n`);
      expect([flag.code, flag.stderr]).toEqual([
        2,
        'error: standard input names a contact field this workspace does not have: nothing was sent\n' +
          '  --field cty: The cty field is not a contact field of this workspace (did you mean "city"?).\n',
      ]);
      expect((await listed()).map((c) => c.name)).toEqual(['Ann', 'Bob', 'Cid']);
      const spelt = await run('contacts', 'update', '--from', file('city.csv', `id,city\n${ids[0]},Lisbon\n`), '--dry-run');
      expect([spelt.code, spelt.stdout]).toEqual([
        0,
        `~ line 2: update contact ${ids[0]} (07700900123)\n` +
          (unshown
            ? `    note: fields.city "Lisbon" is sent, not compared: this server's contacts do not show custom fields\n`
            : '    fields.city: null -> "Lisbon"\n') +
          'Plan: 0 to create, 1 to update, 0 unchanged, 0 invalid.\n',
      ]);
    });

    it("update --from --dry-run notes a number other than the contact's: an update does not change it, even where nothing else changes", async () => {
      const numbers = file('numbers.csv', `id,number\n${ids[1]},351912000099\n${ids[2]},+1 415 555 0103\n`);
      const res = await run('contacts', 'update', '--from', numbers, '--dry-run');
      expect([res.code, res.stdout]).toEqual([
        0,
        `= line 2: unchanged contact ${ids[1]} (14155550102)\n` +
          '    note: the number "351912000099" is not applied: an update does not change a contact\'s number\n' +
          'Plan: 0 to create, 0 to update, 2 unchanged, 0 invalid.\n',
      ]);
      const json = JSON.parse((await run('contacts', 'update', '--from', numbers, '--dry-run', '-o', 'json')).stdout);
      expect(json.contacts.map((c: { notes?: string[] }) => c.notes)).toEqual([
        ['the number "351912000099" is not applied: an update does not change a contact\'s number'],
        undefined,
      ]);
    });

    it('the real update sends what its plan changes: an unchanged row is not sent, its updated_at stays, the last line counts it', async () => {
      type Stamped = { id: number; name: string; updated_at: string };
      const before = JSON.parse((await arrange('contacts', 'list', '--all', '-o', 'json')).stdout) as Stamped[];
      const rows = before.map((c, i) => `${c.id},${i === 0 ? `${c.name} Jr` : c.name}`);
      const edited = file('one-change.csv', `id,name\n${rows.join('\n')}\n`);
      const res = await binary('contacts', 'update', '--from', edited, '-o', 'json');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe(
        `✓ updated 1 of the ${before.length} contacts read from ${edited}: ${before.length - 1} unchanged, 0 skipped, 0 failed\n`,
      );
      expect(JSON.parse(res.stdout).map((r: { outcome: string; status: number | null }) => [r.outcome, r.status])).toEqual(
        before.map((_, i) => (i === 0 ? ['updated', 200] : ['unchanged', null])),
      );
      const after = JSON.parse((await arrange('contacts', 'list', '--all', '-o', 'json')).stdout) as Stamped[];
      expect(after.slice(1)).toEqual(before.slice(1));
      expect(after[0].name).toBe(`${before[0].name} Jr`);
      expect((await arrange('contacts', 'update', String(before[0].id), '--name', before[0].name)).code).toBe(0);
    });

    it('the real update keeps a change that looks made by a spreadsheet as stored and names it; --apply-flagged applies it', async () => {
      const edited = file('sci.csv', `id,name,status\n${ids[2]},1.23457E+16,false\n${ids[1]},1.23457E+16,\n`);
      const kept = await run('contacts', 'update', '--from', edited);
      expect(kept.code, kept.stderr).toBe(0);
      const sci = '"1.23457E+16" is in scientific notation, as a spreadsheet writes a long number: its last digits may be lost';
      expect(kept.stderr).toBe(
        `warning: ${edited} line 2, contact ${ids[2]}: name: "Cid" kept, not "1.23457E+16": ${sci}\n` +
          `warning: ${edited} line 3, contact ${ids[1]}: name: "Bob" kept, not "1.23457E+16": ${sci}\n` +
          `warning: ${edited}: 2 cells look changed by a spreadsheet and were kept as stored: --apply-flagged to apply them\n` +
          `✓ updated 1 of the 2 contacts read from ${edited}: 0 unchanged, 1 skipped, 0 failed\n`,
      );
      // The operator's edit (inactive) went in, the spreadsheet's name did not.
      expect((await listed()).slice(1).map((c) => [c.name, c.status])).toEqual([
        ['Bob', true],
        ['Cid', false],
      ]);
      const applied = await run('contacts', 'update', '--from', edited, '--apply-flagged');
      expect(applied.code, applied.stderr).toBe(0);
      expect((await listed())[2].name).toBe('1.23457E+16');
      expect((await arrange('contacts', 'update', ids[2].toString(), '--name', 'Cid', '--active')).code).toBe(0);
      expect((await arrange('contacts', 'update', ids[1].toString(), '--name', 'Bob')).code).toBe(0);
    });

    it('import --dry-run: create / update / unchanged / invalid per row; a number equal to a contact but for its leading zeros is left out', async () => {
      const imported = file('import.csv', 'number,name\n7700900123,Ann\n14155550102,Bobby\n14155550103,Cid\n14155550104,Dee\n12,Bad\n');
      const res = await run('contacts', 'import', imported, '--dry-run', '-o', 'json');
      expect(res.code).toBe(8); // an invalid row: exit 8, as before
      const plan = JSON.parse(res.stdout);
      expect(plan).toMatchObject({ rows: 5, invalid_rows: 1, create: 1, update: 1, unchanged: 1, invalid: 1, skipped: 1, suspicious: 1 });
      expect(plan.contacts.map((c: { place: string; action: string }) => `${c.place} ${c.action}`)).toEqual([
        'row 2 skipped',
        'row 3 update',
        'row 4 unchanged',
        'row 5 create',
        'row 6 invalid',
      ]);
      expect(plan.contacts[0].suspicious).toEqual([
        `number: "7700900123" would be a new contact beside contact ${ids[0]}, "07700900123": a spreadsheet may have dropped its leading zeros`,
      ]);
      expect(plan.contacts[1].changes).toEqual({ name: { from: 'Bob', to: 'Bobby' } });
      const text = await run('contacts', 'import', imported, '--dry-run');
      expect(text.stdout).toContain('~ row 3: update contact');
      expect(text.stdout).toContain(
        'Plan: 1 to create, 1 to update, 1 unchanged, 1 invalid, 1 skipped; 1 cell looks changed by a spreadsheet and is left out: --apply-flagged to apply it (marked !).\n',
      );
      expect(await listed()).toHaveLength(3);
    });

    it('delete --from --dry-run: each id deleted or already gone', async () => {
      const res = await wsm(backend.env, ['contacts', 'delete', '--from', '-', '--dry-run', '-o', 'json'], `${ids[0]}\n999999\n`);
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout)).toMatchObject({
        delete: 1,
        absent: 1,
        contacts: [
          { id: ids[0], action: 'delete' },
          { id: 999999, action: 'absent' },
        ],
      });
      expect(await listed()).toHaveLength(3);
    });

    it('a token the server refuses fails every dry run as it fails `contacts list`: exit 3, the same one line, nothing on stdout', async () => {
      const refused = { ...backend.env, WSM_TOKEN: 'wsm_not_a_token_of_this_server' };
      const list = await wsm(refused, ['contacts', 'list']);
      expect(list.code).toBe(3);
      expect(list.stderr).toBe('error: the server rejected the token (from WSM_TOKEN): set WSM_TOKEN=<token>\n');
      const csv = file('refused.csv', 'number,name\n14155550199,Dee\n');
      const idList = file('refused-ids.csv', `id,name\n${ids[0]},Ann\n`);
      for (const args of [
        ['contacts', 'import', csv, '--dry-run'],
        ['contacts', 'update', '--from', idList, '--dry-run'],
        ['contacts', 'delete', '--from', idList, '--dry-run'],
      ]) {
        const res = await wsmInProcess(refused, args);
        expect({ args, code: res.code, stdout: res.stdout, stderr: res.stderr }).toEqual({
          args,
          code: 3,
          stdout: '',
          stderr: list.stderr,
        });
      }
      expect(await listed()).toHaveLength(3);
    });

    it('the real import leaves out what looks made by a spreadsheet, cell by cell, and says so; --apply-flagged sends the file as it is', async () => {
      const imported = file('zeros.csv', 'number,name,email\n7700900123,Ann,\n14155550102,1.23457E+16,bob@example.com\n14155550105,Eve,\n');
      const res = await binary('contacts', 'import', imported, '--wait', '-q');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe(
        `warning: ${imported} row 2, new contact 7700900123: number: "7700900123" would be a new contact beside contact ${ids[0]}, "07700900123": a spreadsheet may have dropped its leading zeros: the row is left out\n` +
          `warning: ${imported} row 3, contact ${ids[1]}: name: "Bob" kept, not "1.23457E+16": "1.23457E+16" is in scientific notation, as a spreadsheet writes a long number: its last digits may be lost\n` +
          `warning: ${imported}: 2 cells look changed by a spreadsheet: 1 was kept as stored, 1 was left out: --apply-flagged to apply them\n`,
      );
      // Bob's e-mail (the operator's edit) went in, his name stayed; Eve was created; the padded number was not.
      const after = await listed();
      expect(after.map((c) => [c.number, c.name])).toEqual([
        ['07700900123', 'Ann'],
        ['14155550102', 'Bob'],
        ['14155550103', 'Cid'],
        ['14155550105', 'Eve'],
      ]);
      expect((after[1] as unknown as { email: string }).email).toBe('bob@example.com');
      const applied = await run('contacts', 'import', imported, '--wait', '--apply-flagged', '-q');
      expect(applied.code, applied.stderr).toBe(0);
      expect((await listed()).map((c) => [c.number, c.name])).toEqual([
        ['07700900123', 'Ann'],
        ['14155550102', '1.23457E+16'],
        ['14155550103', 'Cid'],
        ['14155550105', 'Eve'],
        ['7700900123', 'Ann'],
      ]);
      for (const contact of await listed())
        if (!ids.includes(contact.id)) expect((await arrange('contacts', 'delete', String(contact.id), '--yes')).code).toBe(0);
      expect((await arrange('contacts', 'update', String(ids[1]), '--name', 'Bob', '--email', '')).code).toBe(0);
    });

    // Custom field values are wsm serve's (the published API's contact has none; the stand-in ignores them).
    if (kind === BACKENDS[0])
      it('a long number a spreadsheet rounded past its 15th digit, and a zip of zeros turned into 0, are flagged', async () => {
        expect((await arrange('fields', 'create', 'account')).code).toBe(0);
        expect((await arrange('fields', 'create', 'zip')).code).toBe(0);
        const set = await arrange(
          'contacts',
          'update',
          String(ids[1]),
          '--name',
          'Bob',
          '--field',
          'account=1234567890123457',
          '--field',
          'zip=00000',
        );
        expect(set.code, set.stderr).toBe(0);
        const edited = file('rounded.csv', `id,account,zip\n${ids[1]},1234567890123460,0\n`);
        const res = await run('contacts', 'update', '--from', edited, '--dry-run');
        expect(res.code, res.stderr).toBe(0);
        expect(res.stdout).toContain(
          '    ! fields.account: "1234567890123457" kept, not "1234567890123460": "1234567890123457" would become "1234567890123460": a spreadsheet keeps 15 significant digits of a number and rounds the rest to zeros\n',
        );
        expect(res.stdout).toContain(
          '    ! fields.zip: "00000" kept, not "0": "00000" would lose its leading zeros, as a spreadsheet drops them\n',
        );
        expect(res.stdout).toContain(
          '2 cells look changed by a spreadsheet and are kept as stored: --apply-flagged to apply them (marked !)',
        );
        const real = await run('contacts', 'update', '--from', edited);
        expect([real.code, real.stderr.split('\n')[2]]).toEqual([
          0,
          `warning: ${edited}: 2 cells look changed by a spreadsheet and were kept as stored: --apply-flagged to apply them`,
        ]);
        const stored = JSON.parse((await arrange('contacts', 'list', '--all', '-o', 'json')).stdout)[1].fields;
        expect(stored).toEqual({ account: '1234567890123457', zip: '00000' });
      });
  });
}
