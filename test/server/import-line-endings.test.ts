/**
 * Import files (decisions.md §7, §8): CRLF, LF and CR each end a row outside quotes, in any mix;
 * nothing merges rows silently; inside quotes a line break is part of the value (RFC 4180). Each
 * case is a real CSV file, imported by the server (app.inject + the import worker) and checked by
 * `wsm contacts import --dry-run` (in-process, test/e2e/in-process.ts) against that same server: both
 * must see the same rows, at the same lines, with the same verdicts. The server is wsm's, so the CLI
 * reads the file as it does; a server of unknown rules is refused a quote that never closes
 * (test/e2e/import-open-quote.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from '../e2e/in-process.js';
import { createHarness, type Harness, listen } from './harness.js';
import { runPendingImports } from '../../src/server/workers/imports.js';
import { checkImportFile, countDataRows, readCsvRows } from '../../src/api/import-csv.js';
import { testEnv } from '../e2e/processes.js';
import { multipart } from './template-fixtures.js';

let h: Harness;
let baseUrl: string;
beforeAll(async () => {
  h = await createHarness();
  baseUrl = await listen(h);
});
afterAll(async () => {
  await h?.close();
});

interface Expected {
  /** name of each contact created, in file order */
  names: string[];
  /** line of each row that fails */
  failedLines: number[];
}

const NUMBERS = ['15550000001', '15550000002', '15550000003', '15550000004'];
const [A, B, C, D] = NUMBERS;

const cases: Array<[string, string, Expected]> = [
  ['LF', `number,name\n${A},Ann\n${B},Bob\n`, { names: ['Ann', 'Bob'], failedLines: [] }],
  ['CRLF', `number,name\r\n${A},Ann\r\n${B},Bob\r\n`, { names: ['Ann', 'Bob'], failedLines: [] }],
  ['CR', `number,name\r${A},Ann\r${B},Bob\r`, { names: ['Ann', 'Bob'], failedLines: [] }],
  // The file: CRLF first, then LF, CR and CRLF. Four rows, not two.
  ['mixed', `number,name\r\n${A},Ann\n${B},Bob\r${C},Cy\r\n${D},Dee\r\n`, { names: ['Ann', 'Bob', 'Cy', 'Dee'], failedLines: [] }],
  // Blank lines of every kind still count as lines.
  ['mixed blank lines', `number,name\r\n\r\n${A},Ann\r\r${B},Bob\n\n${C},Cy`, { names: ['Ann', 'Bob', 'Cy'], failedLines: [] }],
  // A quoted value over two lines is one value (RFC 4180), whatever the line end.
  ['quoted value over a line end', `number,name\n${A},"Ann\nLee"\n${B},Bob\n`, { names: ['Ann\nLee', 'Bob'], failedLines: [] }],
  ['quoted value over a CR', `number,name\r${A},"Ann\rLee"\r${B},Bob\r`, { names: ['Ann\rLee', 'Bob'], failedLines: [] }],
  // A quote that never closes costs its own line: the rows after it are read.
  ['quote never closed', `number,name\n${A},"Ann\n${B},Bob\n${C},Cy\n`, { names: ['Bob', 'Cy'], failedLines: [2] }],
  // More values than columns: a comma in an unquoted name shifts the row; reported, not cut.
  ['more values than columns', `number,name\n${A},Lee, Ann\n${B},Bob,\n`, { names: ['Bob'], failedLines: [2] }],
];

async function serverImport(file: string) {
  const form = multipart([['name', 'Endings']], [{ name: 'file', filename: 'endings.csv', type: 'text/csv', bytes: readFileSync(file) }]);
  const res = await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/contact-imports`, ...form });
  expect(res.statusCode, res.body).toBe(201);
  await runPendingImports(h.app);
  return (await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contact-imports/${res.json().data.id}` })).json().data;
}

async function cliDryRun(file: string, invalid: boolean) {
  const env = { ...testEnv(h.dir), WSM_BASE_URL: baseUrl, WSM_TOKEN: h.token, WSM_WORKSPACE: h.ws };
  const res = await wsmInProcess(env, ['contacts', 'import', file, '--dry-run', '-o', 'json']);
  // A dry run with an invalid row exits 8 (done, but some items failed), its report on stdout.
  expect(res.code, res.stderr).toBe(invalid ? 8 : 0);
  return JSON.parse(res.stdout) as { rows: number; valid_rows: number; invalid_rows: number; problems: Array<{ line: number }> };
}

describe('line endings: the server and the CLI read the same rows', () => {
  for (const [name, content, expected] of cases) {
    it(`${name}: ${expected.names.length} created, failed at [${expected.failedLines}], and the same from --dry-run`, async () => {
      h.db.exec('DELETE FROM contacts');
      const file = join(h.dir, `${name.replaceAll(' ', '-')}.csv`);
      writeFileSync(file, content);
      const done = await serverImport(file);
      const rows = expected.names.length + expected.failedLines.length;
      expect(done).toMatchObject({
        status: 'completed',
        total_rows: rows,
        processed_rows: rows,
        created_count: expected.names.length,
        failed_count: expected.failedLines.length,
      });
      expect(done.errors.map((e: { row: number }) => e.row)).toEqual(expected.failedLines);
      const names = h.db.prepare('SELECT name FROM contacts ORDER BY id').pluck().all();
      expect(names).toEqual(expected.names);

      const report = await cliDryRun(file, expected.failedLines.length > 0);
      expect({ rows: report.rows, valid: report.valid_rows, invalid: report.invalid_rows }).toEqual({
        rows,
        valid: expected.names.length,
        invalid: expected.failedLines.length,
      });
      expect([...new Set(report.problems.map((p) => p.line))]).toEqual(expected.failedLines);
    });
  }
});

describe('the reader', () => {
  const write = (name: string, content: string | Buffer) => {
    const file = join(h.dir, name);
    writeFileSync(file, content);
    return file;
  };
  const linesOf = async (file: string) => {
    const items: Array<number | string> = [];
    for await (const item of readCsvRows(file)) items.push(item.kind === 'record' ? item.line : `error@${item.line}`);
    return items;
  };

  it('reads a CRLF split across two reads of the file as one line end', async () => {
    // The file is read 64 KiB at a time: put the CR as the last byte of the first read.
    const header = 'number,name\r\n';
    const row = (i: number) => `${15_550_000_000 + i},Person ${i}\r\n`;
    let text = header;
    let i = 0;
    while (text.length < 65_000) text += row(i++);
    // The next row is as long as it takes for its CR to be byte 65,535 and its LF byte 65,536.
    text += `${15_550_000_000 + i},${'x'.repeat(65_537 - text.length - 14)}\r\n`;
    i += 1;
    expect(text.length).toBe(65_537);
    expect(text[65_535]).toBe('\r');
    for (let j = 0; j < 3; j++) text += row(i + j);
    const file = write('split.csv', text);
    const lines = await linesOf(file);
    expect(lines).toEqual(Array.from({ length: i + 4 }, (_, k) => k + 1));
    expect(await countDataRows(file)).toBe(i + 3);
  });

  it('accepts a CR-only file whose first line end comes after the 64 KiB sample, as long as the header fits', async () => {
    const rows = Array.from({ length: 5000 }, (_, k) => `${15_550_000_000 + k},Person ${k}`);
    const file = write('cr-only.csv', `number,name\r${rows.join('\r')}\r`);
    expect(await checkImportFile(file)).toMatchObject({ ok: true });
    expect(await countDataRows(file)).toBe(5000);
  });

  it('counts exactly the rows it yields, whatever the endings, quotes and blanks', async () => {
    const texts = [
      ...cases.map(([, content]) => content),
      '\uFEFFnumber,name\r\n""\r\n" ",""\r\n"\r\n\u00a0\n,,\r',
      'number,name\n"',
      `number\n${'9'.repeat(2 * 1024 * 1024)}\n${A}\n`,
    ];
    for (const [k, text] of texts.entries()) {
      const file = write(`count-${k}.csv`, text);
      const yielded = (await linesOf(file)).length;
      expect(await countDataRows(file), JSON.stringify(text.slice(0, 60))).toBe(Math.max(0, yielded - 1));
    }
  });

  it('reports a row too long to be a contact, and goes on with the next', async () => {
    const file = write('long.csv', `number,name\n${A},${'n'.repeat(2 * 1024 * 1024)}\n${B},Bob\n`);
    const items = [];
    for await (const item of readCsvRows(file)) items.push(item);
    expect(items.map((item) => (item.kind === 'record' ? item.line : `${item.line}: ${item.message}`))).toEqual([
      1,
      '2: The row is too long.',
      3,
    ]);
  });
});
