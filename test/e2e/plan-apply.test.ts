/**
 * Plan = apply on the CLI's own verbs, against wsm serve and the stand-in. The commands run
 * in-process (in-process.ts: the binary's entry point, its bytes and exit code); the built binary
 * runs one of each command the file covers, on each backend: `contacts import` (three rows of one
 * number uploaded), `contacts update --from` (a padded id piped in), `contacts delete --from` (a piped
 * list of unknown ids) and `contacts update <id>` (an e-mail and gender cleared). Its wsm serve is a
 * process of its own (SERVE_PROCESS), where the other files' runs inside the test's process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile, SERVE_PROCESS } from './backends.js';
import type { Stored as Listed } from './plan-property.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

for (const kind of [SERVE_PROCESS, BACKENDS[2]]) {
  describe(`plan = apply against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const piped = (input: string, ...args: string[]) => wsmInProcess(backend.env, args, input);
    const binary = (...args: string[]) => wsm(backend.env, args);
    const binaryPiped = (input: string, ...args: string[]) => wsm(backend.env, args, input);
    const arrange = run;
    const file = (name: string, text: string) => backendFile(backend, name, text);
    const listed = async () => JSON.parse((await arrange('contacts', 'list', '--all', '-o', 'json')).stdout) as Listed[];
    const byNumber = async (number: string) => (await listed()).filter((contact) => contact.number === number);
    let ann: Listed;
    let bob: Listed;

    beforeAll(async () => {
      backend = await kind.start();
      for (const [number, name, email] of [
        ['14155550201', 'Ann', 'ann@example.com'],
        ['14155550202', 'Bob', 'bob@example.com'],
      ]) {
        const created = await arrange('contacts', 'create', '--number', number, '--name', name, '--email', email, '--gender', 'female');
        expect(created.code, created.stderr).toBe(0);
      }
      [ann, bob] = await listed();
    });
    afterAll(async () => {
      await backend?.stop();
    });

    it('one number written three ways is one contact: planned together with its end state, imported so, refused by --strict', async () => {
      const dup = file(
        'dup.csv',
        'number,name,email\n+1 650 555 0001,Dup First,first@example.com\n16505550001,Dup Second,\n+1 (650) 555-0001,Dup Third,third@example.com\n',
      );
      const plan = await run('contacts', 'import', dup, '--dry-run', '-q');
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toContain(
        '+ rows 2, 3, 4: create 16505550001\n' +
          '    rows 2, 3, 4 are one contact: created by row 2, updated by rows 3 and 4\n' +
          '    name: "Dup Third"\n' +
          '    email: "third@example.com"\n' +
          "Plan: 1 to create, 0 to update, 0 unchanged, 0 invalid; 1 contact named by several rows (shown together, the last row's values win).\n",
      );
      const strict = await run('contacts', 'import', dup, '--strict', '--wait');
      expect([strict.code, strict.stdout, strict.stderr]).toEqual([
        2,
        '',
        `error: ${dup} has rows naming the same contact (--strict): nothing was sent\n` +
          "  rows 2, 3, 4: name one contact (16505550001): the last row's values would win\n",
      ]);
      expect(await byNumber('16505550001')).toEqual([]);
      const imported = await binary('contacts', 'import', dup, '--wait', '-q');
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toBe(
        `warning: ${dup} rows 2, 3, 4, new contact 16505550001: the rows name one contact and are applied in order, the last row's values win (--strict refuses such a file)\n`,
      );
      expect((await byNumber('16505550001')).map((c) => [c.name, c.email])).toEqual([['Dup Third', 'third@example.com']]);
    });

    it('a file with nothing its plan could hold is sent at once and planned while the server works; one that holds a cell is planned first', async () => {
      const clean = file('at-once.csv', 'number,name\n16505550011,Early\n+1 650 555 0011,Late\nnot-a-number,Nobody\n');
      const sent = await run('contacts', 'import', clean, '--wait', '--interval', '0.1s');
      // The row the plan found invalid was skipped: exit 8, whether the server counts it or not.
      expect(sent.code, sent.stderr).toBe(8);
      const id = /as import (\d+)/.exec(sent.stderr)![1];
      expect(sent.stderr.split('\n').slice(0, 4)).toEqual([
        `✓ uploaded ${clean} as import ${id}`,
        `warning: ${clean} row 4: number: The number must be a phone number of 7 to 15 digits.`,
        `warning: ${clean} rows 2, 3, new contact 16505550011: the rows name one contact and are applied in order, the last row's values win (--strict refuses such a file)`,
        'warning: sent anyway: the server skips the invalid row (use --strict to refuse the file)',
      ]);
      expect((await byNumber('16505550011')).map((c) => c.name)).toEqual(['Late']);
      const holding = file('planned-first.csv', 'number,name\n16505550012,1.5E+3\n');
      const held = await run('contacts', 'import', holding, '--wait', '--interval', '0.1s');
      expect(held.code, held.stderr).toBe(0);
      expect(held.stderr.split('\n').at(-3)).toMatch(/^warning: .*planned-first\.csv: 1 cell looks changed by a spreadsheet/);
      expect(held.stderr.split('\n').at(-2)).toMatch(/^✓ uploaded .*planned-first\.csv as import \d+$/);
      expect((await byNumber('16505550012')).map((c) => c.name)).toEqual(['Unknown']);
    });

    it('an id with leading zeros is the contact in the plan and in the request; a repeated id is one contact, counted once', async () => {
      const padded = `00${bob.id}\n`;
      const plan = await binaryPiped(padded, 'contacts', 'update', '--from', '-', '--inactive', '--dry-run');
      expect([plan.code, plan.stdout]).toEqual([
        0,
        `~ line 1: update contact ${bob.id} (14155550202)\n    status: true -> false\nPlan: 0 to create, 1 to update, 0 unchanged, 0 invalid.\n`,
      ]);
      const repeated = `${bob.id}\n${padded}${ann.id}\n`;
      const updated = await piped(repeated, 'contacts', 'update', '--from', '-', '--inactive');
      expect([updated.code, updated.stderr]).toEqual([
        0,
        '✓ updated 2 of the 2 contacts read from standard input: 0 unchanged, 0 skipped, 0 failed\n',
      ]);
      expect((await listed()).slice(0, 2).map((c) => c.status)).toEqual([false, false]);
      const again = await piped(repeated, 'contacts', 'update', '--from', '-', '--active', '--dry-run');
      expect(again.stdout).toBe(
        `~ lines 1, 2: update contact ${bob.id} (14155550202)\n` +
          '    lines 1, 2 are one contact: updated by lines 1 and 2\n' +
          '    status: false -> true\n' +
          `~ line 3: update contact ${ann.id} (14155550201)\n` +
          '    status: false -> true\n' +
          "Plan: 0 to create, 2 to update, 0 unchanged, 0 invalid; 1 contact named by several rows (shown together, the last row's values win).\n",
      );
      expect((await piped(repeated, 'contacts', 'update', '--from', '-', '--active')).code).toBe(0);
      const gone = await binaryPiped(`00999999\n999999\n`, 'contacts', 'delete', '--from', '-', '--yes');
      expect([gone.code, gone.stderr]).toEqual([0, '✓ deleted 0 of the 1 contact read from standard input: 1 already gone, 0 failed\n']);
    });

    it('--strict refuses an update or delete file naming one contact twice, padded or not: exit 2, one line, nothing sent', async () => {
      const before = await listed();
      const twice = `${bob.id}\n00${bob.id}\n${ann.id}\n`;
      const refusal = `error: standard input names contact ${bob.id} on lines 1 and 2 (--strict refuses a contact named twice): nothing was sent\n`;
      for (const args of [
        ['contacts', 'update', '--from', '-', '--inactive', '--strict'],
        ['contacts', 'update', '--from', '-', '--inactive', '--strict', '--dry-run'],
        ['contacts', 'delete', '--from', '-', '--strict', '--yes'],
      ]) {
        const res = await piped(twice, ...args);
        expect([res.code, res.stdout, res.stderr]).toEqual([2, '', refusal]);
      }
      const csv = file('strict.csv', `id,name\n${ann.id},A\n${bob.id},B\n0${ann.id},C\n00${bob.id},D\n${ann.id},E\n`);
      const several = await run('contacts', 'update', '--from', csv, '--strict');
      expect([several.code, several.stderr]).toEqual([
        2,
        `error: ${csv} names contact ${ann.id} on lines 2, 4 and 6; contact ${bob.id} on lines 3 and 5 (--strict refuses a contact named twice): nothing was sent\n`,
      ]);
      expect(await listed()).toEqual(before);
      // Without it the same file is one contact each, counted once.
      const deleted = await piped(`${bob.id}\n00${bob.id}\n`, 'contacts', 'delete', '--from', '-', '--dry-run');
      expect(deleted.stdout).toBe(
        `- lines 1, 2: delete contact ${bob.id} (14155550202)\n` +
          '    lines 1, 2 are one contact: named once\n' +
          'Plan: 1 to delete, 0 already gone; 1 contact named by several rows (shown together, each deleted once).\n',
      );
    });

    it("one id on two rows: the file's last word is what the plan shows and what the run leaves", async () => {
      const twice = file('twice.csv', `id,name\n${bob.id},First\n${bob.id},Bob\n`);
      const plan = await run('contacts', 'update', '--from', twice, '--dry-run');
      expect(plan.stdout).toBe(
        `= lines 2, 3: unchanged contact ${bob.id} (14155550202)\n` +
          '    lines 2, 3 are one contact: updated by lines 2 and 3\n' +
          "Plan: 0 to create, 0 to update, 1 unchanged, 0 invalid; 1 contact named by several rows (shown together, the last row's values win).\n",
      );
      const res = await run('contacts', 'update', '--from', twice);
      expect([res.code, res.stderr]).toEqual([0, `✓ updated 0 of the 1 contact read from ${twice}: 1 unchanged, 0 skipped, 0 failed\n`]);
      expect((await listed())[1].name).toBe('Bob');
    });

    it('an emptied cell of an update file clears the value, shown in the plan; an import keeps it and says so', async () => {
      const emptied = file('emptied.csv', `id,name,email,gender\n${ann.id},Ann,,\n`);
      const plan = await run('contacts', 'update', '--from', emptied, '--dry-run');
      expect(plan.stdout).toBe(
        `~ line 2: update contact ${ann.id} (14155550201)\n` +
          '    email: "ann@example.com" -> null\n' +
          '    gender: "female" -> null\n' +
          'Plan: 0 to create, 1 to update, 0 unchanged, 0 invalid.\n',
      );
      const imported = file('kept.csv', 'number,name,email\n14155550202,,\n');
      const importPlan = await run('contacts', 'import', imported, '--dry-run', '-q');
      expect(importPlan.stdout).toContain(
        `= row 2: unchanged contact ${bob.id} (14155550202)\n` +
          '    name: emptied in the file, kept "Bob"\n' +
          '    email: emptied in the file, kept "bob@example.com"\n',
      );
      expect((await run('contacts', 'update', '--from', emptied)).code).toBe(0);
      expect((await run('contacts', 'import', imported, '--wait', '-q')).code).toBe(0);
      const [annAfter, bobAfter] = await listed();
      expect([annAfter.email, annAfter.gender, bobAfter.name, bobAfter.email]).toEqual([null, null, 'Bob', 'bob@example.com']);
    });

    it("one contact's e-mail and gender are cleared with --email '' and --gender ''", async () => {
      const res = await binary('contacts', 'update', String(bob.id), '--name', 'Bob', '--email', '', '--gender', '', '-o', 'json');
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout)).toMatchObject({ email: null, gender: null });
      expect((await listed())[1]).toMatchObject({ name: 'Bob', email: null, gender: null });
    });

    // Groups and custom fields of contacts are wsm serve's (the stand-in's records have neither).
    if (kind === SERVE_PROCESS)
      it('the plan names the groups the import creates, and a field emptied in an update file is removed', async () => {
        expect((await arrange('fields', 'create', 'city')).code).toBe(0);
        expect((await arrange('contacts', 'update', String(ann.id), '--name', 'Ann', '--field', 'city=Oslo')).code).toBe(0);
        const grouped = file('grouped.csv', 'number,contact_groups\n14155550201,"[""Newsletter""]"\n');
        const plan = await run('contacts', 'import', grouped, '--dry-run', '-q');
        expect(plan.stdout).toContain(
          `~ row 2: update contact ${ann.id} (14155550201)\n` +
            '    contact_groups: [] -> ["Newsletter"]\n' +
            '+ contact group "Newsletter": created by the import\n' +
            'Plan: 0 to create, 1 to update, 0 unchanged, 0 invalid; 1 contact group to create: "Newsletter".\n',
        );
        const cleared = file('city.csv', `id,city\n${ann.id},\n`);
        const clearPlan = await run('contacts', 'update', '--from', cleared, '--dry-run');
        expect(clearPlan.stdout).toContain('    fields.city: "Oslo" -> null\n');
        expect((await run('contacts', 'update', '--from', cleared)).code).toBe(0);
        const got = JSON.parse((await arrange('contacts', 'get', String(ann.id), '-o', 'json')).stdout);
        expect(got.fields).toEqual({});
      });
  });
}
