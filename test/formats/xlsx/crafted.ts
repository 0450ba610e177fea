/**
 * Crafted workbooks for tests: parts written as given, in a ZIP archive made byte by byte here, so
 * that a test can make it lie (a CRC, a size, a directory) the way a damaged or hostile file does.
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface Part {
  name: string;
  data: string | Buffer;
  /** Stored rather than deflated. */
  stored?: boolean;
  /** What the directory says instead of the truth. */
  claim?: { crc?: number; size?: number; compressed?: number };
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

/** The archive's bytes; `directorySize` overrides what the end record says of the directory. */
export function zipBytes(parts: Part[], end: { directorySize?: number } = {}): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const raw = Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, 'utf8');
    const data = part.stored ? raw : deflateRawSync(raw);
    const name = Buffer.from(part.name, 'utf8');
    const crc = part.claim?.crc ?? crc32(raw);
    const size = part.claim?.size ?? raw.length;
    const compressed = part.claim?.compressed ?? data.length;
    const method = part.stored ? 0 : 8;
    const common = [u16(20), u16(0x0800), u16(method), u16(0), u16(0x5c21), u32(crc), u32(compressed), u32(size), u16(name.length), u16(0)];
    const local = Buffer.concat([u32(0x04034b50), ...common, name, data]);
    directory.push(Buffer.concat([u32(0x02014b50), u16(20), ...common, u16(0), u16(0), u16(0), u32(0), u32(offset), name]));
    locals.push(local);
    offset += local.length;
  }
  const dir = Buffer.concat(directory);
  const record = Buffer.concat([
    u32(0x06054b50),
    u16(0),
    u16(0),
    u16(parts.length),
    u16(parts.length),
    u32(end.directorySize ?? dir.length),
    u32(offset),
    u16(0),
  ]);
  return Buffer.concat([...locals, dir, record]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A worksheet part around the given `<sheetData>` content. */
export const sheetXml = (rows: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>${rows}</sheetData></worksheet>`;

/** The parts of a one-sheet workbook: its sheet's XML as given, shared strings and styles when given. */
export function workbookParts(sheet: string, extra: { shared?: string; styles?: string; sheetPart?: Partial<Part> } = {}): Part[] {
  const rels =
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
    `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` +
    `<Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`;
  const parts: Part[] = [
    {
      name: 'xl/workbook.xml',
      data: `<?xml version="1.0"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Contacts" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    { name: 'xl/_rels/workbook.xml.rels', data: rels },
    { name: 'xl/worksheets/sheet1.xml', data: sheet, ...extra.sheetPart },
  ];
  if (extra.shared !== undefined) parts.push({ name: 'xl/sharedStrings.xml', data: extra.shared });
  if (extra.styles !== undefined) parts.push({ name: 'xl/styles.xml', data: extra.styles });
  return parts;
}

/** Shared strings holding `items`, each a `<t>`. */
export const sharedXml = (items: string[]) =>
  `<?xml version="1.0"?><sst xmlns="${MAIN}">${items.map((t) => `<si><t>${t}</t></si>`).join('')}</sst>`;

/** Styles whose cell formats are the given number format ids, with the declared codes. */
export const stylesXml = (xfs: number[], declared: Record<number, string> = {}) =>
  `<?xml version="1.0"?><styleSheet xmlns="${MAIN}"><numFmts>${Object.entries(declared)
    .map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${code}"/>`)
    .join('')}</numFmts><cellXfs>${xfs.map((id) => `<xf numFmtId="${id}"/>`).join('')}</cellXfs></styleSheet>`;
