/**
 * `contacts import FILE.xlsx` and `contacts update|delete --from FILE.xlsx`, in-process,
 * against `wsm serve`, `wsm serve --api-only` and the stand-in for the hosted service (the API
 * receives CSV, so the published API is enough). Workbooks written the way Excel writes them
 * (excel-like.ts): every cell read as the spreadsheet displays it, rows named by sheet row, an
 * error cell's row not sent and named by its cell, formulas read as their saved result with a warning.
 * The built binary runs each command once, against wsm serve: the update and the delete --from of a
 * workbook, and the import whose invalid rows were all held back.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkbook } from '../../src/formats/xlsx/sheet-reader.js';
import { writeExcelLike, type Sheet } from '../formats/xlsx/excel-like.js';
import { BACKENDS, type Backend, withBackend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const LEADS: Sheet = {
  name: 'Leads',
  rows: {
    1: ['number', 'name', 'status', 'email', 'zip', 'joined', 'score'],
    2: [
      { number: 447911123458 },
      'Ann Lee',
      { boolean: true },
      'ann@example.com',
      { number: 123, format: '00000' },
      { number: 45622, format: 'yyyy-mm-dd' },
      { number: 1234.5, format: '#,##0.00' },
    ],
    3: [
      { inline: '+351912345601' },
      { formula: 'CONCAT("Bo","b")', result: 'Bob' },
      { boolean: false },
      null,
      { number: 7, format: '00000' },
      null,
      { number: 0.256, format: '0.0%' },
    ],
    // Row 4 is empty: rows keep the sheet's numbers.
    5: [{ number: 14155550103 }, 'Cy', { boolean: true }, { error: '#N/A' }, null, null, null],
    6: [{ number: 14155550104 }, 'Di', 'maybe', null, null, null, null],
  },
};

/** A workbook's first sheet as rows of text, each as wide as the header. */
async function sheetRows(path: string): Promise<string[][]> {
  const workbook = await openWorkbook(path);
  const rows: string[][] = [];
  try {
    for await (const row of workbook.rows()) {
      const cells = Array.from({ length: rows[0]?.length ?? Math.max(...row.cells.map((c) => c.column + 1)) }, () => '');
      for (const cell of row.cells) cells[cell.column] = cell.text;
      rows.push(cells);
    }
  } finally {
    await workbook.close();
  }
  return rows;
}

const OTHER: Sheet = { name: 'Other', rows: { 1: ['number', 'name'], 2: [{ number: 14155550199 }, 'Only here'] } };

describe.each(BACKENDS.map((kind) => [kind.name, kind] as const))('contacts import FILE.xlsx against %s', (_name, kind) => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  let file: string;
  beforeAll(async () => {
    backend = await kind.start();
    for (const field of ['zip', 'joined', 'score']) expect((await run('fields', 'create', field)).code).toBe(0);
    file = join(backend.dir, 'leads.xlsx');
    await writeExcelLike(file, [LEADS, OTHER]);
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('--dry-run: the report names sheet rows and the error cell; the formula is warned; exit 8', async () => {
    const res = await run('contacts', 'import', file, '--dry-run', '-o', 'json');
    expect(res.code, res.stderr).toBe(8);
    const report = JSON.parse(res.stdout);
    expect(report).toMatchObject({ file, rows: 4, valid_rows: 2, invalid_rows: 2 });
    // The plan against the workspace counts the row not sent among the invalid ones.
    expect(report).toMatchObject({ create: 2, update: 0, invalid: 2 });
    expect(report.problems).toEqual([
      { row: 5, line: 5, field: 'D5 (email)', message: 'The cell holds the error #N/A, not a value.' },
      { row: 6, line: 6, field: 'status', message: expect.stringContaining('maybe') },
    ]);
    expect(res.stderr).toContain(`warning: ${file}: 1 cell holds a formula (first B3): the result the spreadsheet saved with it is read`);
  });

  it('--wait: each cell as displayed reaches the contact; the row with an error cell is not sent and counts as failed (exit 8)', async () => {
    const rejects = join(backend.dir, 'failed.xlsx');
    const res = await run('contacts', 'import', file, '--wait', '--interval', '0.2s', '-o', 'json', '--rejects', rejects);
    expect(res.code, res.stderr).toBe(8);
    // The rows that failed, on the server or never sent (or, where the server keeps no list of its errors, found invalid by the check), by sheet row.
    expect((await sheetRows(rejects)).slice(1).map((row) => row[8])).toEqual(['5', '6']);
    // The hosted service's import record has no counters (the published API shows none): the rows not sent are counted all the same.
    expect(res.stderr).toMatch(
      kind.name.startsWith('wsm serve')
        ? /: 2 of 4 rows failed, 1 of them not sent \(cells holding errors\)/
        : /rows? failed, 1 of them not sent \(cells holding errors\)/,
    );
    const contacts = JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Array<{
      number: string;
      name: string;
      status: boolean;
      email: string | null;
      fields?: Record<string, string>;
    }>;
    const byName = Object.fromEntries(contacts.map((c) => [c.name, c]));
    // Cy's row was never sent; Di's status is refused by wsm's rules (the stand-in takes it).
    expect(Object.keys(byName)).toEqual(expect.arrayContaining(['Ann Lee', 'Bob']));
    expect(Object.keys(byName)).not.toContain('Cy');
    // The number in full, never 4.47911E+11, whatever the server.
    expect(byName['Ann Lee']).toMatchObject({ number: expect.stringMatching(/^\+?447911123458$/), email: 'ann@example.com' });
    if (kind.name.startsWith('wsm serve')) {
      // wsm's rules: numbers stored as digits, TRUE/FALSE read as booleans (the stand-in has its own).
      expect(byName['Ann Lee']).toMatchObject({ number: '447911123458', status: true });
      expect(byName['Bob']).toMatchObject({ number: '351912345601', status: false });
      expect(byName['Ann Lee'].fields).toMatchObject({ zip: '00123', joined: '2024-11-26', score: '1,234.50' });
      expect(byName['Bob'].fields).toMatchObject({ zip: '00007', score: '25.6%' });
    }
  });

  it('--rejects writes the failed rows as an .xlsx: the sheet header and cells, import_error, import_line (the sheet row)', async () => {
    const rejects = join(backend.dir, 'fix.xlsx');
    const res = await run('contacts', 'import', file, '--dry-run', '--rejects', rejects);
    expect(res.code, res.stderr).toBe(8);
    const rows = await sheetRows(rejects);
    expect(rows[0]).toEqual([...LEADS.rows[1].map(String), 'import_error', 'import_line']);
    expect(rows.slice(1).map((row) => [row[0], row[7].slice(0, 30), row[8]])).toEqual([
      ['14155550103', 'The cell holds the error #N/A,', '5'],
      ['14155550104', expect.any(String), '6'],
    ]);
    expect(rows[1][3]).toBe('#N/A');
    // That file imported again: its own import_error and import_line cells take the new reason and sheet row.
    const again = join(backend.dir, 'fix-again.xlsx');
    const rerun = await run('contacts', 'import', rejects, '--dry-run', '--rejects', again);
    // Both rows are still invalid: the file has no valid row (exit 2), and the rejects are written all the same.
    expect(rerun.code, rerun.stderr).toBe(2);
    const rewritten = await sheetRows(again);
    expect(rewritten[0]).toEqual([...LEADS.rows[1].map(String), 'import_error', 'import_line']);
    expect(rewritten.slice(1).map((row) => [row[0], row[3], row[7], row[8]])).toEqual([
      ['14155550103', '#N/A', 'The email field must be a valid email address.', '2'],
      ['14155550104', '', expect.stringContaining('maybe'), '3'],
    ]);
    const csvName = await run('contacts', 'import', file, '--dry-run', '--rejects', join(backend.dir, 'fix.csv'));
    expect(csvName.code).toBe(2);
    expect(csvName.stderr).toBe(`error: --rejects writes the rows back in the input's format: name it .xlsx (${file} is a workbook)\n`);
  });

  it('--sheet reads another sheet; a sheet the file lacks is exit 2 naming those it has', async () => {
    const missing = await run('contacts', 'import', file, '--sheet', 'March', '--dry-run');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`error: ${file}: it has no sheet named "March"; its sheets: "Leads", "Other": nothing was sent\n`);
    const other = await run('contacts', 'import', file, '--sheet', 'Other', '--dry-run', '-o', 'json');
    expect(other.code, other.stderr).toBe(0);
    expect(JSON.parse(other.stdout)).toMatchObject({ rows: 1, valid_rows: 1 });
  });
});

describe('contacts update|delete --from FILE.xlsx against wsm serve', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  const ids: string[] = [];
  beforeAll(async () => {
    backend = await BACKENDS[0].start();
    for (const number of ['14155550301', '14155550302', '14155550303']) {
      ids.push((await run('contacts', 'create', '--number', number, '--name', `Person ${number.slice(-1)}`, '-q')).stdout.trim());
    }
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('update --from applies each row, ids read from number cells in full; rows named by sheet row', async () => {
    const file = join(backend.dir, 'changes.xlsx');
    await writeExcelLike(file, [
      {
        name: 'Sheet1',
        rows: {
          1: ['id', 'name', 'status'],
          2: [{ number: Number(ids[0]) }, 'Renamed', { boolean: false }],
          4: [{ number: Number(ids[1]) }, { formula: 'UPPER("x")', result: 'X' }, null],
        },
      },
    ]);
    const res = await wsm(backend.env, ['contacts', 'update', '--from', file, '-o', 'json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('1 cell holds a formula (first B4)');
    const listed = JSON.parse((await run('contacts', 'list', '-o', 'json')).stdout) as Array<{ id: number; name: string; status: boolean }>;
    expect(listed.map((c) => [c.name, c.status])).toEqual([
      ['Renamed', false],
      ['X', true],
      ['Person 3', true],
    ]);
  });

  it('an error cell or a bad value stops everything before sending, named by sheet row and cell (exit 2)', async () => {
    const file = join(backend.dir, 'bad.xlsx');
    await writeExcelLike(file, [
      {
        name: 'Sheet1',
        rows: { 1: ['id', 'email'], 2: [{ number: Number(ids[2]) }, { error: '#REF!' }], 5: [{ number: Number(ids[2]) }, 'not-mail'] },
      },
    ]);
    const res = await run('contacts', 'update', '--from', file);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `error: ${file} has cells holding errors, not values: nothing was sent\n  row 2 B2: The cell holds the error #REF!, not a value.\n`,
    );
    await writeExcelLike(file, [{ name: 'Sheet1', rows: { 1: ['id', 'email'], 5: [{ number: Number(ids[2]) }, 'not-mail'] } }]);
    const bad = await run('contacts', 'update', '--from', file);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('  row 5 email: ');
  });

  it('delete --from reads the id column of a workbook; --sheet with a CSV, or a workbook on stdin, is refused', async () => {
    const file = join(backend.dir, 'gone.xlsx');
    await writeExcelLike(file, [{ name: 'Sheet1', rows: { 1: ['id'], 3: [{ number: Number(ids[2]) }] } }]);
    // The plan names the sheet row.
    const plan = await run('contacts', 'delete', '--from', file, '--dry-run');
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`- row 3: delete contact ${ids[2]}`);
    const res = await wsm(backend.env, ['contacts', 'delete', '--from', file, '--yes', '-o', 'json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([{ id: Number(ids[2]), outcome: 'deleted', status: 200, message: expect.any(String) }]);
    expect((await run('contacts', 'delete', '--from', join(backend.dir, 'ids.csv'), '--sheet', 'x')).stderr).toBe(
      `error: --sheet names a sheet of an .xlsx workbook; ${join(backend.dir, 'ids.csv')} is not one\n`,
    );
  });
});

describe('imports errors after an .xlsx import, against wsm serve', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  withBackend(BACKENDS[0], (started) => {
    backend = started;
  });

  it("each error names the sheet row; a row never sent is not among the server's errors, and the outcome says where it is", async () => {
    const file = join(backend.dir, 'people.xlsx');
    await writeExcelLike(file, [
      {
        name: 'People',
        rows: {
          1: ['number', 'name', 'email'],
          // A name over three lines: the CSV sent has more lines than the sheet has rows.
          2: [{ number: 14155550301 }, 'Ann\nLee\nSmith', 'ann@example.com'],
          3: ['bad-number', 'Cy', null],
          4: [{ number: 14155550303 }, 'Di', { error: '#N/A' }],
          6: [{ number: 14155550304 }, 'Ed', 'not-an-email'],
          7: [{ number: 14155550305 }, 'Flo', null],
        },
      },
    ]);
    const res = await run('contacts', 'import', file, '--wait', '--interval', '0.1s', '-o', 'json');
    expect(res.code, res.stderr).toBe(8);
    const id = JSON.parse(res.stdout).id as number;
    // The import is named after the workbook; the file the server keeps is the CSV sent (docs/decisions.md).
    expect(JSON.parse(res.stdout)).toMatchObject({ name: 'people.xlsx', file_name: 'people.csv' });
    expect(res.stderr).toContain(`warning: ${file} row 4: C4 (email): The cell holds the error #N/A, not a value.\n`);
    // Once sent: the row left out is said as not sent; the server skips only the invalid rows it received.
    // Nothing in the sheet looks changed by a spreadsheet, so it is sent at once and checked while the server works.
    expect(res.stderr).toContain(
      `✓ uploaded ${file} as import ${id}\n` +
        `warning: ${file} row 3: number: The number must be a phone number of 7 to 15 digits.\n` +
        `warning: ${file} row 4: C4 (email): The cell holds the error #N/A, not a value.\n` +
        `warning: ${file} row 6: email: The email field must be a valid email address.\n` +
        `warning: ${file} row 4 was not sent: cell C4 holds an error (#N/A)\n` +
        'warning: sent anyway: the server skips the 2 invalid rows (use --strict to refuse the file)\n',
    );
    expect(res.stderr.split('\n').at(-2)).toBe(
      `error: import ${id}: 3 of 5 rows failed, 1 of them not sent (cells holding errors) ` +
        `(\`wsm imports errors ${id}\` lists the 2 the server refused; not sent: row 4)`,
    );
    const errors = await run('imports', 'errors', String(id), '-o', 'json');
    expect(errors.code, errors.stderr).toBe(0);
    // The sheet's rows; `line` is the line of the CSV the server received (row 2 took three), as for any import.
    expect(JSON.parse(errors.stdout)).toEqual([
      { row: 3, line: 5, message: 'The number must be a phone number of 7 to 15 digits.', failed: true },
      { row: 6, line: 8, message: 'The email field must be a valid email address.', failed: true },
    ]);
  });

  it('a sheet is planned by its rows, each named by its sheet row alone, whatever lines its CSV takes', async () => {
    const file = join(backend.dir, 'lines.xlsx');
    await writeExcelLike(file, [
      {
        name: 'People',
        rows: {
          1: ['number', 'name'],
          2: [{ number: 14155550501 }, 'Ann\nLee\nSmith'],
          3: [{ number: 14155550502 }, 'Bo'],
          4: [{ number: 14155550502 }, 'Bo Two'],
        },
      },
    ]);
    // The CSV sent takes lines 2 to 4 for row 2; the plan, like the sheet, knows rows only.
    const plan = await run('contacts', 'import', file, '--dry-run');
    expect([plan.code, plan.stderr]).toEqual([0, '']);
    expect(plan.stdout).toContain(
      '+ row 2: create 14155550501\n' +
        '    name: "Ann\\nLee\\nSmith"\n' +
        '+ rows 3, 4: create 14155550502\n' +
        '    rows 3, 4 are one contact: created by row 3, updated by row 4\n' +
        '    name: "Bo Two"\n',
    );
    const sent = await run('contacts', 'import', file, '--wait', '--interval', '0.1s');
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toContain(`${file} rows 3, 4, new contact 14155550502: the rows name one contact`);
  });

  it('the real binary: rows not sent are said as not sent, and no row is said skipped by the server when every invalid row was held back', async () => {
    const file = join(backend.dir, 'held-back.xlsx');
    await writeExcelLike(file, [
      {
        name: 'People',
        rows: {
          1: ['number', 'name', 'email'],
          2: [{ number: 14155550401 }, 'Gus', 'gus@example.com'],
          3: [{ number: 14155550402 }, { error: '#N/A' }, null],
          4: [{ number: 14155550403 }, { error: '#REF!' }, { error: '#N/A' }],
        },
      },
    ]);
    const res = await wsm(backend.env, ['contacts', 'import', file, '--wait', '--interval', '0.1s']);
    expect(res.code, res.stderr).toBe(8);
    const id = /as import (\d+)/.exec(res.stderr)![1];
    expect(res.stderr).toBe(
      `✓ uploaded ${file} as import ${id}\n` +
        `warning: ${file} row 3: B3 (name): The cell holds the error #N/A, not a value.\n` +
        `warning: ${file} row 4: B4 (name): The cell holds the error #REF!, not a value.\n` +
        `warning: ${file} row 4: C4 (email): The cell holds the error #N/A, not a value.\n` +
        `warning: ${file} row 3 was not sent: cell B3 holds an error (#N/A)\n` +
        `warning: ${file} row 4 was not sent: cells B4, C4 hold errors (#REF!, #N/A)\n` +
        `error: import ${id}: 2 of 3 rows failed, 2 of them not sent (cells holding errors) (not sent: rows 3, 4)\n`,
    );
  });
});
