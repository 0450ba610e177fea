/**
 * An import's number cell a spreadsheet wrote as a decimal (`447911123458.00`: a column formatted
 * `0.00`, in an .xlsx or a CSV saved from one; `447911123458.0`): the import drops its dot as a
 * separator and keeps the zeros, a number nobody meant. A new such number leaves its row out whole,
 * said with why, in the dry run, --strict and the default run (its quick scan and hold pass) alike,
 * and --apply-flagged sends it; a dotted number (`415.555.0101`) is a number like any other.
 * update --from compares a decimal of the contact's own number as that number. On wsm serve and the
 * stand-in; the first run of each server on the built binary (binaryFirstRunner), the rest in-process.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeExcelLike } from '../formats/xlsx/excel-like.js';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { binaryFirstRunner } from './in-process.js';

const why = (cell: string, number: string) =>
  `"${cell}" would be a new contact, "${number}": a spreadsheet writes a number as a decimal (a column formatted 0.00) and the import reads its dot as a separator, keeping the zeros`;
const leftOut = (row: number, cell: string, number: string) =>
  `! row ${row}: ${number}: not created\n    ! number: ${why(cell, number)}: the row is left out\n`;
const WAIT = ['--wait', '--interval', '0.05s'];

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`a number cell a spreadsheet wrote as a decimal, against ${kind.name}`, () => {
    let backend: Backend;
    const runner = binaryFirstRunner();
    const run = (...args: string[]) => runner(backend.env, args);
    const stored = async () =>
      (JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Array<{ number: string; name: string }>)
        .map(({ number, name }) => `${number} ${name}`)
        .sort();
    let ann: number;

    beforeAll(async () => {
      backend = await kind.start();
      const made = await run('contacts', 'create', '--number', '14155550100', '--name', 'Ann', '-o', 'json');
      expect(made.code, made.stderr).toBe(0);
      ann = (JSON.parse(made.stdout) as { id: number }).id;
    });
    afterAll(async () => {
      if (backend !== undefined) expect(await backend.stop()).toBe(0);
    });

    it('a CSV: the plan leaves the decimal rows out with why, and --strict does as it said; a dotted number is created', async () => {
      const file = backendFile(backend, 'decimals.csv', 'number,name\n447911123458.00,Two\n415.555.0101,Dotted\n447911123459.0,One\n');
      const dry = await run('contacts', 'import', file, '--dry-run');
      expect([dry.code, dry.stderr]).toEqual([0, '']);
      expect(dry.stdout.slice(0, dry.stdout.indexOf('file\t'))).toBe(
        leftOut(2, '447911123458.00', '44791112345800') +
          '+ row 3: create 4155550101\n    name: "Dotted"\n' +
          leftOut(4, '447911123459.0', '4479111234590') +
          'Plan: 1 to create, 0 to update, 0 unchanged, 0 invalid, 2 skipped; 2 cells look changed by a spreadsheet and are left out: --apply-flagged to apply them (marked !).\n',
      );
      const json = JSON.parse((await run('contacts', 'import', file, '--dry-run', '-o', 'json')).stdout);
      expect(json.contacts[0]).toMatchObject({
        action: 'skipped',
        number: '44791112345800',
        held: { number: { from: null, to: '44791112345800', why: why('447911123458.00', '44791112345800') } },
      });

      const strict = await run('contacts', 'import', file, '--strict', ...WAIT);
      expect(strict.code, strict.stderr).toBe(0);
      expect(strict.stderr.split('\n').slice(0, 3)).toEqual([
        `warning: ${file} row 2, new contact 44791112345800: number: ${why('447911123458.00', '44791112345800')}: the row is left out`,
        `warning: ${file} row 4, new contact 4479111234590: number: ${why('447911123459.0', '4479111234590')}: the row is left out`,
        `warning: ${file}: 2 cells look changed by a spreadsheet and were left out: --apply-flagged to apply them`,
      ]);
      expect(await stored()).toEqual(['14155550100 Ann', '4155550101 Dotted']);
    });

    it('the default run holds a row its quick scan alone would pass (`.0`, nothing else like damage); --apply-flagged creates it', async () => {
      const file = backendFile(backend, 'one-decimal.csv', 'number,name\n447911123460.0,Once\n16505550004,Plain\n');
      const dry = await run('contacts', 'import', file, '--dry-run');
      expect(dry.stdout.slice(0, dry.stdout.indexOf('Plan:'))).toBe(
        `${leftOut(2, '447911123460.0', '4479111234600')}+ row 3: create 16505550004\n    name: "Plain"\n`,
      );
      const real = await run('contacts', 'import', file, ...WAIT);
      expect(real.code, real.stderr).toBe(0);
      expect(real.stderr.split('\n')[0]).toBe(
        `warning: ${file} row 2, new contact 4479111234600: number: ${why('447911123460.0', '4479111234600')}: the row is left out`,
      );
      expect(await stored()).toEqual(['14155550100 Ann', '16505550004 Plain', '4155550101 Dotted']);

      const flagged = await run('contacts', 'import', file, '--apply-flagged', '--dry-run');
      expect(flagged.stdout.slice(0, flagged.stdout.indexOf('Plan:'))).toBe(
        `+ row 2: create 4479111234600\n    name: "Once"\n    ! number: ${why('447911123460.0', '4479111234600')} (applied: --apply-flagged)\n`,
      );
      const applied = await run('contacts', 'import', file, '--apply-flagged', ...WAIT);
      expect(applied.code, applied.stderr).toBe(0);
      expect(await stored()).toEqual(['14155550100 Ann', '16505550004 Plain', '4155550101 Dotted', '4479111234600 Once']);
    });

    it('an .xlsx column formatted 0.00: the plan and the default run leave the row out, --apply-flagged creates it', async () => {
      const file = join(backend.dir, 'decimals.xlsx');
      await writeExcelLike(file, [
        {
          name: 'Leads',
          rows: {
            1: ['number', 'name'],
            2: [{ number: 447911123461, format: '0.00' }, 'Sheet'],
            3: [{ number: 16505550005, format: '0' }, 'Whole'],
          },
        },
      ]);
      const dry = await run('contacts', 'import', file, '--dry-run');
      expect(dry.stdout.slice(0, dry.stdout.indexOf('Plan:'))).toBe(
        `${leftOut(2, '447911123461.00', '44791112346100')}+ row 3: create 16505550005\n    name: "Whole"\n`,
      );
      const real = await run('contacts', 'import', file, ...WAIT);
      expect(real.code, real.stderr).toBe(0);
      expect(real.stderr).toContain(
        `warning: ${file} row 2, new contact 44791112346100: number: ${why('447911123461.00', '44791112346100')}: the row is left out\n`,
      );
      expect((await stored()).filter((each) => each.endsWith(' Sheet') || each.endsWith(' Whole'))).toEqual(['16505550005 Whole']);
      const applied = await run('contacts', 'import', file, '--apply-flagged', ...WAIT);
      expect(applied.code, applied.stderr).toBe(0);
      expect(await stored()).toContain('44791112346100 Sheet');
    });

    it("a decimal of a stored contact's number (an export saved from a sheet) names that contact", async () => {
      const file = backendFile(backend, 'export.csv', 'number,name\n14155550100.00,Ann\n');
      const dry = await run('contacts', 'import', file, '--dry-run');
      expect(dry.stdout.slice(0, dry.stdout.indexOf('Plan:'))).toBe(
        '! row 2: 1415555010000: not created\n' +
          `    ! number: "14155550100.00" would be a new contact, "1415555010000", beside contact ${ann}, "14155550100": ` +
          'a spreadsheet writes a number as a decimal (a column formatted 0.00) and the import reads its dot as a separator, keeping the zeros: the row is left out\n',
      );
      expect((await run('contacts', 'import', file, ...WAIT)).code).toBe(0);
      expect((await stored()).filter((each) => each.startsWith('14155550100'))).toEqual(['14155550100 Ann']);
    });

    it("update --from reads a decimal of the contact's own number as that number: no note that it is not applied", async () => {
      const file = backendFile(backend, 'changes.csv', `id,number,name\n${ann},14155550100.00,Annie\n`);
      const dry = await run('contacts', 'update', '--from', file, '--dry-run');
      expect([dry.code, dry.stdout]).toEqual([
        0,
        `~ line 2: update contact ${ann} (14155550100)\n    name: "Ann" -> "Annie"\nPlan: 0 to create, 1 to update, 0 unchanged, 0 invalid.\n`,
      ]);
      const real = await run('contacts', 'update', '--from', file, '--yes');
      expect(real.code, real.stderr).toBe(0);
      expect(await stored()).toContain('14155550100 Annie');
    });
  });
}
