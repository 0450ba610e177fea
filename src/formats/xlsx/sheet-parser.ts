// The events of a sheet's XML made into rows of cells as the spreadsheet displays them. Every
// bound is checked as the element comes (columns, rows, one cell's characters, cells in order),
// so a crafted sheet is refused at its first step out of line, naming the cell. A cell holding
// damage (`<v></v>`, `<v>0x1F</v>`, a shared string that is not there) is refused, never read as
// a value.
import { cellName } from './cell-names.js';
import { CELL_CHARACTERS, FORMULA_CHARACTERS, LAST_COLUMN, SHEET_COLUMNS, SHEET_ROWS } from './limits.js';
import { displayNumber, NumberFormatError, type ShownNumber } from './number-format.js';
import type { SheetCell, SheetRow } from './sheet-reader.js';
import { StringItems } from './workbook-parts.js';
import { type Attributes, attribute, unescapeOoxml, XmlError, type XmlEvents } from './xml-parts.js';

/** A number as a cell's `<v>` holds it: decimal, optionally signed and with an exponent (no hex, no `Infinity`). */
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** LibreOffice saves a boolean cell as the formula `TRUE()` or `FALSE()` with its result: a value, not a formula. */
const BOOLEAN_FORMULA = /^\s*(?:TRUE|FALSE)\s*\(\s*\)\s*$/i;
const count = (n: number) => n.toLocaleString('en-US');

interface OpenCell {
  column: number;
  type: string;
  style: number;
  value: string | undefined;
  formula: string | undefined;
  inline: string | undefined;
}

export class SheetParser implements XmlEvents {
  private shared: readonly string[] = [];
  private styles: readonly string[] = [];
  private ready: SheetRow[] = [];
  private row: SheetRow | undefined;
  private lastRow = 0;
  private cell: OpenCell | undefined;
  private lastColumn = -1;
  private into: 'v' | 'f' | undefined;
  private readonly inline = new StringItems('is');

  constructor(private readonly options: { date1904: boolean }) {}

  use(shared: readonly string[], styles: readonly string[]): void {
    this.shared = shared;
    this.styles = styles;
  }

  /** The rows completed since the last call. */
  drain(): SheetRow[] {
    const rows = this.ready;
    this.ready = [];
    return rows;
  }

  /** Where the parser is, for a message: `cell D17`, `row 17`. */
  place(): string | undefined {
    if (this.cell !== undefined) return `cell ${cellName(this.cell.column, this.row!.row)}`;
    if (this.row !== undefined) return `row ${this.row.row}`;
    return undefined;
  }

  open(name: string, attributes: Attributes): void {
    if (this.cell !== undefined) return this.openInCell(name);
    if (name === 'row') return this.openRow(attributes);
    if (name !== 'c') return;
    if (this.row === undefined) throw new XmlError('a cell stands outside any row: the sheet is damaged');
    const column = this.columnOf(attribute(attributes, 'r'));
    this.lastColumn = column;
    const style = Number(attribute(attributes, 's') ?? 0);
    this.cell = { column, type: attribute(attributes, 't') ?? 'n', style, value: undefined, formula: undefined, inline: undefined };
  }

  private openRow(attributes: Attributes): void {
    if (this.row !== undefined) throw new XmlError('a row stands inside another row: the sheet is damaged');
    const given = attribute(attributes, 'r');
    const number = given === undefined ? this.lastRow + 1 : /^\d{1,10}$/.test(given) ? Number(given) : Number.NaN;
    if (Number.isNaN(number) || number < 1)
      throw new XmlError(`a row is numbered "${given}", which is no row number: the sheet is damaged`);
    if (number > SHEET_ROWS) throw new XmlError(`row ${count(number)} is past row ${count(SHEET_ROWS)}, the last a sheet has`);
    if (number <= this.lastRow) throw new XmlError(`row ${count(number)} comes after row ${count(this.lastRow)}: the sheet is damaged`);
    this.lastRow = number;
    this.lastColumn = -1;
    this.row = { row: number, cells: [] };
  }

  /** The 0-based column of a cell from its reference (`D17`), or the next one when it has none. */
  private columnOf(reference: string | undefined): number {
    const at = this.row!.row;
    if (reference === undefined) {
      if (this.lastColumn + 1 >= SHEET_COLUMNS)
        throw new XmlError(`row ${at} holds more than ${count(SHEET_COLUMNS)} cells, the columns A to ${LAST_COLUMN} a sheet has`);
      return this.lastColumn + 1;
    }
    const letters = /^([A-Za-z]{1,10})\d{1,10}$/.exec(reference)?.[1];
    if (letters === undefined) throw new XmlError(`a cell of row ${at} is named "${reference.slice(0, 20)}", which names no cell`);
    let column = 0;
    for (const c of letters.toUpperCase()) column = column * 26 + (c.charCodeAt(0) - 64);
    if (column > SHEET_COLUMNS) throw new XmlError(`cell ${reference} is past column ${LAST_COLUMN}, the last a sheet has`);
    if (column - 1 <= this.lastColumn)
      throw new XmlError(`cell ${reference} comes after cell ${cellName(this.lastColumn, at)} in row ${at}: the sheet is damaged`);
    return column - 1;
  }

  private openInCell(name: string): void {
    const cell = this.cell!;
    if (name === 'c' || name === 'row') throw new XmlError(`a ${name === 'c' ? 'cell' : 'row'} stands inside a cell: the sheet is damaged`);
    if (this.inline.open(name)) return;
    if (name === 'v') {
      cell.value = '';
      this.into = 'v';
    } else if (name === 'f') {
      cell.formula ??= '';
      this.into = 'f';
    }
  }

  text(text: string): void {
    const cell = this.cell;
    if (cell === undefined) return;
    if (this.into === 'v') {
      cell.value += text;
      if (cell.value!.length > CELL_CHARACTERS * 7) this.tooLong(cell.value!.length);
    } else if (this.into === 'f') {
      if (cell.formula!.length < FORMULA_CHARACTERS) cell.formula += text;
    } else this.inline.add(text);
  }

  close(name: string): void {
    const cell = this.cell;
    if (cell !== undefined) {
      if (name === 'v' || name === 'f') this.into = undefined;
      else if (name !== 'c') {
        const text = this.inline.close(name);
        if (text !== undefined) cell.inline = text;
      } else {
        this.row!.cells.push(this.read(cell));
        this.cell = undefined;
      }
      return;
    }
    if (name !== 'row' || this.row === undefined) return;
    if (this.row.cells.some((c) => c.text !== '' || c.error !== undefined)) this.ready.push(this.row);
    this.row = undefined;
  }

  private tooLong(length: number): never {
    throw new XmlError(
      `the cell holds ${count(length)} characters; a cell holds at most ${count(CELL_CHARACTERS)}: shorten it in the sheet, then import the file again`,
    );
  }

  /** The cell as the spreadsheet shows it. */
  private read(open: OpenCell): SheetCell {
    const cell: SheetCell = { column: open.column, text: '' };
    const value = open.value === undefined ? undefined : unescapeOoxml(open.value);
    if (open.formula !== undefined && !(open.type === 'b' && BOOLEAN_FORMULA.test(open.formula))) cell.formula = true;
    switch (open.type) {
      case 'inlineStr':
        cell.text = open.inline ?? '';
        break;
      case 's': {
        if (value === undefined) break;
        const index = /^\d{1,10}$/.test(value) ? Number(value) : -1;
        if (index < 0 || index >= this.shared.length)
          throw new XmlError(
            `the cell refers to shared string "${value.slice(0, 20)}", but the workbook has ${count(this.shared.length)}: the file is damaged`,
          );
        cell.text = this.shared[index];
        break;
      }
      case 'str':
      case 'd':
        cell.text = value ?? '';
        break;
      case 'b':
        if (value === undefined) break;
        if (!/^(1|0|true|false)$/.test(value))
          throw new XmlError(`the cell is a boolean holding "${value.slice(0, 20)}": the file is damaged`);
        cell.text = value === '1' || value === 'true' ? 'true' : 'false';
        break;
      case 'e':
        cell.error = value ?? '#N/A';
        break;
      case 'n':
        if (value !== undefined) Object.assign(cell, this.number(value, open.style));
        break;
      default:
        throw new XmlError(`the cell is of type "${open.type.slice(0, 20)}", which no spreadsheet writes: the file is damaged`);
    }
    if (cell.text.length > CELL_CHARACTERS) this.tooLong(cell.text.length);
    return cell;
  }

  private number(value: string, style: number): ShownNumber {
    const number = NUMBER.test(value) ? Number(value) : Number.NaN;
    if (!Number.isFinite(number))
      throw new XmlError(
        value === ''
          ? 'the cell is a number cell holding no number: the file is damaged'
          : `the cell is a number cell holding "${value.slice(0, 20)}", which is no number: the file is damaged`,
      );
    const code = this.styles[style] ?? 'General';
    try {
      return displayNumber(number, code, this.options.date1904);
    } catch (error) {
      const why = error instanceof NumberFormatError ? error.message : `its number format "${code.slice(0, 60)}" cannot be displayed`;
      throw new XmlError(`${why}: format the column as text or General, then import again`);
    }
  }
}
