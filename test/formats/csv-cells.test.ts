// The contact CSV's cells (decisions.md §3): what the export writes, every reader reads back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeGroupNames, encodeGroupNames, neutraliseFormula, restoreFormula } from '../../src/formats/csv/cells.js';
import { csvTextRows } from '../../src/api/import-csv.js';
import { CSV_MESSAGES } from '../../src/formats/csv/reader.js';
import { csvField } from '../../src/formats/csv/cells.js';

describe('formula cells', () => {
  it('neutralises what a spreadsheet would run, and restoring gives back exactly the value', () => {
    expect(neutraliseFormula('=1+1')).toBe("'=1+1");
    expect(neutraliseFormula("'=1+1")).toBe("''=1+1");
    expect(neutraliseFormula("'Tis")).toBe("'Tis");
    expect(restoreFormula("'=1+1")).toBe('=1+1');
    expect(restoreFormula("''=1+1")).toBe("'=1+1");
    expect(restoreFormula("'Tis")).toBe("'Tis");
    fc.assert(fc.property(fc.string(), (value) => restoreFormula(neutraliseFormula(value)) === value));
  });

  const EXPORT_HEADER = 'id,number,name,email,gender,status,contact_groups,created_at,updated_at';

  it("any value, line breaks included, comes back through the reader as the export wrote it (a file with the export's header)", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const line = ['1', '5550000001', ...[a, b].map((v) => csvField(neutraliseFormula(v)))].join(',');
        const read = csvTextRows(`${EXPORT_HEADER}\n${line}\n`);
        expect(read.format.wsmExport).toBe(true);
        expect(read.items[1]).toEqual({ kind: 'record', line: 2, row: 2, cells: ['1', '5550000001', a, b] });
      }),
    );
  });

  it('any other file is read as written: no quote is taken off, none is added', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const line = ['5550000001', ...[a, b].map((v) => csvField(v))].join(',');
        const read = csvTextRows(`number,a,b\n${line}\n`);
        expect(read.format.wsmExport).toBe(false);
        if (read.items[1].kind === 'record' && [a, b].some((v) => v.trim() !== ''))
          expect(read.items[1].cells).toEqual(['5550000001', a, b]);
      }),
    );
    expect(csvTextRows("number,name\n1,'=1+1\n").items[1]).toMatchObject({ cells: ['1', "'=1+1"] });
    expect(csvTextRows(`${EXPORT_HEADER}\n1,2,'=1+1\n`).items[1]).toMatchObject({ cells: ['1', '2', '=1+1'] });
  });
});

describe('the contact_groups cell', () => {
  it('any list of group names comes back, whatever characters they hold', () => {
    const name = fc
      .string({ minLength: 1 })
      .map((n) => n.trim())
      .filter((n) => n !== '');
    fc.assert(
      fc.property(fc.uniqueArray(name), (names) => {
        const line = `5550000001,${csvField(encodeGroupNames(names))}`;
        const [, row] = csvTextRows(`number,contact_groups\n${line}`).items;
        expect(row.kind === 'record' && decodeGroupNames(row.cells[1])).toEqual(names);
      }),
    );
  });

  it('refuses what is not a JSON array of strings', () => {
    for (const cell of ['VIP', '3;5', '[1]', '{"a":1}', '["a",null]', '[']) expect(decodeGroupNames(cell)).toHaveProperty('error');
    expect(decodeGroupNames('[" VIP ","VIP","News"]')).toEqual(['VIP', 'News']);
  });
});

describe('a value with a line break', () => {
  it('is one value of its row (RFC 4180); a quote never closed costs its own line only', () => {
    const { items } = csvTextRows(
      'number,name,email\n5550000001,"Two\nlines",x@example.com\n5550000002,Bo,\n5550000003,"never closed\n5550000004,Cy,\n',
    );
    expect(items.map((i) => (i.kind === 'record' ? `${i.line}:${i.cells[1]}` : `${i.line}: ${i.message}`))).toEqual([
      '1:name',
      '2:Two\nlines',
      '4:Bo',
      `5: ${CSV_MESSAGES.unclosed}`,
      '6:Cy',
    ]);
  });
});
