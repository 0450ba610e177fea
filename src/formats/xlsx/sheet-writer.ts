// An .xlsx workbook of one sheet, written row by row (zip-writer.ts streams it): every cell a text
// cell holding exactly the value given (inline strings with the `@` text format, so a spreadsheet
// shows `07700900123` and `=1+1` as they are, and keeps a retyped cell text), the header row bold
// and frozen, the columns as wide as the header and the first rows need.
import { columnName } from './cell-names.js';
import { CELL_CHARACTERS, SHEET_ROWS } from './limits.js';
import { ZipWriter, type ByteSink } from './zip-writer.js';

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const CONTENT_TYPES =
  XML_HEAD +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '</Types>';

const ROOT_RELS =
  XML_HEAD +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/>` +
  '</Relationships>';

const WORKBOOK_RELS =
  XML_HEAD +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/>` +
  '</Relationships>';

/** Style 1: text (`@`, number format 49); style 2: text in bold, for the header. */
const STYLES =
  XML_HEAD +
  `<styleSheet xmlns="${MAIN}">` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="49" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

const workbookXml = (sheetName: string) =>
  XML_HEAD +
  `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><bookViews><workbookView/></bookViews>` +
  `<sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

/**
 * Text as an XML text node holds it: `& < >` escaped, and what XML cannot hold (control
 * characters, a carriage return that XML would turn into a line feed, lone surrogates) written
 * as OOXML's `_xHHHH_`; a literal `_xHHHH_` gets its `_` escaped so that it reads back as written.
 */
export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"]|_(?=x[0-9A-Fa-f]{4}_)|[\u0000-\u0008\u000B\u000C\u000D\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (c) => {
      switch (c) {
        case '&':
          return '&amp;';
        case '<':
          return '&lt;';
        case '>':
          return '&gt;';
        case '"':
          return '&quot;';
        default:
          return `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`;
      }
    },
  );
}

/** Widths in characters: the header's and the first rows' longest line, between 8 and 60. */
function columnWidths(header: readonly string[], sample: ReadonlyArray<readonly string[]>): number[] {
  return header.map((name, column) => {
    let widest = name.length + 2; // the bold header needs a little more
    for (const row of sample) {
      for (const line of (row[column] ?? '').split('\n')) widest = Math.max(widest, [...line].length);
    }
    return Math.min(60, Math.max(8, widest + 1));
  });
}

function rowXml(cells: readonly string[], row: number, style: number): string {
  let xml = `<row r="${row}">`;
  for (let column = 0; column < cells.length; column++) {
    const value = cells[column];
    if (value === '') continue;
    xml += `<c r="${columnName(column)}${row}" s="${style}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(value)}</t></is></c>`;
  }
  return xml + '</row>';
}

export interface SheetOptions {
  sheetName: string;
  header: readonly string[];
  /** The rows in order, a batch at a time (a page of an export): one deflate write a batch. */
  rows: AsyncIterable<ReadonlyArray<readonly string[]>>;
  /** Rows to size the columns by (the first page): known before the sheet's first byte. */
  sample: ReadonlyArray<readonly string[]>;
}

/** Writes the workbook to `sink`; gives back the rows written after the header. */
export async function writeXlsx(sink: ByteSink, options: SheetOptions): Promise<number> {
  const zip = new ZipWriter(sink);
  zip.add('[Content_Types].xml', [CONTENT_TYPES]);
  zip.add('_rels/.rels', [ROOT_RELS]);
  zip.add('xl/workbook.xml', [workbookXml(options.sheetName)]);
  zip.add('xl/_rels/workbook.xml.rels', [WORKBOOK_RELS]);
  zip.add('xl/styles.xml', [STYLES]);
  let written = 0;
  const widths = columnWidths(options.header, options.sample);
  async function* sheet(): AsyncGenerator<string> {
    yield XML_HEAD +
      `<worksheet xmlns="${MAIN}" xmlns:r="${REL}">` +
      '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/></sheetView></sheetViews>' +
      '<sheetFormatPr defaultRowHeight="15"/>' +
      `<cols>${widths.map((width, at) => `<col min="${at + 1}" max="${at + 1}" width="${width}" style="1" customWidth="1"/>`).join('')}</cols>` +
      `<sheetData>${rowXml(options.header, 1, 2)}`;
    for await (const batch of options.rows) {
      let xml = '';
      for (const cells of batch) {
        written++;
        if (written + 1 > SHEET_ROWS)
          throw new Error(
            `a sheet holds at most ${SHEET_ROWS.toLocaleString('en-US')} rows (the header included): export fewer contacts (--search), or as CSV`,
          );
        const long = cells.findIndex((cell) => cell.length > CELL_CHARACTERS);
        if (long >= 0)
          throw new Error(
            `cell ${columnName(long)}${written + 1} holds ${cells[long].length.toLocaleString('en-US')} characters; a spreadsheet cell holds at most ${CELL_CHARACTERS.toLocaleString('en-US')}: export as CSV`,
          );
        xml += rowXml(cells, written + 1, 1);
      }
      yield xml;
    }
    yield '</sheetData></worksheet>';
  }
  zip.add('xl/worksheets/sheet1.xml', sheet());
  await zip.finish();
  return written;
}
