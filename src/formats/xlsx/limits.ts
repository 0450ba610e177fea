// What a workbook may hold, as Excel bounds it (and a little more where a writer may go beyond),
// and what wsm reads of one before refusing it: with these, no file, however made, can make the
// reader take more than linear time in its size or hold more than a bounded part of it.
import { columnName } from './cell-names.js';

/** Rows a sheet holds in Excel and LibreOffice, the header included. */
export const SHEET_ROWS = 1_048_576;
/** Columns a sheet holds: A to XFD. */
export const SHEET_COLUMNS = 16_384;
/** The last column's name, `XFD`. */
export const LAST_COLUMN = columnName(SHEET_COLUMNS - 1);
/** Characters a cell holds in Excel. */
export const CELL_CHARACTERS = 32_767;
/** Characters of a formula that are kept (only `TRUE()`/`FALSE()` are read from it). */
export const FORMULA_CHARACTERS = 8_192;

/** Parts (files) of the ZIP archive: an .xlsx has a few dozen; thousands only in a crafted one. */
export const ZIP_ENTRIES = 10_000;
/** Bytes one part may inflate to (a sheet of a million rows of text is about 1 GB of XML). */
export const PART_BYTES = 2 * 1024 ** 3;
/** Inflated bytes per compressed byte beyond which a part is a bomb, not a sheet (real sheets: 5 to 30). */
export const INFLATION_RATIO = 50;
/** Parts this small may inflate as they like: a short repetitive part compresses very well. */
export const RATIO_FREE_BYTES = 8 * 1024 ** 2;
/** Bytes of the parts read whole (workbook, relationships). */
export const SMALL_PART_BYTES = 16 * 1024 ** 2;

/** Shared strings: how many, and their characters together. */
export const SHARED_STRINGS = 16_777_216;
export const SHARED_STRING_CHARACTERS = 256 * 1024 ** 2;
/** Cell formats and number formats a styles part may declare (Excel: 64,000 cell formats). */
export const STYLE_FORMATS = 65_536;
/** Sheets a workbook may name. */
export const SHEETS = 10_000;
