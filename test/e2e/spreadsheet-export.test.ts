/**
 * `wsm contacts export -o xlsx` against a real `wsm serve`, in-process: the workbook
 * holds the CSV export's header and rows, every cell text with exactly the stored value; piped and
 * --output-file give the same file; a terminal, --json/-q and other verbs are refused before
 * anything is sent.
 * The built binary runs the command once: `contacts export -o xlsx --output-file`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { createTestIO } from '../../src/cli/io.js';
import { openWorkbook } from '../../src/formats/xlsx/sheet-reader.js';
import { wsmInProcess } from './in-process.js';
import { BACKENDS, type Backend } from './backends.js';
import { wsm } from './processes.js';

let backend: Backend;
const run = (...args: string[]) => wsmInProcess(backend.env, args);

/** `wsm <args>` in this process with stdout's bytes kept (a workbook is binary) and stdout a terminal or not. */
async function runBytes(args: string[], terminal = false) {
  const io = createTestIO({ stdoutTTY: terminal, stderrTTY: false });
  const code = await main(args, { io, env: { ...backend.env } });
  return { code, stdout: io.stdoutBytes, stderr: io.stderrText };
}

async function sheetOf(path: string): Promise<string[][]> {
  const workbook = await openWorkbook(path);
  const rows: string[][] = [];
  try {
    for await (const row of workbook.rows()) {
      // Empty cells are not written: each row as wide as the header.
      const cells: string[] = Array.from({ length: rows[0]?.length ?? 0 }, () => '');
      for (const cell of row.cells) cells[cell.column] = cell.text;
      rows.push(cells);
    }
  } finally {
    await workbook.close();
  }
  return rows;
}

const VALUES = {
  name: '=1+1 Zoë 😀',
  city: 'line one\nline two',
  code: '00012345678901234567',
  note: 'مرحبا بالعالم',
};

beforeAll(async () => {
  backend = await BACKENDS[0].start();
  for (const field of ['city', 'code', 'note']) expect((await run('fields', 'create', field)).code).toBe(0);
  expect((await run('groups', 'create', 'VIP')).code).toBe(0);
  const created = await run(
    'contacts',
    'create',
    '--number',
    '07700900123',
    '--name',
    VALUES.name,
    '--group',
    '1',
    '--field',
    `city=${VALUES.city}`,
    '--field',
    `code=${VALUES.code}`,
    '--field',
    `note=${VALUES.note}`,
  );
  expect(created.code, created.stderr).toBe(0);
  expect((await run('contacts', 'create', '--number', '14155550102', '--name', '@Bob', '--inactive')).code).toBe(0);
});

afterAll(async () => {
  if (backend) expect(await backend.stop()).toBe(0);
});

describe('contacts export -o xlsx', () => {
  it('holds the CSV export header and rows, each cell exactly the stored value (no formula guard)', async () => {
    const file = join(backend.dir, 'contacts.xlsx');
    const res = await run('contacts', 'export', '--output-file', file);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    const rows = await sheetOf(file);
    const csv = await run('contacts', 'export');
    const header = csv.stdout.split('\n')[0].split(',');
    expect(rows[0]).toEqual(header);
    const contacts = JSON.parse((await run('contacts', 'list', '-o', 'json')).stdout) as Array<
      Record<string, unknown> & { fields: Record<string, string> }
    >;
    const expected = contacts.map((c) => [
      String(c.id),
      String(c.number),
      String(c.name),
      String(c.email ?? ''),
      String(c.gender ?? ''),
      String(c.status),
      JSON.stringify((c.contact_groups as Array<{ name: string }>).map((g) => g.name)),
      String(c.created_at),
      String(c.updated_at),
      c.fields.city ?? '',
      c.fields.code ?? '',
      c.fields.note ?? '',
    ]);
    expect(rows.slice(1)).toEqual(expected);
    const ann = rows.find((row) => row[2] === VALUES.name)!;
    // The cell holds what the server stores, its line break included.
    const stored = contacts.find((c) => c.name === VALUES.name)!;
    expect(stored.fields.city).toMatch(/^line one\r?\nline two$/);
    expect(ann.slice(9)).toEqual([stored.fields.city, VALUES.code, VALUES.note]);
    expect(rows.find((row) => row[2] === '@Bob')?.[5]).toBe('false');
    // The CSV export guards the same values; the workbook needs no guard.
    expect(csv.stdout).toContain("'=1+1 Zoë 😀");
  });

  it('piped gives the same bytes as --output-file; a name ending .xlsx needs no -o', async () => {
    const file = join(backend.dir, 'same.xlsx');
    expect((await wsm(backend.env, ['contacts', 'export', '-o', 'xlsx', '--output-file', file])).code).toBe(0);
    const piped = await runBytes(['contacts', 'export', '-o', 'xlsx']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout.subarray(0, 2).toString()).toBe('PK');
    expect(piped.stdout.equals(readFileSync(file))).toBe(true);
  });

  it('is refused on a terminal, naming the command that writes a file (exit 2, nothing written)', async () => {
    const res = await runBytes(['contacts', 'export', '-o', 'xlsx'], true);
    expect(res.code).toBe(2);
    expect(res.stdout.length).toBe(0);
    expect(res.stderr).toBe(
      'error: an .xlsx workbook is not written to a terminal: write it to a file with `wsm contacts export -o xlsx --output-file contacts.xlsx` (or `> contacts.xlsx`)\n',
    );
  });

  it('-o xlsx is refused by other verbs and with -q/--json; -o csv into a .xlsx name is refused', async () => {
    expect(await run('contacts', 'list', '-o', 'xlsx')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: -o xlsx is written by `wsm contacts export` only (a spreadsheet of contacts); here use -o csv, json or ndjson\n',
    });
    expect((await run('contacts', 'export', '-o', 'xlsx', '-q')).stderr).toBe(
      'error: -q cannot be used with -o xlsx: they ask for different output\n',
    );
    const wrong = await run('contacts', 'export', '-o', 'csv', '--output-file', join(backend.dir, 'x.xlsx'));
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe('error: -o csv writes CSV, not a workbook: name the file .csv, or write it with -o xlsx\n');
    // A workbook under a text file's name would open as garbage: refused too, nothing written.
    const named = join(backend.dir, 'y.csv');
    expect(await run('contacts', 'export', '-o', 'xlsx', '--output-file', named)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: -o xlsx writes a workbook, not CSV: name the file .xlsx, or write it with -o csv\n',
    });
    expect(existsSync(named)).toBe(false);
    // The last -o wins: JSON under a .csv name is refused as well.
    expect(await run('contacts', 'export', '-o', 'xlsx', '--output-file', named, '-o', 'json')).toMatchObject({
      code: 2,
      stderr: 'error: -o json writes JSON, not CSV: name the file .json, or write it with -o csv\n',
    });
    expect((await run('contacts', 'export', '-o', 'csv', '--output-file', join(backend.dir, 'z.json'))).stderr).toBe(
      'error: -o csv writes CSV, not JSON: name the file .csv, or write it with -o json\n',
    );
    expect(existsSync(named)).toBe(false);
  });

  it('--output-file writes CSV too, and a failed export leaves the old file as it was', async () => {
    const file = join(backend.dir, 'backup.csv');
    expect((await run('contacts', 'export', '--output-file', file)).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe((await run('contacts', 'export')).stdout);
    writeFileSync(file, 'old\n');
    const env = { ...backend.env, WSM_TOKEN: 'wrong' };
    const failed = await wsmInProcess(env, ['contacts', 'export', '--output-file', file]);
    expect(failed.code).toBe(3); // the token refused
    expect(readFileSync(file, 'utf8')).toBe('old\n');
    expect(readdirSync(backend.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(existsSync(join(backend.dir, 'missing', 'x.xlsx'))).toBe(false);
  });
});
