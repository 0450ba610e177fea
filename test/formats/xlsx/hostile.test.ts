/**
 * Damaged and hostile workbooks, each crafted byte by byte (crafted.ts): every one ends in rows or
 * in a WorkbookError that names the file and, where there is one, the cell, never in another
 * error, a crash or a value read from damage.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkbookError } from '../../../src/formats/workbook-error.js';
import { openWorkbook, type SheetRow } from '../../../src/formats/xlsx/sheet-reader.js';
import { type Part, sharedXml, sheetXml, stylesXml, workbookParts, zipBytes } from './crafted.js';

const dir = mkdtempSync(join(tmpdir(), 'wsm-xlsx-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** Writes the bytes as an .xlsx and reads its first sheet: its rows, or the WorkbookError it ends in. */
async function read(bytes: Buffer): Promise<{ file: string; rows?: SheetRow[]; error?: WorkbookError }> {
  const file = join(dir, `book-${++files}.xlsx`);
  writeFileSync(file, bytes);
  try {
    const workbook = await openWorkbook(file);
    try {
      const rows: SheetRow[] = [];
      for await (const row of workbook.rows()) rows.push(row);
      return { file, rows };
    } finally {
      await workbook.close();
    }
  } catch (error) {
    if (error instanceof WorkbookError) return { file, error };
    throw error;
  }
}

const sheet = (rows: string, extra?: Parameters<typeof workbookParts>[1]) => read(zipBytes(workbookParts(sheetXml(rows), extra)));
const texts = (rows: SheetRow[] | undefined) => rows?.map((r) => [r.row, ...r.cells.map((c) => c.text)]);

async function refused(pending: Promise<{ file: string; error?: WorkbookError; rows?: SheetRow[] }>, reason: RegExp, where?: string) {
  const { file, error, rows } = await pending;
  expect(rows, 'read as rows').toBeUndefined();
  expect(error?.file).toBe(file);
  expect(error?.message).toMatch(reason);
  expect(error?.message.startsWith(file)).toBe(true);
  if (where !== undefined) expect(error?.where).toBe(where);
}

describe('bounds of a sheet', () => {
  it('a cell at column ZZZZZZ is past XFD', async () => {
    await refused(
      sheet('<row r="1"><c r="ZZZZZZ1" t="inlineStr"><is><t>x</t></is></c></row>'),
      /cell ZZZZZZ1 is past column XFD/,
      'row 1 of sheet "Contacts"',
    );
  });

  it('a header of 200,000 cells is refused at the 16,385th', async () => {
    const cells = '<c t="inlineStr"><is><t>h</t></is></c>'.repeat(200_000);
    await refused(sheet(`<row r="1">${cells}</row>`), /row 1 holds more than 16,384 cells, the columns A to XFD/);
  });

  it('row 999,999,999 is past row 1,048,576', async () => {
    await refused(sheet('<row r="999999999"><c r="A999999999"><v>1</v></c></row>'), /row 999,999,999 is past row 1,048,576/);
  });

  it('rows out of order and cells out of order are damage', async () => {
    await refused(sheet('<row r="5"><c r="A5"><v>1</v></c></row><row r="2"><c r="A2"><v>1</v></c></row>'), /row 2 comes after row 5/);
    await refused(sheet('<row r="1"><c r="B1"><v>1</v></c><c r="A1"><v>2</v></c></row>'), /cell A1 comes after cell B1 in row 1/);
  });

  it('100,000 unclosed <c> stop at the second', async () => {
    await refused(sheet(`<row r="1">${'<c r="A1">'.repeat(100_000)}</row>`), /a cell stands inside a cell/, 'cell A1 of sheet "Contacts"');
  });

  it('a 16 MB row of 16,384 cells is one row', async () => {
    // Random text: a row of one repeated text would be refused as a bomb (it inflates over 50 times).
    const texts = Array.from({ length: 16_384 }, () => randomBytes(500).toString('hex'));
    const { rows, error } = await sheet(`<row r="1">${texts.map((text) => `<c t="inlineStr"><is><t>${text}</t></is></c>`).join('')}</row>`);
    expect(error).toBeUndefined();
    expect(rows?.[0].cells).toHaveLength(16_384);
    expect(rows?.[0].cells[16_383]).toEqual({ column: 16_383, text: texts[16_383] });
  });

  it('a cell over 32,767 characters names its cell and sheet, and what to do', async () => {
    const long = 'y'.repeat(32_768);
    await refused(
      sheet(
        `<row r="1"><c r="A1" t="inlineStr"><is><t>number</t></is></c></row><row r="7"><c r="C7" t="inlineStr"><is><t>${long}</t></is></c></row>`,
      ),
      /holds 32,768 characters; a cell holds at most 32,767: shorten it in the sheet, then import the file again/,
      'cell C7 of sheet "Contacts"',
    );
  });
});

describe('damage is refused, never read as a value', () => {
  it('<v></v> and <v>0x1F</v> in a number cell', async () => {
    await refused(sheet('<row r="2"><c r="B2"><v></v></c></row>'), /number cell holding no number/, 'cell B2 of sheet "Contacts"');
    await refused(sheet('<row r="2"><c r="B2"><v>0x1F</v></c></row>'), /holding "0x1F", which is no number/, 'cell B2 of sheet "Contacts"');
  });

  it('a shared-string index the workbook lacks', async () => {
    await refused(
      sheet('<row r="3"><c r="D3" t="s"><v>7</v></c></row>', { shared: sharedXml(['a', 'b']) }),
      /shared string "7", but the workbook has 2/,
      'cell D3 of sheet "Contacts"',
    );
  });

  it('&#x110000; (no character) and an undeclared entity', async () => {
    await refused(
      sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>&#x110000;</t></is></c></row>'),
      /not well-formed XML \(malformed character entity\)/,
      'cell A1 of sheet "Contacts"',
    );
    await refused(sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>&bomb;</t></is></c></row>'), /undefined entity/);
  });

  it('a DOCTYPE (where entities would be declared) is refused', async () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>${sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>&b;</t></is></c></row>').replace(/^<\?xml[^>]*>/, '')}`;
    await refused(read(zipBytes(workbookParts(xml))), /declares a DOCTYPE/);
  });

  it('elements nested 100,000 deep stop at the 101st', async () => {
    await refused(read(zipBytes(workbookParts(`<worksheet>${'<x>'.repeat(100_000)}`))), /nests elements more than 100 deep/);
  });

  it('an element of 100,000 attributes stops at the 257th', async () => {
    const attributes = Array.from({ length: 100_000 }, (_, i) => `a${i}=""`).join(' ');
    await refused(read(zipBytes(workbookParts(`<worksheet ${attributes}/>`))), /has more than 256 attributes/);
  });

  it('a commented-out row is not read; CDATA is read as its text', async () => {
    const { rows } = await sheet(
      '<row r="1"><c r="A1" t="inlineStr"><is><t>number</t></is></c></row><!-- <row r="2"><c r="A2"><v>5</v></c></row> --><row r="3"><c r="A3" t="inlineStr"><is><t><![CDATA[<b>&amp;</b>]]></t></is></c></row>',
    );
    expect(texts(rows)).toEqual([
      [1, 'number'],
      [3, '<b>&amp;</b>'],
    ]);
  });

  it('a boolean that is neither 1 nor 0, and a type no spreadsheet writes', async () => {
    await refused(sheet('<row r="1"><c r="A1" t="b"><v>2</v></c></row>'), /boolean holding "2"/);
    await refused(sheet('<row r="1"><c r="A1" t="zz"><v>2</v></c></row>'), /type "zz"/);
  });
});

describe('number formats past what can be displayed', () => {
  it('22 zeros or 101 decimals: the cell as displayed, or a WorkbookError naming the cell, never a RangeError', async () => {
    for (const code of ['0'.repeat(22), `0.${'0'.repeat(101)}`]) {
      const { rows, error } = await sheet('<row r="4"><c r="B4" s="1"><v>12.5</v></c></row>', {
        styles: stylesXml([0, 164], { 164: code }),
      });
      if (error !== undefined) expect(error.where).toBe('cell B4 of sheet "Contacts"');
      else expect(rows?.[0].cells[0].text).toMatch(/^0*12\.?5?0*$|^0*13$/);
    }
  });
});

describe('bombs', () => {
  it('a styles part of 100,000 cell formats', async () => {
    await refused(
      sheet('<row r="1"><c r="A1"><v>1</v></c></row>', { styles: stylesXml(Array(100_000).fill(0)) }),
      /more than 65,536 cell formats/,
    );
  });

  it('a shared-strings part that inflates 1,000 times', async () => {
    await refused(
      sheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row>', { shared: sharedXml(Array(2_000).fill('a'.repeat(10_000))) }),
      /xl\/sharedStrings\.xml inflates [\d,]+ times \(a ZIP bomb\?\)/,
    );
  });

  it('a part whose directory claims 4 GB', async () => {
    const parts = workbookParts(sheetXml('<row r="1"><c r="A1"><v>1</v></c></row>'), { sheetPart: { claim: { size: 0xffff_fff0 } } });
    await refused(read(zipBytes(parts)), /xl\/worksheets\/sheet1\.xml inflates to 4,096 MB, more than the 2,048 MB/);
  });

  it('a directory the end record says is 4 GB long', async () => {
    const { rows, error } = await read(
      zipBytes(workbookParts(sheetXml('<row r="1"><c r="A1"><v>1</v></c></row>')), { directorySize: 0xffff_fff0 }),
    );
    // yauzl reads the entries the directory holds, not the length it claims: rows, or a reason.
    expect(rows !== undefined || error instanceof WorkbookError).toBe(true);
  });
});

describe('the ZIP archive is checked', () => {
  const rows = '<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>2</v></c></row>';

  it('a part shorter than its directory says is an error, not half the rows', async () => {
    const sheetPart: Partial<Part> = { claim: { size: Buffer.byteLength(sheetXml(rows)) + 500 } };
    await refused(
      read(zipBytes(workbookParts(sheetXml(rows), { sheetPart }))),
      /a part is shorter than its ZIP directory says \(is the file whole\?\)/,
    );
  });

  it('a part whose CRC-32 does not match', async () => {
    await refused(
      read(zipBytes(workbookParts(sheetXml(rows), { sheetPart: { claim: { crc: 1234 } } }))),
      /sheet1\.xml is damaged \(its CRC-32 does not match/,
    );
  });

  it('a cut file', async () => {
    const whole = zipBytes(workbookParts(sheetXml(rows)));
    await refused(read(whole.subarray(0, whole.length - 40)), /not a ZIP archive|damaged/);
  });
});

describe('what the file is, when it is no workbook', () => {
  it('a password-protected workbook (a Compound File with EncryptionInfo)', async () => {
    const bytes = Buffer.concat([
      Buffer.from('d0cf11e0a1b11ae1', 'hex'),
      Buffer.alloc(1000),
      Buffer.from('EncryptionInfo', 'utf16le'),
      Buffer.alloc(1000),
    ]);
    await refused(read(bytes), /it is password-protected: save it without a password, then import it again/);
  });

  it('an old .xls (a Compound File without encryption)', async () => {
    await refused(read(Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(2000)])), /old Excel 97-2003 file \(\.xls\)/);
  });

  it('CSV named .xlsx, other text, an empty file', async () => {
    await refused(read(Buffer.from('number;name\n+447700900123;Ann\n')), /it is CSV text, not an \.xlsx workbook: name it \.csv/);
    await refused(read(Buffer.from('hello there\n')), /it is text, not an \.xlsx workbook/);
    await refused(read(Buffer.alloc(0)), /it is empty, not a workbook/);
  });
});

describe("LibreOffice's booleans", () => {
  it('=TRUE() and =FALSE() with their cached results are booleans, not formulas', async () => {
    const { rows } = await sheet(
      '<row r="1"><c r="A1" t="b"><f>TRUE()</f><v>1</v></c><c r="B1" t="b"><f>FALSE()</f><v>0</v></c><c r="C1"><f>1+1</f><v>2</v></c></row>',
    );
    expect(rows?.[0].cells).toEqual([
      { column: 0, text: 'true' },
      { column: 1, text: 'false' },
      { column: 2, text: '2', formula: true },
    ]);
  });
});
