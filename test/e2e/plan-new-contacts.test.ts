/**
 * The contacts an import creates, planned as created, against wsm serve and the stand-in. wsm runs
 * in-process (in-process.ts: the binary's entry point, its bytes and exit code); the built binary
 * runs the one command, `contacts import`, on each backend (the .xlsx with a number and its twin).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeExcelLike } from '../formats/xlsx/excel-like.js';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import type { Stored } from './plan-property.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const SCIENTIFIC = '"3.51E+12" is in scientific notation, as a spreadsheet writes a long number: its last digits may be lost';
const besideStored = (number: string, id: number, stored: string) =>
  `number: "${number}" would be a new contact beside contact ${id}, "${stored}": a spreadsheet may have dropped its leading zeros`;
const besideTwin = (number: string, twin: string) =>
  `number: "${number}" would be a new contact beside "${twin}", a number of the same file: a spreadsheet may have dropped its leading zeros`;

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`the contacts an import creates, planned as created, against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const file = (name: string, text: string) => backendFile(backend, name, text);
    const listed = async () => JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Stored[];
    const numbers = async (prefix: string) =>
      (await listed())
        .filter((contact) => contact.number.replace(/^0+/, '').startsWith(prefix))
        .map((contact) => [contact.number, contact.name]);

    beforeAll(async () => {
      backend = await kind.start();
    });
    afterAll(async () => {
      await backend?.stop();
    });

    it('a new contact whose one name cell is held: the plan, the JSON and the run say it is named "Unknown", and it is', async () => {
      const csv = file('unnamed.csv', 'number,name,email\n16505550701,3.51E+12,x@example.com\n');
      const plan = await run('contacts', 'import', csv, '--dry-run', '-q');
      expect([plan.code, plan.stdout]).toEqual([
        0,
        '+ row 2: create 16505550701\n' +
          '    name: "Unknown"\n' +
          '    email: "x@example.com"\n' +
          `    ! name: "Unknown" (the server's name for a new contact without one), not "3.51E+12": ${SCIENTIFIC}\n` +
          'Plan: 1 to create, 0 to update, 0 unchanged, 0 invalid; 1 cell looks changed by a spreadsheet and is left out: --apply-flagged to apply it (marked !).\n' +
          `${csv}\n`,
      ]);
      const json = JSON.parse((await run('contacts', 'import', csv, '--dry-run', '-o', 'json')).stdout);
      expect(json.contacts[0]).toMatchObject({
        action: 'create',
        changes: { name: { from: null, to: 'Unknown' }, email: { from: null, to: 'x@example.com' } },
        held: { name: { from: null, to: '3.51E+12', instead: 'Unknown', why: SCIENTIFIC } },
        after: { name: 'Unknown', email: 'x@example.com', status: true },
      });
      const real = await run('contacts', 'import', csv, '--wait', '-q');
      expect([real.code, real.stderr]).toEqual([
        0,
        `warning: ${csv} row 2, new contact 16505550701: name: "Unknown" (the server's name for a new contact without one), not "3.51E+12": ${SCIENTIFIC}\n` +
          `warning: ${csv}: 1 cell looks changed by a spreadsheet and was left out: --apply-flagged to apply it\n`,
      ]);
      expect((await listed()).filter((c) => c.number === '16505550701').map((c) => [c.name, c.email])).toEqual([
        ['Unknown', 'x@example.com'],
      ]);
      // A new contact with no name cell at all is shown named as the server names it too.
      const nameless = file('nameless.csv', 'number,email\n16505550702,y@example.com\n');
      const bare = await run('contacts', 'import', nameless, '--dry-run', '-q');
      expect(bare.stdout).toContain('+ row 2: create 16505550702\n    name: "Unknown"\n    email: "y@example.com"\n');
    });

    it('one new number with and without its leading zeros: the one without is left out, before or after its twin; --strict alike', async () => {
      const text =
        'number,name\n16505550801,Unpadded First\n016505550801,Padded\n+0 (1) 650 555 0802,Padded Two\n+1 650 555 0802,Unpadded Later\n';
      const csv = file('twins.csv', text);
      const plan = await run('contacts', 'import', csv, '--dry-run', '-q');
      expect([plan.code, plan.stdout]).toEqual([
        0,
        '! row 2: 16505550801: not created\n' +
          `    ! ${besideTwin('16505550801', '016505550801')}: the row is left out\n` +
          '+ row 3: create 016505550801\n' +
          '    name: "Padded"\n' +
          '+ row 4: create 016505550802\n' +
          '    name: "Padded Two"\n' +
          '! row 5: 16505550802: not created\n' +
          `    ! ${besideTwin('16505550802', '016505550802')}: the row is left out\n` +
          'Plan: 2 to create, 0 to update, 0 unchanged, 0 invalid, 2 skipped; 2 cells look changed by a spreadsheet and are left out: --apply-flagged to apply them (marked !).\n' +
          `${csv}\n`,
      ]);
      const strict = await run('contacts', 'import', csv, '--strict', '--wait', '-q');
      expect([strict.code, strict.stderr]).toEqual([
        0,
        `warning: ${csv} row 2, new contact 16505550801: ${besideTwin('16505550801', '016505550801')}: the row is left out\n` +
          `warning: ${csv} row 5, new contact 16505550802: ${besideTwin('16505550802', '016505550802')}: the row is left out\n` +
          `warning: ${csv}: 2 cells look changed by a spreadsheet and were left out: --apply-flagged to apply them\n`,
      ]);
      expect(await numbers('165055508')).toEqual([
        ['016505550801', 'Padded'],
        ['016505550802', 'Padded Two'],
      ]);
    });

    it('a new number with more leading zeros than a stored one is a new contact; one with fewer is left out, in the plan and the run', async () => {
      const seeded = await run(
        'contacts',
        'import',
        file('stored-padded.csv', 'number,name\n016505551001,One Zero\n0016505551002,Two Zeros\n'),
        '--wait',
        '-q',
      );
      expect(seeded.code).toBe(0);
      const ids = Object.fromEntries((await listed()).map((contact) => [contact.number, Number(contact.id)]));
      const csv = file('more-zeros.csv', 'number,name\n0016505551001,More Zeros\n016505551002,Fewer Zeros\n16505551001,No Zeros\n');
      const plan = await run('contacts', 'import', csv, '--dry-run', '-q');
      expect([plan.code, plan.stdout]).toEqual([
        0,
        '+ row 2: create 0016505551001\n' +
          '    name: "More Zeros"\n' +
          '! row 3: 016505551002: not created\n' +
          `    ! ${besideStored('016505551002', ids['0016505551002'], '0016505551002')}: the row is left out\n` +
          '! row 4: 16505551001: not created\n' +
          `    ! ${besideStored('16505551001', ids['016505551001'], '016505551001')}: the row is left out\n` +
          'Plan: 1 to create, 0 to update, 0 unchanged, 0 invalid, 2 skipped; 2 cells look changed by a spreadsheet and are left out: --apply-flagged to apply them (marked !).\n' +
          `${csv}\n`,
      ]);
      const real = await run('contacts', 'import', csv, '--wait', '-q');
      expect([real.code, real.stderr]).toEqual([
        0,
        `warning: ${csv} row 3, new contact 016505551002: ${besideStored('016505551002', ids['0016505551002'], '0016505551002')}: the row is left out\n` +
          `warning: ${csv} row 4, new contact 16505551001: ${besideStored('16505551001', ids['016505551001'], '016505551001')}: the row is left out\n` +
          `warning: ${csv}: 2 cells look changed by a spreadsheet and were left out: --apply-flagged to apply them\n`,
      ]);
      expect(await numbers('1650555100')).toEqual([
        ['016505551001', 'One Zero'],
        ['0016505551002', 'Two Zeros'],
        ['0016505551001', 'More Zeros'],
      ]);
    });

    it('the real run without --strict, from CSV and from .xlsx, leaves the twin out as planned; --apply-flagged creates both, as its plan says', async () => {
      const csv = file('twins-at-once.csv', 'number,name\n16505550901,Unpadded\n16505550909,Other\n016505550901,Padded\n');
      const real = await run('contacts', 'import', csv, '--wait', '-q');
      expect([real.code, real.stderr]).toEqual([
        0,
        `warning: ${csv} row 2, new contact 16505550901: ${besideTwin('16505550901', '016505550901')}: the row is left out\n` +
          `warning: ${csv}: 1 cell looks changed by a spreadsheet and was left out: --apply-flagged to apply it\n`,
      ]);
      expect(await numbers('16505550901')).toEqual([['016505550901', 'Padded']]);
      expect(await numbers('16505550909')).toEqual([['16505550909', 'Other']]);

      const sheet = join(backend.dir, 'twins.xlsx');
      const rows = [
        ['number', 'name'],
        ['016505550911', 'Padded'],
        ['16505550911', 'Unpadded'],
      ];
      await writeExcelLike(sheet, [{ name: 'Sheet1', rows: Object.fromEntries(rows.map((cells, i) => [i + 1, cells])) }]);
      const fromSheet = await wsm(backend.env, ['contacts', 'import', sheet, '--wait', '-q']);
      expect([fromSheet.code, fromSheet.stderr.split('\n')[0]]).toEqual([
        0,
        `warning: ${sheet} row 3, new contact 16505550911: ${besideTwin('16505550911', '016505550911')}: the row is left out`,
      ]);
      expect(await numbers('16505550911')).toEqual([['016505550911', 'Padded']]);

      const both = file('twins-applied.csv', 'number,name\n16505550921,Unpadded\n016505550921,Padded\n');
      const applyPlan = JSON.parse((await run('contacts', 'import', both, '--dry-run', '--apply-flagged', '-o', 'json')).stdout);
      expect(applyPlan).toMatchObject({ create: 2, skipped: 0, held: 0, suspicious: 1 });
      expect(applyPlan.contacts[0].suspicious).toEqual([besideTwin('16505550921', '016505550921')]);
      const applied = await run('contacts', 'import', both, '--wait', '--apply-flagged', '-q');
      expect([applied.code, applied.stderr]).toEqual([0, '']);
      expect(await numbers('16505550921')).toEqual([
        ['16505550921', 'Unpadded'],
        ['016505550921', 'Padded'],
      ]);
    });
  });
}
