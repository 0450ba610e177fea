/**
 * Workbooks written the way Excel writes them, for tests: the parts in Excel's order
 * (workbook.xml before the sheets, shared strings and styles after them), text in shared strings,
 * numbers as numbers with their number formats (built-in and declared), booleans, dates as
 * serials, formulas with their cached result, error cells, inline strings, a second sheet.
 */
import { writeFileSync } from 'node:fs';
import { ZipWriter } from '../../../src/formats/xlsx/zip-writer.js';
import { columnName } from '../../../src/formats/xlsx/cell-names.js';
import { escapeXml } from '../../../src/formats/xlsx/sheet-writer.js';

/** A cell: text (a shared string), a number with a format code, a boolean, an error, a formula with its result, or inline text. */
type Cell =
  | string
  | { number: number; format?: string }
  | { boolean: boolean }
  | { error: string }
  | { formula: string; result: string | number }
  | { inline: string }
  | null;

export interface Sheet {
  name: string;
  /** Rows by their sheet row number (rows not given are empty). */
  rows: Record<number, Cell[]>;
}

const BUILT_IN: Record<string, number> = { General: 0, '0': 1, '0.00': 2, '#,##0': 3, 'mm-dd-yy': 14, '@': 49 };

/** `date1904`: the workbook counts its dates from 1904 (the Mac's old date system). */
export async function writeExcelLike(path: string, sheets: Sheet[], options: { date1904?: boolean } = {}): Promise<void> {
  const shared: string[] = [];
  const sharedIndex = new Map<string, number>();
  const share = (text: string) => {
    if (!sharedIndex.has(text)) sharedIndex.set(text, shared.push(text) - 1);
    return sharedIndex.get(text)!;
  };
  const declared = new Map<string, number>();
  const styles: number[] = [0]; // cellXfs: each a numFmtId
  const styleOf = (format: string | undefined) => {
    if (format === undefined || format === 'General') return 0;
    const id = BUILT_IN[format] ?? declared.get(format) ?? (declared.set(format, 164 + declared.size), declared.get(format)!);
    let at = styles.indexOf(id);
    if (at < 0) at = styles.push(id) - 1;
    return at;
  };
  const sheetXml = sheets.map((sheet) => {
    let xml =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
    for (const [number, cells] of Object.entries(sheet.rows)) {
      xml += `<row r="${number}">`;
      cells.forEach((cell, column) => {
        const r = `${columnName(column)}${number}`;
        if (cell === null) return;
        if (typeof cell === 'string') xml += `<c r="${r}" t="s"><v>${share(cell)}</v></c>`;
        else if ('number' in cell) xml += `<c r="${r}" s="${styleOf(cell.format)}"><v>${cell.number}</v></c>`;
        else if ('boolean' in cell) xml += `<c r="${r}" t="b"><v>${cell.boolean ? 1 : 0}</v></c>`;
        else if ('error' in cell) xml += `<c r="${r}" t="e"><v>${cell.error}</v></c>`;
        else if ('inline' in cell) xml += `<c r="${r}" t="inlineStr"><is><t>${escapeXml(cell.inline)}</t></is></c>`;
        else if (typeof cell.result === 'number') xml += `<c r="${r}"><f>${escapeXml(cell.formula)}</f><v>${cell.result}</v></c>`;
        else xml += `<c r="${r}" t="str"><f>${escapeXml(cell.formula)}</f><v>${escapeXml(cell.result)}</v></c>`;
      });
      xml += '</row>';
    }
    return `${xml}</sheetData></worksheet>`;
  });
  const chunks: Buffer[] = [];
  const zip = new ZipWriter({ write: async (bytes) => void chunks.push(Buffer.from(bytes)) });
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  await zip.add('[Content_Types].xml', [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      sheets
        .map(
          (_, i) =>
            `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join('') +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
  ]);
  await zip.add('_rels/.rels', [
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ]);
  await zip.add('xl/workbook.xml', [
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${rel}"><workbookPr${options.date1904 ? ' date1904="1"' : ''}/><sheets>` +
      sheets.map((sheet, i) => `<sheet name="${escapeXml(sheet.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
      '</sheets></workbook>',
  ]);
  await zip.add('xl/_rels/workbook.xml.rels', [
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${rel}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
      `<Relationship Id="rId${sheets.length + 1}" Type="${rel}/styles" Target="styles.xml"/><Relationship Id="rId${sheets.length + 2}" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
  ]);
  for (const [i, xml] of sheetXml.entries()) await zip.add(`xl/worksheets/sheet${i + 1}.xml`, [xml]);
  await zip.add('xl/sharedStrings.xml', [
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${shared.length}" uniqueCount="${shared.length}">` +
      shared.map((text) => `<si><t xml:space="preserve">${escapeXml(text)}</t></si>`).join('') +
      '</sst>',
  ]);
  await zip.add('xl/styles.xml', [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
      `<numFmts count="${declared.size}">${[...declared].map(([code, id]) => `<numFmt numFmtId="${id}" formatCode="${escapeXml(code)}"/>`).join('')}</numFmts>` +
      '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${styles.length}">${styles.map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`).join('')}</cellXfs></styleSheet>`,
  ]);
  await zip.finish();
  writeFileSync(path, Buffer.concat(chunks));
}
