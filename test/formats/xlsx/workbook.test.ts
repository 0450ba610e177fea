/**
 * The .xlsx writer and reader on real files in a temporary folder: what the export writes reads
 * back cell for cell; a file that is not a workbook is refused with the reason (number formats:
 * number-format.test.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeXlsx } from '../../../src/formats/xlsx/sheet-writer.js';
import { openWorkbook } from '../../../src/formats/xlsx/sheet-reader.js';
import { WorkbookError } from '../../../src/formats/workbook-error.js';
import { openZip } from '../../../src/formats/xlsx/zip-reader.js';
import { ZipWriter } from '../../../src/formats/xlsx/zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'wsm-xlsx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function write(name: string, header: string[], rows: string[][]): Promise<string> {
  const path = join(dir, name);
  const chunks: Buffer[] = [];
  async function* batches() {
    yield rows.slice(0, 2);
    yield rows.slice(2);
  }
  await writeXlsx(
    { write: async (bytes) => void chunks.push(Buffer.from(bytes)) },
    { sheetName: 'Contacts', header, rows: batches(), sample: rows.slice(0, 2) },
  );
  writeFileSync(path, Buffer.concat(chunks));
  return path;
}

async function readAll(path: string, sheet?: string) {
  const workbook = await openWorkbook(path);
  try {
    const rows = [];
    for await (const row of workbook.rows(sheet)) rows.push(row);
    return rows;
  } finally {
    await workbook.close();
  }
}

const TRICKY = [
  '07700900123',
  '00012345678901234567',
  '=1+1',
  "'=already quoted",
  '1E5',
  'line one\nline two\r\nline three\rend',
  'Zoë 😀 مرحبا עברית',
  'tab\there & <b>bold</b> "quoted"',
  'bell\u0007 and _x0041_ literally',
  '  padded  ',
];

describe('the .xlsx export file', () => {
  it('reads back exactly what was written, every cell text, rows numbered from the header', async () => {
    const header = ['id', 'value'];
    const rows = TRICKY.map((value, i) => [String(i + 1), value]);
    const path = await write('tricky.xlsx', header, rows);
    const read = await readAll(path);
    expect(read.map((r) => r.row)).toEqual(Array.from({ length: TRICKY.length + 1 }, (_, i) => i + 1));
    expect(read.map((r) => r.cells.map((c) => c.text))).toEqual([header, ...rows]);
    expect(read.flatMap((r) => r.cells).every((c) => c.error === undefined && c.formula === undefined)).toBe(true);
  });

  it('has a bold, frozen header, text-formatted cells and column widths', async () => {
    const path = await write(
      'look.xlsx',
      ['number', 'a_rather_long_column_name'],
      [
        ['07700900123', 'x'],
        ['1', 'y'],
        ['2', 'z'],
      ],
    );
    const zip = await openZip(path);
    const sheet = await zip.text('xl/worksheets/sheet1.xml');
    const styles = await zip.text('xl/styles.xml');
    await zip.close();
    expect(sheet).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
    expect(sheet).toContain('<col min="1" max="1" width="12" style="1" customWidth="1"/>');
    expect(sheet).toContain('<col min="2" max="2" width="28" style="1" customWidth="1"/>');
    // Header cells in style 2 (bold font, text format), data cells in style 1 (text format 49).
    expect(sheet).toContain('<c r="A1" s="2" t="inlineStr">');
    expect(sheet).toContain('<c r="A2" s="1" t="inlineStr"><is><t xml:space="preserve">07700900123</t></is></c>');
    expect(sheet).not.toContain('<f>');
    expect(styles).toContain('<font><b/>');
    expect(styles).toContain('<xf numFmtId="49" fontId="1"');
  });
});

describe('a workbook whose elements carry a namespace prefix (as the OpenXML SDK writes them)', () => {
  it('reads as one without', async () => {
    const path = join(dir, 'prefixed.xlsx');
    const chunks: Buffer[] = [];
    const zip = new ZipWriter({ write: async (bytes) => void chunks.push(Buffer.from(bytes)) });
    const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    await zip.add('xl/workbook.xml', [
      `<x:workbook xmlns:x="${main}" xmlns:r="r"><x:sheets><x:sheet name="People" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>`,
    ]);
    await zip.add('xl/_rels/workbook.xml.rels', [
      '<Relationships><Relationship Id="rId1" Type="t/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="t/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
    ]);
    await zip.add('xl/sharedStrings.xml', [
      `<x:sst xmlns:x="${main}"><x:si><x:t>number</x:t></x:si><x:si><x:t xml:space="preserve">Ann &amp; Bo</x:t></x:si></x:sst>`,
    ]);
    await zip.add('xl/worksheets/sheet1.xml', [
      `<x:worksheet xmlns:x="${main}"><x:sheetData><x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c></x:row><x:row r="3"><x:c r="A3"><x:v>447911123458</x:v></x:c><x:c r="B3" t="s"><x:v>1</x:v></x:c></x:row></x:sheetData></x:worksheet>`,
    ]);
    await zip.finish();
    writeFileSync(path, Buffer.concat(chunks));
    expect((await readAll(path)).map((r) => [r.row, r.cells.map((c) => c.text)])).toEqual([
      [1, ['number']],
      [3, ['447911123458', 'Ann & Bo']],
    ]);
  });
});

describe('a file that is not a workbook', () => {
  it('is refused with the reason', async () => {
    const text = join(dir, 'not.xlsx');
    writeFileSync(text, 'number,name\n1,a\n');
    await expect(openWorkbook(text)).rejects.toThrow(
      new WorkbookError(text, 'it is CSV text, not an .xlsx workbook: name it .csv, then import it again'),
    );
    const cut = join(dir, 'cut.xlsx');
    const whole = readFileSync(await write('whole.xlsx', ['a'], [['1'], ['2'], ['3']]));
    writeFileSync(cut, whole.subarray(0, whole.length - 30));
    await expect(openWorkbook(cut)).rejects.toThrow(WorkbookError);
  });

  it('names the sheets it has when --sheet names another', async () => {
    const path = await write('sheets.xlsx', ['a'], [['1'], ['2'], ['3']]);
    await expect(readAll(path, 'Leads')).rejects.toThrow(`${path}: it has no sheet named "Leads"; its sheets: "Contacts"`);
    expect((await readAll(path, 'contacts')).length).toBe(4);
  });
});
