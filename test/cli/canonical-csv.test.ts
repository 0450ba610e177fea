// The CSV an import sends for a file the published API does not read as wsm does: read back by the
// reader of wsm serve's import, it gives the file's rows, each on the file's own row and line, with
// the same cells (the export's guard taken off once, its id and times left out) and the same
// refusals, whatever the separator, encoding, line ends, blank records and quoted line breaks.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CsvItem, openCsv } from '../../src/api/import-csv.js';
import { writeCanonical } from '../../src/commands/imports/canonical-csv.js';
import type { HeldCells } from '../../src/commands/imports/import-plan.js';

const dir = mkdtempSync(join(tmpdir(), 'wsm-canonical-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function itemsOf(path: string): Promise<{ separator: string; guarded: boolean; items: CsvItem[] }> {
  const csv = await openCsv(path);
  const items: CsvItem[] = [];
  for await (const item of csv.rows) items.push(item);
  return { separator: csv.format.separator, guarded: csv.format.wsmExport, items };
}

async function sent(name: string, bytes: Buffer, held: HeldCells = new Map()): Promise<{ text: string; path: string }> {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const target = join(dir, `${name}.sent`);
  const fd = openSync(target, 'w');
  try {
    await writeCanonical(path, fd, held);
  } finally {
    closeSync(fd);
  }
  return { text: readFileSync(target, 'utf8'), path };
}

describe('the CSV sent for a file read otherwise than as UTF-8 comma-separated CSV', () => {
  const files: Array<[string, Buffer]> = [
    [
      'semicolon',
      Buffer.from('number;name;email\r\n14155550101;"Ann; ""A""\r\nLine";a@example.com\r\n;;\r\n\r\n14155550102;Bob,Comma;\r\n'),
    ],
    ['tab', Buffer.from('number\tname\tcity\n14155550101\t"Two\rLines"\tOslo\n"  "\t"\n\n"\t\n14155550102\tBo\t=1+1\n')],
    [
      'utf-16',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('number,name\r\n14155550101,Zoë\r\n14155550102,"Ünï\ncode"', 'utf16le')]),
    ],
    [
      'unreadable rows',
      Buffer.from(
        `number;name\n14155550101;Str"ay\n"x"y;z\n14155550102;a;b;c\n"${'u'.repeat(70 * 1024)}\n14155550103;"Last"\n14155550104;Open"`,
      ),
    ],
  ];
  for (const [name, bytes] of files)
    it(`${name}: the rows read back from it are the file's, on the same rows and lines`, async () => {
      const { text, path } = await sent(`${name}.csv`, bytes);
      const original = await itemsOf(path);
      expect(original.separator === ',' && !original.guarded && bytes[0] !== 0xff).toBe(false);
      writeFileSync(join(dir, 'read-back.csv'), text);
      const readBack = await itemsOf(join(dir, 'read-back.csv'));
      expect([readBack.separator, readBack.guarded]).toEqual([',', false]);
      expect(readBack.items).toEqual(original.items);
    });

  it("an export: its guard is taken off once, its id and times are left out, and another ' stays", async () => {
    const header = 'id,number,name,email,gender,status,contact_groups,created_at,updated_at,city';
    const { text, path } = await sent(
      'export.csv',
      Buffer.from(`${header}\n7,14155550101,'=1+1,,,,[],"2024-01-01\n",x,''=kept\n8,14155550102,"'@a,b",,,,[],,,'plain\n`),
    );
    expect(text).toBe(
      'number,name,email,gender,status,contact_groups,city\n' +
        '14155550101,=1+1,,,,[],\'=kept,"\n"\n' +
        '14155550102,"@a,b",,,,[],\'plain\n',
    );
    const original = (await itemsOf(path)).items;
    writeFileSync(join(dir, 'export-back.csv'), text);
    const readBack = (await itemsOf(join(dir, 'export-back.csv'))).items;
    expect(readBack.map((item) => [item.row, item.line])).toEqual(original.map((item) => [item.row, item.line]));
  });

  it('held cells are sent empty and a row held whole is sent blank, on the lines they had', async () => {
    const held: HeldCells = new Map<number, string[] | 'row'>([
      [2, ['name']],
      [3, 'row'],
    ]);
    const { text } = await sent(
      'held.csv',
      Buffer.from('number;name;email\n14155550101;"3.51E+12\nx";a@example.com\n14155550102;Bo;b@example.com\n'),
      held,
    );
    expect(text).toBe('number,name,email\n14155550101,"\n",a@example.com\n,,\n');
  });
});
