// Cells named as a spreadsheet names them: `D17` is column D (the 4th), row 17.

/** `A`, `B`, ... `Z`, `AA`, ... for a 0-based column. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** `D17` for a 0-based column and a 1-based row. */
export const cellName = (column: number, row: number) => `${columnName(column)}${row}`;
