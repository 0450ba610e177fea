// The parts of a workbook read before its sheet: the workbook (its sheets, its date system), its
// relationships (where each part is), its styles (each cell style's number format) and its shared
// strings. Each is read through the strict parser (xml-parts.ts) within the bounds of limits.ts.
import { formatCodeOf } from './number-format.js';
import { CELL_CHARACTERS, SHARED_STRING_CHARACTERS, SHARED_STRINGS, SHEETS, SMALL_PART_BYTES, STYLE_FORMATS } from './limits.js';
import { attribute, readPart, unescapeOoxml, XmlError } from './xml-parts.js';
import type { ZipArchive } from './zip-reader.js';

export interface WorkbookPart {
  sheets: Array<{ name: string; path: string | undefined }>;
  date1904: boolean;
  sharedPath: string;
  stylesPath: string;
}

/** The path of a part named from `xl/` (a relationship target), without a leading slash. */
const partPath = (target: string) => (target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`);

export async function readWorkbookPart(zip: ZipArchive): Promise<WorkbookPart> {
  const targets = new Map<string, { type: string; target: string }>();
  if (zip.has('xl/_rels/workbook.xml.rels')) {
    await readPart(
      zip,
      'xl/_rels/workbook.xml.rels',
      {
        open(name, attributes) {
          const id = attribute(attributes, 'Id');
          if (name !== 'Relationship' || id === undefined) return;
          if (targets.size >= SHEETS * 2) throw new XmlError('its relationships part lists more parts than a workbook has');
          targets.set(id, { type: attribute(attributes, 'Type') ?? '', target: attribute(attributes, 'Target') ?? '' });
        },
        close() {},
        text() {},
      },
      SMALL_PART_BYTES,
    );
  }
  const sheets: WorkbookPart['sheets'] = [];
  let date1904 = false;
  await readPart(
    zip,
    'xl/workbook.xml',
    {
      open(name, attributes) {
        if (name === 'workbookPr') date1904 = /^(1|true)$/.test(attribute(attributes, 'date1904') ?? '');
        if (name !== 'sheet') return;
        if (sheets.length >= SHEETS) throw new XmlError(`it names more than ${SHEETS.toLocaleString('en-US')} sheets`);
        const id = attribute(attributes, 'id');
        const target = id !== undefined ? targets.get(id)?.target : undefined;
        sheets.push({
          name: unescapeOoxml(attribute(attributes, 'name') ?? ''),
          path: target !== undefined ? partPath(target) : undefined,
        });
      },
      close() {},
      text() {},
    },
    SMALL_PART_BYTES,
  );
  const byType = (suffix: string) => [...targets.values()].find((t) => t.type.endsWith(suffix))?.target;
  const shared = byType('/sharedStrings');
  const styles = byType('/styles');
  return {
    sheets,
    date1904,
    sharedPath: shared !== undefined ? partPath(shared) : 'xl/sharedStrings.xml',
    stylesPath: styles !== undefined ? partPath(styles) : 'xl/styles.xml',
  };
}

/** Each cell style's number format code, by the cell's `s`. */
export async function readStyles(zip: ZipArchive, path: string): Promise<string[]> {
  if (!zip.has(path)) return [];
  const declared = new Map<number, string>();
  const formatIds: number[] = [];
  let inCellXfs = false;
  await readPart(
    zip,
    path,
    {
      open(name, attributes) {
        if (name === 'numFmt') {
          const id = attribute(attributes, 'numFmtId');
          const code = attribute(attributes, 'formatCode');
          if (declared.size >= STYLE_FORMATS)
            throw new XmlError(`its styles declare more than ${STYLE_FORMATS.toLocaleString('en-US')} number formats`);
          if (id !== undefined && code !== undefined) declared.set(Number(id), code);
        } else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) {
          if (formatIds.length >= STYLE_FORMATS)
            throw new XmlError(`its styles declare more than ${STYLE_FORMATS.toLocaleString('en-US')} cell formats`);
          formatIds.push(Number(attribute(attributes, 'numFmtId') ?? 0));
        }
      },
      close(name) {
        if (name === 'cellXfs') inCellXfs = false;
      },
      text() {},
    },
    SMALL_PART_BYTES,
  );
  return formatIds.map((id) => formatCodeOf(id, declared));
}

/**
 * Collects the text of string items (`<si>` of shared strings, `<is>` of a cell): their `<t>`
 * runs, phonetic hints (`<rPh>`) left out. `item` names the element that holds one.
 */
export class StringItems {
  private depth = 0;
  private phonetic = 0;
  private inText = false;
  text = '';

  constructor(private readonly item: string) {}

  /** Whether the element was one of an item's; throws past a cell's characters. */
  open(name: string): boolean {
    if (name === this.item) {
      this.depth++;
      this.text = '';
    } else if (this.depth === 0) return false;
    else if (name === 'rPh') this.phonetic++;
    else if (name === 't' && this.phonetic === 0) this.inText = true;
    return true;
  }

  /** The item's text when `name` closes it, else undefined. */
  close(name: string): string | undefined {
    if (this.depth === 0) return undefined;
    if (name === 'rPh') this.phonetic--;
    else if (name === 't') this.inText = false;
    else if (name === this.item) {
      this.depth--;
      return unescapeOoxml(this.text);
    }
    return undefined;
  }

  /** Adds character data inside a `<t>`; false when it was not an item's text. */
  add(text: string): boolean {
    if (!this.inText) return this.depth > 0;
    this.text += text;
    // `_xHHHH_` escapes are 7 characters a character: beyond that the cell is too long whatever it holds.
    if (this.text.length > CELL_CHARACTERS * 7)
      throw new XmlError(`a text holds more than ${CELL_CHARACTERS.toLocaleString('en-US')} characters`);
    return true;
  }
}

export async function readSharedStrings(zip: ZipArchive, path: string): Promise<string[]> {
  const shared: string[] = [];
  if (!zip.has(path)) return shared;
  const items = new StringItems('si');
  let characters = 0;
  const events = {
    open: (name: string) => void items.open(name),
    close(name: string) {
      const text = items.close(name);
      if (text === undefined) return;
      characters += text.length;
      if (shared.length >= SHARED_STRINGS || characters > SHARED_STRING_CHARACTERS)
        throw new XmlError(
          `its shared strings exceed what wsm reads (${SHARED_STRINGS.toLocaleString('en-US')} strings, ${SHARED_STRING_CHARACTERS.toLocaleString('en-US')} characters)`,
        );
      shared.push(text);
    },
    text: (text: string) => void items.add(text),
  };
  await readPart(zip, path, events);
  return shared;
}
