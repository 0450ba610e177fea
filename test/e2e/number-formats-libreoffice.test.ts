/**
 * Number cells read as LibreOffice shows them. The corpus (test/formats/xlsx/number-formats.tsv:
 * a format code, a value, and where the display drops digits the cell holds, what wsm reads
 * instead) is written as one workbook per date system (1900 and 1904), each case a number cell
 * with its format; LibreOffice (headless, a profile of its own) converts each to CSV "as shown",
 * and every cell wsm reads from the same workbook must be that text, or, under the digits rule,
 * the `read` column with LibreOffice's text as the note's `shown`. Add a case by adding a line.
 * Needs LibreOffice's `soffice` (.ci/run installs it): without it this test fails, saying so.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenizeCsv } from '../../src/formats/csv/reader.js';
import { openWorkbook } from '../../src/formats/xlsx/sheet-reader.js';
import { writeExcelLike } from '../formats/xlsx/excel-like.js';

const SOFFICE = process.env.SOFFICE ?? '/usr/bin/soffice';
/** Comma, double quote, UTF-8, from line 1, ..., the 9th token: save cell contents as shown. */
const AS_SHOWN = 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true';

interface Case {
  format: string;
  value: number;
  /** What wsm reads where the display drops digits the cell holds; empty: the display itself. */
  read: string;
}

const CORPUS: Case[] = readFileSync(new URL('../formats/xlsx/number-formats.tsv', import.meta.url), 'utf8')
  .split('\n')
  .slice(1)
  .filter((line) => line !== '')
  .map((line) => {
    const [format, value, read = ''] = line.split('\t');
    return { format, value: Number(value), read };
  });

const dir = mkdtempSync(join(tmpdir(), 'wsm-number-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each case's row (2, 3, ...) as LibreOffice shows it, from its "as shown" CSV of the workbook. */
async function libreOfficeShows(workbook: string, name: string): Promise<Map<number, string>> {
  const out = join(dir, `${name}-csv`);
  mkdirSync(out);
  const profile = pathToFileURL(join(dir, `profile-${name}`)).href;
  await promisify(execFile)(
    SOFFICE,
    [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', AS_SHOWN, '--outdir', out, workbook],
    { env: { ...process.env, LC_ALL: 'C.UTF-8' } },
  );
  const csv = join(out, `${name}.csv`);
  if (!existsSync(csv)) throw new Error(`LibreOffice did not write ${csv}`);
  const shown = new Map<number, string>();
  for (const token of tokenizeCsv(readFileSync(csv, 'utf8'))) if (token.kind === 'record') shown.set(token.row, token.cells[0] ?? '');
  return shown;
}

/** Each row's first cell as wsm reads it: its text, and what the note says is shown where they differ. */
async function wsmReads(workbook: string): Promise<Map<number, { text: string; shown?: string }>> {
  const read = new Map<number, { text: string; shown?: string }>();
  const book = await openWorkbook(workbook);
  try {
    for await (const row of book.rows()) {
      const cell = row.cells.find((c) => c.column === 0);
      if (cell !== undefined) read.set(row.row, { text: cell.text, ...(cell.shown !== undefined ? { shown: cell.shown } : {}) });
    }
  } finally {
    await book.close();
  }
  return read;
}

const SYSTEMS = [
  { name: 'dates-1900', date1904: false },
  { name: 'dates-1904', date1904: true },
];
const seen: Record<string, { libreOffice: Map<number, string>; wsm: Map<number, { text: string; shown?: string }> }> = {};

beforeAll(async () => {
  // Never a skip: without LibreOffice nothing here can say what a spreadsheet shows.
  if (!existsSync(SOFFICE))
    throw new Error(
      `${SOFFICE} not found: install LibreOffice (apt-get install -y libreoffice-calc-nogui; .ci/run does) or set SOFFICE to its soffice`,
    );
  for (const { name, date1904 } of SYSTEMS) {
    const workbook = join(dir, `${name}.xlsx`);
    // Row 1 is a header, so that no case is the sheet's first row.
    const rows = Object.fromEntries([[1, ['shown']], ...CORPUS.map((c, at) => [at + 2, [{ number: c.value, format: c.format }]])]);
    await writeExcelLike(workbook, [{ name: 'Formats', rows }], { date1904 });
    seen[name] = { libreOffice: await libreOfficeShows(workbook, name), wsm: await wsmReads(workbook) };
  }
});

describe('number cells as LibreOffice shows them', () => {
  it('the corpus has at least 200 cases, each of every kind the issue names', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(200);
    const kinds: Record<string, RegExp> = {
      'literal text': /"[^"]+"/,
      'two to four sections': /;.*;.*;/,
      colours: /\[(Red|Blue|Green|Color\d+)\]/,
      conditions: /\[[<>=]/,
      'thousands scaling': /0,+("|$)/,
      fractions: /\?\/\?/,
      percent: /%/,
      scientific: /E[+-]/,
      dates: /yyyy/,
      'elapsed time': /\[h+\]/,
      text: /@/,
      'currencies of several locales': /\[\$€-407\]/,
    };
    for (const [kind, pattern] of Object.entries(kinds))
      expect(
        CORPUS.some((c) => pattern.test(c.format)),
        kind,
      ).toBe(true);
  });

  it.each(SYSTEMS.map((system) => [system.name]))(
    '%s: every cell wsm reads is what LibreOffice shows (or, digits dropped, the value in full)',
    (name) => {
      const { libreOffice, wsm } = seen[name];
      const differences = CORPUS.flatMap((c, at) => {
        const shows = libreOffice.get(at + 2) ?? '';
        const read = wsm.get(at + 2) ?? { text: '' };
        const expected = c.read === '' ? { text: shows } : { text: c.read, shown: shows };
        return JSON.stringify(read) === JSON.stringify(expected)
          ? []
          : [{ format: c.format, value: c.value, libreOffice: shows, wsm: read }];
      });
      expect(differences).toEqual([]);
      expect(libreOffice.get(1)).toBe('shown');
    },
  );
});
