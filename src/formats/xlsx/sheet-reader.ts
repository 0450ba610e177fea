// The rows of one sheet of an .xlsx workbook, each cell as the spreadsheet displays it
// (number-format.ts), read as the sheet is inflated: shared strings and styles are read first
// (small), then the sheet's XML a chunk at a time, split at whole rows. Each row comes with its
// sheet row number and each cell with its reference (`D17`), so messages name what the operator sees.
import { StringDecoder } from 'node:string_decoder';
import { displayNumber, formatCodeOf, isDateFormat, isoDate } from './number-format.js';
import { openZip, ZipError, type ZipArchive } from './zip-reader.js';

interface SheetCell {
  /** 0-based column. */
  column: number;
  /** What the spreadsheet shows; '' for an empty cell. */
  text: string;
  /** `#N/A`, `#REF!`, ...: the cell holds an error, not a value. */
  error?: string;
  /** The cell holds a formula: `text` is the result the spreadsheet saved with it. */
  formula?: boolean;
}

export interface SheetRow {
  /** 1-based row number in the sheet. */
  row: number;
  cells: SheetCell[];
}

export interface Workbook {
  sheetNames: string[];
  /** The rows of the named sheet (the first when none is named), in order; empty rows are left out. */
  rows(sheet?: string): AsyncGenerator<SheetRow>;
  close(): Promise<void>;
}

export class WorkbookError extends Error {}

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML text as it reads: entities and character references resolved, then OOXML's `_xHHHH_` escapes. */
function xmlText(raw: string): string {
  const text = raw.includes('&')
    ? raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) =>
        name.startsWith('#x')
          ? String.fromCodePoint(parseInt(name.slice(2), 16))
          : name.startsWith('#')
            ? String.fromCodePoint(Number(name.slice(1)))
            : (ENTITY[name] ?? whole),
      )
    : raw;
  return text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text;
}

const attribute = (attributes: string, name: string): string | undefined => {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(attributes);
  return match ? xmlText(match[2] ?? match[3]) : undefined;
};

/** The text of a string item (`<si>` or `<is>`): its `<t>` runs, phonetic hints (`<rPh>`) left out. */
function stringItem(xml: string): string {
  let text = '';
  const body = xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '');
  for (const match of body.matchAll(/<t\b[^>]*?(?:\/>|>([\s\S]*?)<\/t>)/g)) text += xmlText(match[1] ?? '');
  return text;
}

/** Some writers (the OpenXML SDK) name every element with a prefix (`<x:row>`): read as Excel's unprefixed ones. */
const PREFIXED = /<(\/?)[A-Za-z_][\w.-]*:(?=[A-Za-z_])/g;
const unprefixed = (xml: string) => (xml.includes(':') ? xml.replace(PREFIXED, '<$1') : xml);

/** A small part whole, its elements unprefixed. */
const partText = async (zip: ZipArchive, part: string) => unprefixed(await zip.text(part));

/** Splits a part's XML into whole elements named `tag`, as the part is inflated. */
async function* elements(zip: ZipArchive, part: string, tag: string): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  const element = new RegExp(`<${tag}\\b[^>]*?(?:\\/>|>[\\s\\S]*?<\\/${tag}>)`, 'g');
  let pending = '';
  let prefixed: boolean | undefined;
  const closing = `</${tag}>`;
  for await (const chunk of zip.chunks(part)) {
    pending += decoder.write(chunk);
    // Decided on the root element; a prefix cut by a chunk's end is whole once the next is added.
    prefixed ??= /<[A-Za-z_][\w.-]*:(worksheet|sst)\b/.test(pending) ? true : pending.length > 4096 ? false : undefined;
    if (prefixed === true) pending = unprefixed(pending);
    // Up to the last complete element: the rest waits for the next chunk.
    const end = Math.max(
      pending.lastIndexOf(closing) + (pending.lastIndexOf(closing) >= 0 ? closing.length : 0),
      lastSelfClosing(pending, tag),
    );
    if (end <= 0) continue;
    const ready = pending.slice(0, end);
    pending = pending.slice(end);
    for (const match of ready.matchAll(element)) yield match[0];
  }
  pending += decoder.end();
  if (prefixed !== false) pending = unprefixed(pending);
  for (const match of pending.matchAll(element)) yield match[0];
}

function lastSelfClosing(text: string, tag: string): number {
  const at = text.lastIndexOf(`<${tag}`);
  if (at < 0) return -1;
  const close = text.indexOf('>', at);
  return close > 0 && text[close - 1] === '/' ? close + 1 : -1;
}

/** `D17` -> 3 (its column, 0-based). */
function columnOf(reference: string): number {
  let column = 0;
  for (const c of reference.toUpperCase()) {
    const code = c.charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return column - 1;
}

/** The path of a part named from `xl/` (a relationship target), without a leading slash. */
const partPath = (target: string) => (target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`);

interface Styles {
  /** Each cell style's number format code, by the cell's `s`. */
  formats: string[];
}

async function readStyles(zip: ZipArchive, path: string | undefined): Promise<Styles> {
  if (path === undefined || !zip.has(path)) return { formats: [] };
  const xml = await partText(zip, path);
  const declared = new Map<number, string>();
  for (const match of xml.matchAll(/<numFmt\b([^>]*)\/?>/g)) {
    const id = attribute(match[1], 'numFmtId');
    const code = attribute(match[1], 'formatCode');
    if (id !== undefined && code !== undefined) declared.set(Number(id), code);
  }
  const cellXfs = /<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/.exec(xml)?.[1] ?? '';
  const formats = [...cellXfs.matchAll(/<xf\b([^>]*?)\/?>/g)].map((match) =>
    formatCodeOf(Number(attribute(match[1], 'numFmtId') ?? 0), declared),
  );
  return { formats };
}

export async function openWorkbook(path: string): Promise<Workbook> {
  let zip: ZipArchive;
  try {
    zip = await openZip(path);
  } catch (error) {
    if (error instanceof ZipError) throw new WorkbookError(`${path} is not an .xlsx workbook: ${error.message}`);
    throw error;
  }
  try {
    return await workbookOf(zip, path);
  } catch (error) {
    await zip.close();
    if (error instanceof ZipError) throw new WorkbookError(`${path} cannot be read as an .xlsx workbook: ${error.message}`);
    throw error;
  }
}

async function workbookOf(zip: ZipArchive, path: string): Promise<Workbook> {
  if (!zip.has('xl/workbook.xml')) {
    const ods = zip.has('content.xml') ? ' (it looks like an OpenDocument spreadsheet: save it as .xlsx)' : '';
    throw new WorkbookError(`${path} is not an .xlsx workbook: it has no xl/workbook.xml${ods}`);
  }
  const workbook = await partText(zip, 'xl/workbook.xml');
  const rels = zip.has('xl/_rels/workbook.xml.rels') ? await partText(zip, 'xl/_rels/workbook.xml.rels') : '';
  const targets = new Map<string, { type: string; target: string }>();
  for (const match of rels.matchAll(/<Relationship\b([^>]*?)\/?>/g)) {
    const id = attribute(match[1], 'Id');
    if (id !== undefined) targets.set(id, { type: attribute(match[1], 'Type') ?? '', target: attribute(match[1], 'Target') ?? '' });
  }
  const byType = (suffix: string) => [...targets.values()].find((t) => t.type.endsWith(suffix))?.target;
  const date1904 = /<workbookPr\b[^>]*\bdate1904\s*=\s*["'](1|true)["']/.test(workbook);
  const sheets = [...workbook.matchAll(/<sheet\b([^>]*?)\/?>/g)].map((match) => {
    const id = attribute(match[1], 'r:id') ?? attribute(match[1], 'id');
    const target = id !== undefined ? targets.get(id)?.target : undefined;
    return { name: attribute(match[1], 'name') ?? '', path: target !== undefined ? partPath(target) : undefined };
  });
  const sharedPath = byType('/sharedStrings') !== undefined ? partPath(byType('/sharedStrings')!) : 'xl/sharedStrings.xml';
  const stylesPath = byType('/styles') !== undefined ? partPath(byType('/styles')!) : 'xl/styles.xml';
  let shared: string[] | undefined;
  let styles: Styles | undefined;

  async function* rows(name?: string): AsyncGenerator<SheetRow> {
    const sheet =
      name === undefined
        ? sheets[0]
        : (sheets.find((s) => s.name === name) ?? sheets.find((s) => s.name.toLowerCase() === name.toLowerCase()));
    if (sheet === undefined) {
      throw new WorkbookError(
        name === undefined
          ? `${path} has no sheet`
          : `${path} has no sheet named "${name}"; its sheets: ${sheets.map((s) => `"${s.name}"`).join(', ')}`,
      );
    }
    if (sheet.path === undefined || !zip.has(sheet.path))
      throw new WorkbookError(`${path}: the sheet "${sheet.name}" is not in the file (is it whole?)`);
    if (shared === undefined) {
      shared = [];
      if (zip.has(sharedPath)) for await (const item of elements(zip, sharedPath, 'si')) shared.push(stringItem(item));
    }
    styles ??= await readStyles(zip, stylesPath);
    let next = 1;
    for await (const xml of elements(zip, sheet.path, 'row')) {
      const open = /^<row\b([^>]*)>/.exec(xml)?.[1] ?? '';
      const number = Number(attribute(open, 'r') ?? next);
      next = number + 1;
      const cells = rowCells(xml, shared, styles, date1904);
      if (cells.some((cell) => cell.text !== '' || cell.error !== undefined)) yield { row: number, cells };
    }
  }
  return { sheetNames: sheets.map((s) => s.name), rows, close: () => zip.close() };
}

function rowCells(xml: string, shared: readonly string[], styles: Styles, date1904: boolean): SheetCell[] {
  const cells: SheetCell[] = [];
  let next = 0;
  for (const match of xml.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
    const attributes = match[1];
    const body = match[2] ?? '';
    const reference = attribute(attributes, 'r');
    const column = reference !== undefined ? columnOf(reference) : next;
    next = column + 1;
    const type = attribute(attributes, 't') ?? 'n';
    const formula = /<f\b/.test(body);
    const raw = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
    const value = raw === undefined ? undefined : xmlText(raw);
    const cell: SheetCell = { column, text: '' };
    if (formula) cell.formula = true;
    if (type === 'inlineStr') cell.text = stringItem(/<is>([\s\S]*?)<\/is>/.exec(body)?.[1] ?? '');
    else if (value === undefined) cell.text = '';
    else if (type === 's') cell.text = shared[Number(value)] ?? '';
    else if (type === 'str') cell.text = value;
    else if (type === 'b') cell.text = value === '1' || value === 'true' ? 'true' : 'false';
    else if (type === 'e') cell.error = value;
    else if (type === 'd') cell.text = value;
    else {
      const number = Number(value);
      const code = styles.formats[Number(attribute(attributes, 's') ?? 0)] ?? 'General';
      cell.text = Number.isFinite(number)
        ? isDateFormat(code)
          ? isoDate(number, code, date1904)
          : displayNumber(number, code, date1904)
        : value;
    }
    cells.push(cell);
  }
  return cells;
}
