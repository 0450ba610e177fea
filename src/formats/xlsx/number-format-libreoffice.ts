// Where LibreOffice shows a number otherwise than numfmt (which follows Excel), LibreOffice wins:
// the sheet is read as its user sees it there, and the corpus test compares with LibreOffice's own
// "as shown" export. Each rule below was measured on LibreOffice 7.4's output:
// - General writes a number in full (447911123458, 16 digits for an integer below 2^53), not in
//   Excel's 11 characters of a narrow column (4.47911E+11); very large and very small numbers in E
//   notation with 15 significant digits (1E+020, 1.5E-10).
// - `_x` leaves as many blanks as LibreOffice's width table gives `x` (`_€` two, `_W` three).
// - A fraction is the closest one the denominator's digits allow (3.14159 in `# ??/??` is 3 14/99,
//   numfmt says 3 1/7), and one that rounds to a whole number carries into it (0.999 is `1`).

/** The most a double holds as an exact integer: below it General writes every digit. */
const EXACT_INTEGERS = 2 ** 53;

/** A number as General shows it in LibreOffice; `plain` never uses E notation (the digits rule). */
export function generalText(value: number, plain = false): string {
  const magnitude = Math.abs(value);
  const sign = value < 0 ? '-' : '';
  if (magnitude === 0) return '0';
  if (Number.isInteger(magnitude) && magnitude < EXACT_INTEGERS) return sign + String(magnitude);
  if (magnitude > 1e15 && !plain) return sign + eNotation(magnitude);
  // 15 significant digits, as a spreadsheet keeps a number (the largest doubles round past the range: kept whole).
  const rounded = Number(magnitude.toPrecision(15));
  const kept = Number.isFinite(rounded) ? rounded : magnitude;
  if (Number.isInteger(kept) && kept < EXACT_INTEGERS) return sign + String(kept);
  if (plain || !inENotation(kept)) return sign + plainText(kept);
  return sign + eNotation(kept);
}

/** A number's digits without E notation: JavaScript's own text where it has none (Intl is slower by far). */
const plainText = (magnitude: number) =>
  magnitude >= 1e-6 && magnitude < 1e21
    ? String(magnitude)
    : magnitude.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 100 });

/** E notation with 15 significant digits; LibreOffice pads a positive exponent to three digits and a negative one to two. */
function eNotation(magnitude: number): string {
  const rounded = Number(magnitude.toPrecision(15));
  const [mantissa, exponent] = (Number.isFinite(rounded) ? rounded : magnitude).toExponential().split('e');
  const power = Number(exponent);
  return `${mantissa}E${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(power < 0 ? 2 : 3, '0')}`;
}

/** Whether General shows this (15-digit) magnitude, below 1E+15, in E notation. */
function inENotation(magnitude: number): boolean {
  const exponent = Math.floor(Math.log10(magnitude));
  if (exponent >= -4) return false;
  if (exponent <= -10) return true;
  const decimals = plainText(magnitude).split('.')[1]?.length ?? 0;
  return decimals > 16;
}

/** Blanks `_x` leaves in LibreOffice, by character from the space (32) to `~` (126); others two. */
const BLANK_WIDTHS = [
  1, 1, 1, 2, 2, 3, 2, 1, 1, 1, 1, 2, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 3, 2, 2, 2, 2, 2, 2, 3, 2, 1, 2, 2, 2, 3,
  3, 3, 2, 3, 2, 2, 2, 2, 2, 3, 2, 2, 2, 1, 1, 1, 2, 2, 1, 2, 2, 2, 2, 2, 1, 2, 2, 1, 1, 2, 1, 3, 2, 2, 2, 2, 1, 2, 1, 2, 2, 2, 2, 2, 2, 1,
  1, 1, 2,
];

export function blankWidth(character: string): number {
  const code = character.codePointAt(0) ?? 0;
  if (code < 32) return 0;
  return code <= 126 ? BLANK_WIDTHS[code - 32] : 2;
}

/**
 * The value numfmt is given for a fraction with at most `digits` digits in its denominator, so
 * that it writes the fraction LibreOffice shows: the closest one, carried into the whole part when
 * it rounds to one. `whole`: the format has a whole-number part.
 */
export function fractionValue(value: number, digits: number, whole: boolean): number {
  const magnitude = Math.abs(value);
  const integer = whole ? Math.floor(magnitude) : 0;
  const [numerator, denominator] = closestFraction(magnitude - integer, 10 ** digits - 1);
  // No fraction at all: numfmt writes the blanks LibreOffice does for the value as it is.
  if (numerator === 0 && integer === 0) return value;
  const near = integer + numerator / denominator;
  return value < 0 ? -near : near;
}

/** The fraction closest to `x` whose denominator is at most `most`: continued fractions and their semiconvergents. */
function closestFraction(x: number, most: number): [number, number] {
  let [p0, q0, p1, q1] = [0, 1, 1, 0];
  let rest = x;
  for (let step = 0; step < 64; step++) {
    const a = Math.floor(rest);
    const q2 = q0 + a * q1;
    if (q2 > most) break;
    [p0, q0, p1, q1] = [p1, q1, p0 + a * p1, q2];
    if (rest - a < 1e-12) break;
    rest = 1 / (rest - a);
  }
  const k = Math.floor((most - q0) / q1);
  const semi: [number, number] = [p0 + k * p1, q0 + k * q1];
  return Math.abs(p1 / q1 - x) <= Math.abs(semi[0] / semi[1] - x) ? [p1, q1] : semi;
}
