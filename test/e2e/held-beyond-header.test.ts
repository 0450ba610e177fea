/**
 * Spreadsheet damage in a row with values beyond the header's columns. On the stand-in of the
 * published API, which takes such a row, the row is planned on the header's columns, so its damaged
 * cell is held exactly as in a row without the extra values: the plan says so, the run leaves the
 * cell out of the upload (the values beyond go as written) and the contact keeps its stored value,
 * while the row's other changes go in. On `wsm serve` such a row is invalid: the plan says so and the
 * run fails it; on `wsm serve --api-only`, which no extension tells apart, the plan holds the cell as
 * on the stand-in and the server refuses the row. A CSV (found by the one pass before the upload, by the quick read of a file whose
 * workspace holds nothing like damage, and planned whole under --strict) and an .xlsx sheet with a
 * value past the header's last column. The built binary runs each command once (binaryFirstRunner),
 * the import of the first test on each backend; the later runs are in-process.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openWorkbook } from '../../src/formats/xlsx/sheet-reader.js';
import { writeExcelLike } from '../formats/xlsx/excel-like.js';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { keepsImportBodies, throughProxy } from './forward.js';
import { binaryFirstRunner } from './in-process.js';

const BEYOND = 'The row has 4 values but the header has 3 columns.';
const LOST_ZEROS = (stored: string) => `"${stored}" would lose its leading zeros, as a spreadsheet drops them`;

/** A workbook's first sheet as rows of text, each as long as its last value. */
async function sheetRows(path: string): Promise<string[][]> {
  const workbook = await openWorkbook(path);
  const rows: string[][] = [];
  try {
    for await (const row of workbook.rows()) {
      const cells: string[] = [];
      for (const cell of row.cells) cells[cell.column] = cell.text;
      rows.push(Array.from(cells, (cell) => cell ?? ''));
    }
  } finally {
    await workbook.close();
  }
  return rows;
}

for (const kind of BACKENDS) {
  /** wsm serve: the plan calls such a row invalid. */
  const known = kind === BACKENDS[0];
  /** The stand-in takes such a row; wsm serve --api-only, whose plan takes it as the stand-in's does, refuses it as wsm serve does. */
  const taken = kind === BACKENDS[2];
  describe(`spreadsheet damage beside values beyond the header, against ${kind.name}`, () => {
    let backend: Backend;
    const runner = binaryFirstRunner();
    const run = (...args: string[]) => runner(backend.env, args);
    const stored = async () =>
      (
        JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Array<{
          number: string;
          name: string;
          email: string | null;
        }>
      )
        .map(({ number, name, email }) => [number, name, email])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    /** Two contacts whose names a spreadsheet would lose the leading zeros of. */
    const seed = async (first: string, second: string) => {
      for (const [number, name, email] of [
        [first, '00123', 'ann@old.example'],
        [second, '00124', 'bob@old.example'],
      ])
        expect((await run('contacts', 'create', '--number', number, '--name', name, '--email', email, '-q')).code).toBe(0);
    };
    /** Runs an import through a proxy that keeps the body sent: the result and that body. */
    const importKeepingBody = async (args: string[]) => {
      const { proxy, bodies } = await keepsImportBodies(new URL(backend.url));
      try {
        const result = await runner(throughProxy(backend.env, proxy, backend), [
          'contacts',
          'import',
          ...args,
          '--wait',
          '--interval',
          '0.05s',
        ]);
        return { ...result, body: bodies.join('') };
      } finally {
        await new Promise((resolve) => proxy.close(resolve));
      }
    };

    beforeAll(async () => {
      backend = await kind.start();
    });
    afterEach(async () => {
      if (backend) {
        const ids = (await run('contacts', 'list', '--all', '-q')).stdout.trim();
        if (ids !== '') expect((await runner(backend.env, ['contacts', 'delete', '--from', '-', '--yes', '-q'], `${ids}\n`)).code).toBe(0);
      }
    });
    afterAll(async () => {
      if (backend !== undefined) expect(await backend.stop()).toBe(0);
    });

    it('a CSV: the damaged cell of a row with an extra value is held as in the row without one; the extra value goes as written', async () => {
      await seed('351920000071', '351920000072');
      const file = backendFile(
        backend,
        'edited.csv',
        'number,name,email\n+351920000071,123,ann@new.example,"say ""hi"", twice"\n+351920000072,124,bob@new.example\n',
      );
      const plan = await run('contacts', 'import', file, '--dry-run', '-q');
      expect(plan.code, plan.stderr).toBe(known ? 8 : 0);
      const ids = (await run('contacts', 'list', '--all', '-q')).stdout.trim().split('\n');
      const bob =
        `~ row 3: update contact ${ids[1]} (351920000072)\n    email: "bob@old.example" -> "bob@new.example"\n` +
        `    ! name: "00124" kept, not "124": ${LOST_ZEROS('00124')}\n`;
      // A dry run lists each contact as its last row is read, then what it says of the whole file, then the check's report (-q: the file).
      expect(plan.stdout).toBe(
        known
          ? `x row 2: invalid\n    ${BEYOND}\n${bob}` +
              'Plan: 0 to create, 1 to update, 0 unchanged, 1 invalid; 1 cell looks changed by a spreadsheet and is kept as stored: --apply-flagged to apply it (marked !).\n' +
              `${file}\n`
          : `~ row 2: update contact ${ids[0]} (351920000071)\n    email: "ann@old.example" -> "ann@new.example"\n` +
              `    ! name: "00123" kept, not "123": ${LOST_ZEROS('00123')}\n` +
              `    ? extra_values: "say \\"hi\\", twice" sent as written, not known to be ignored: ${BEYOND}\n${bob}` +
              "? values beyond the header's columns in 1 row (row 2), sent as written: whether this server ignores them is not known\n" +
              'Plan: 0 to create, 2 to update, 0 unchanged, 0 invalid; 2 cells look changed by a spreadsheet and are kept as stored: --apply-flagged to apply them (marked !).\n' +
              `${file}\n`,
      );

      const imported = await importKeepingBody([file]);
      expect(imported.code, imported.stderr).toBe(taken ? 0 : 8);
      const heldLines = [
        ...(known ? [] : [`warning: ${file} row 2, contact ${ids[0]}: name: "00123" kept, not "123": ${LOST_ZEROS('00123')}`]),
        `warning: ${file} row 3, contact ${ids[1]}: name: "00124" kept, not "124": ${LOST_ZEROS('00124')}`,
        `warning: ${file}: ${known ? '1 cell looks' : '2 cells look'} changed by a spreadsheet and ${known ? 'was' : 'were'} kept as stored: --apply-flagged to apply ${known ? 'it' : 'them'}`,
      ];
      expect(imported.stderr.split('\n').slice(0, heldLines.length)).toEqual(heldLines);
      // The held name is left out of the row as of the row without an extra value; the extra value goes as written.
      expect(imported.body).toContain(
        `\n${known ? '+351920000071,123' : '+351920000071,'},ann@new.example,"say ""hi"", twice"\n+351920000072,,bob@new.example\n`,
      );
      expect(await stored()).toEqual([
        ['351920000071', '00123', taken ? 'ann@new.example' : 'ann@old.example'],
        ['351920000072', '00124', 'bob@new.example'],
      ]);
    });

    // The rest on the two servers whose reading of such a row the plan knows.
    if (kind === BACKENDS[1]) return;

    it('a CSV into a workspace holding nothing like damage: the new contact of a row with an extra value gets no name in scientific notation', async () => {
      // A name in scientific notation and a value beyond the header on one row, and nothing stored like damage.
      const rows = '+351920000081,1.23457E+15,cy@example.com,more\n+351920000082,Ivy,\n';
      const file = backendFile(backend, 'new.csv', `number,name,email\n${rows}`);
      const plan = await run('contacts', 'import', file, '--dry-run', '-o', 'json');
      expect(plan.code, plan.stderr).toBe(known ? 8 : 0);
      expect(JSON.parse(plan.stdout)).toMatchObject(known ? { create: 1, invalid: 1, held: 0 } : { create: 2, invalid: 0, held: 1 });
      const imported = await importKeepingBody([file]);
      expect(imported.code, imported.stderr).toBe(known ? 8 : 0);
      expect(imported.body).toContain(`\n+351920000081,${known ? '1.23457E+15' : ''},cy@example.com,more\n`);
      expect(await stored()).toEqual([...(known ? [] : [['351920000081', 'Unknown', 'cy@example.com']]), ['351920000082', 'Ivy', null]]);
    });

    it('--strict plans the whole file first: the held cell of a row with an extra value is left out all the same (refused on wsm serve)', async () => {
      await seed('351920000073', '351920000074');
      const file = backendFile(backend, 'strict.csv', 'number,name,email\n351920000073,123,ann@new.example,extra\n');
      const imported = await importKeepingBody([file, '--strict']);
      expect(imported.code, imported.stderr).toBe(known ? 2 : 0);
      if (known) {
        expect(imported.stderr).toBe(`error: ${file}: 1 of 1 row is invalid (--strict): nothing was sent\n  row 2: ${BEYOND}\n`);
        expect(imported.body).toBe('');
      } else expect(imported.body).toContain('\n351920000073,,ann@new.example,extra\n');
      expect((await stored())[0]).toEqual(['351920000073', '00123', known ? 'ann@old.example' : 'ann@new.example']);
    });

    it('an .xlsx with a value past the header: the plan and the run agree, the held cell is left out, --rejects keeps the value', async () => {
      await seed('351920000075', '351920000076');
      const file = join(backend.dir, 'edited.xlsx');
      // As a spreadsheet saves an export it opened: the names' leading zeros are gone from number cells.
      await writeExcelLike(file, [
        {
          name: 'Contacts',
          rows: {
            1: ['number', 'name', 'email'],
            2: [{ number: 351920000075 }, { number: 123 }, 'ann@new.example', null, 'extra'],
            3: [{ number: 351920000076 }, { number: 124 }, 'bob@new.example'],
          },
        },
      ]);
      const plan = JSON.parse((await run('contacts', 'import', file, '--dry-run', '-o', 'json')).stdout);
      expect(plan).toMatchObject(known ? { update: 1, invalid: 1, held: 1 } : { update: 2, invalid: 0, held: 2 });
      if (!known)
        expect(plan.contacts[0]).toMatchObject({
          place: 'row 2',
          changes: { email: { from: 'ann@old.example', to: 'ann@new.example' } },
          held: { name: { from: '00123', to: '123' } },
          unreadable: { extra_values: { cell: ',extra' } },
        });

      const rejects = join(backend.dir, 'fix.xlsx');
      const imported = await importKeepingBody([file, '--rejects', rejects]);
      expect(imported.code, imported.stderr).toBe(known ? 8 : 0);
      expect(imported.stderr).toContain(
        `warning: ${file}: ${known ? '1 cell looks' : '2 cells look'} changed by a spreadsheet and ${known ? 'was' : 'were'} kept as stored`,
      );
      expect(imported.body).toContain(`\n351920000075,${known ? '123' : ''},ann@new.example,,extra\n351920000076,,bob@new.example\n`);
      expect(await stored()).toEqual([
        ['351920000075', '00123', known ? 'ann@old.example' : 'ann@new.example'],
        ['351920000076', '00124', 'bob@new.example'],
      ]);
      // The failed row comes back with its value past the header, as a CSV's does: after import_error and import_line.
      const back = await sheetRows(rejects);
      expect(back).toEqual([
        ['number', 'name', 'email', 'import_error', 'import_line'],
        ...(known
          ? [['351920000075', '123', 'ann@new.example', 'The row has 5 values but the header has 3 columns.', '2', '', 'extra']]
          : []),
      ]);
    });
  });
}
