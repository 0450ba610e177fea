// A number cell as the spreadsheet shows it (ECMA-376 §18.8.31), rendered by numfmt, an Excel
// number-format engine tested against Excel's own output, with LibreOffice's way where the two
// differ (number-format-libreoffice.ts): what an operator sees is what is imported. Numbers use
// the file's own notation (`.` for decimals, `,` for thousands) whatever the machine's locale;
// month and day names follow the format's locale tag (`[$-40C]` French), English otherwise.
//
// The digits rule: a display that drops digits the cell holds (a scientific `4.48E+11` for
// 447911123458, General's `1E+020`) is read as the value in full, and `shown` keeps what the
// spreadsheet shows so that the plan can say so. A format numfmt cannot render, or a value its
// date format cannot show, is a NumberFormatError: the cell is refused, never read as the code.
import { format, getFormatDateInfo, type Token, tokenize } from 'numfmt';
import { blankWidth, fractionValue, generalText } from './number-format-libreoffice.js';

/** The format codes of the built-in number formats a file may use without declaring them. */
const BUILT_IN: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'yyyy-mm-dd',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'yyyy-mm-dd h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mm:ss.0',
  48: '##0.0E+0',
  49: '@',
};
/** Ids the East Asian locales give their own date formats. */
const LOCALE_DATES = new Set([27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

export function formatCodeOf(id: number, declared: ReadonlyMap<number, string>): string {
  return declared.get(id) ?? BUILT_IN[id] ?? (LOCALE_DATES.has(id) ? 'yyyy-mm-dd' : 'General');
}

/** A number cell as it is read. */
export interface ShownNumber {
  /** What is read: the cell as shown, or its value in full where the display drops digits. */
  text: string;
  /** What the spreadsheet shows, where that drops digits the cell holds. */
  shown?: string;
}

/** A format that cannot be rendered, or a value its date format cannot show: the sentence names the format. */
export class NumberFormatError extends Error {}

/** numfmt as LibreOffice shows a sheet: no 1900 leap day, dates to the year 32767, errors thrown. */
const OPTIONS = { locale: 'en-US', leap1900: false, dateSpanLarge: true, dateErrorThrows: true, throws: true } as const;
/** Days between the 1904 date system's day 0 and the 1900 system's (numfmt counts from 1900). */
const DAYS_1900_TO_1904 = 1462;
/** The days LibreOffice shows as dates: from 1582-10-15 (before it, its calendar is Julian) to 32767-12-31. */
const FIRST_DAY = -115_858;
const LAST_DAY = 11_274_306;
/** The most characters (digits and point) LibreOffice writes of a number. */
const MOST_CHARACTERS = 100;
/** LibreOffice shows elapsed time ([h], [m], [s]) below 2^32 seconds, `#FMT` past it. */
const ELAPSED_SECONDS = 2 ** 32;

interface Compiled {
  /** The code numfmt renders: LibreOffice's blanks, no locale tag on a currency of a number section, `a/p` as `A/P`. */
  pattern: string;
  /** The pattern without a `.` followed by `#` alone: LibreOffice leaves that point out when no decimal shows. */
  pointless?: string;
  /** `A/P` shown lowercase, as LibreOffice does: the pattern with `AM/PM` there finds the letter. */
  amPm?: string;
  /** Shows a year, month or day (moved by 1,462 days in a 1904 workbook), a time, an elapsed time. */
  date: boolean;
  time: boolean;
  elapsed: boolean;
  /** Writes General (LibreOffice's) for a number, or a number in scientific notation. */
  general: boolean;
  scientific: boolean;
  /** `%` signs: the scientific number shown is the value times 100 for each. */
  percents: number;
  /** Per section, a fraction with a denominator of digits to be found (none: fixed or no fraction). */
  fractions: Array<{ digits: number; whole: boolean } | undefined>;
  /** How many sections the code has. */
  sections: number;
  /** Why numfmt cannot render it. */
  error?: string;
}

const compiled = new Map<string, Compiled>();

/** A format code as a message quotes it: a long one cut. */
const named = (code: string) => `"${code.length > 60 ? `${code.slice(0, 60)}…` : code}"`;

/** The text a spreadsheet shows for a number cell with this format code, as it is read. */
export function displayNumber(value: number, code: string, date1904: boolean): ShownNumber {
  if (code === 'General' || code === '@' || code === '') return general(value, generalText(value));
  // LibreOffice writes a boolean as 1 or 0 in this format: a boolean, as Excel's are read.
  if (/^"TRUE";"TRUE";"FALSE"$/i.test(code)) return { text: value !== 0 ? 'true' : 'false' };
  let known = compiled.get(code);
  if (known === undefined) {
    if (compiled.size >= 1000) compiled.clear();
    known = compile(code);
    compiled.set(code, known);
  }
  return render(known, code, value, date1904);
}

function render(c: Compiled, code: string, value: number, date1904: boolean): ShownNumber {
  if (c.error !== undefined) throw new NumberFormatError(`its number format ${named(code)} cannot be rendered (${c.error})`);
  let v = c.date && date1904 ? value + DAYS_1900_TO_1904 : value;
  const outOfRange = c.elapsed ? Math.abs(value) * 86_400 >= ELAPSED_SECONDS : (c.date || c.time) && (v < FIRST_DAY || v > LAST_DAY);
  if (outOfRange)
    throw new NumberFormatError(
      `it holds ${generalText(value)}, which its number format ${named(code)} cannot show (a spreadsheet shows #FMT or ###)`,
    );
  const fraction = c.fractions.length > 0 ? c.fractions[sectionOf(v, c.fractions.length)] : undefined;
  if (fraction !== undefined) v = fractionValue(v, fraction.digits, fraction.whole);
  // numfmt miscounts a negative elapsed time past a day (-1.25 as -18:00): LibreOffice writes the sign before the time.
  const negativeElapsed = c.elapsed && v < 0 && c.sections === 1;
  let out = negativeElapsed ? `-${numfmt(c.pattern, -v, code)}` : numfmt(c.pattern, v, code);
  if (c.pointless !== undefined) {
    const without = numfmt(c.pointless, v, code);
    for (let point = out.indexOf('.'); point >= 0; point = out.indexOf('.', point + 1))
      if (out.slice(0, point) + out.slice(point + 1) === without) {
        out = without;
        break;
      }
  }
  if (c.amPm !== undefined) out = lowerAmPm(out, numfmt(c.amPm, v, code));
  if (c.general) {
    const excel = format('General', Math.abs(v), OPTIONS);
    const at = out.lastIndexOf(excel);
    if (at >= 0) return general(v, generalText(Math.abs(v)), (text) => out.slice(0, at) + text + out.slice(at + excel.length));
  }
  if (c.scientific) return scientific(out, Math.abs(v) * 100 ** c.percents);
  return { text: out };
}

/** General's text within `around` (the literal text of its section); where it is E notation, the value in full is read. */
function general(value: number, shown: string, around: (text: string) => string = (text) => text): ShownNumber {
  if (!shown.includes('E')) return { text: around(shown) };
  return { text: around(generalText(value, true)), shown: around(shown) };
}

/** A scientific display keeps its text when it holds every digit of the value (1.50E+03 for 1500); else the value in full is read. */
function scientific(out: string, held: number): ShownNumber {
  const number = /(\d+(?:\.\d*)?)E([+-]\d+)/.exec(out);
  if (number === null) return { text: out };
  const fifteen = (n: number) => Number(n.toPrecision(15));
  if (fifteen(Number(`${number[1]}e${number[2]}`)) === fifteen(held)) return { text: out };
  return { text: out.replace(number[0], generalText(held, true)), shown: out };
}

function numfmt(pattern: string, value: number, code: string): string {
  try {
    return format(pattern, value, OPTIONS);
  } catch (error) {
    throw new NumberFormatError(
      `it holds ${generalText(value)}, which its number format ${named(code)} cannot show (${(error as Error).message})`,
    );
  }
}

/** `out` with `A`/`P` in lowercase: the letter just before where the `AM/PM` rendering first differs. */
function lowerAmPm(out: string, withAmPm: string): string {
  let at = 0;
  while (at < out.length && out[at] === withAmPm[at]) at++;
  return at === 0 ? out : out.slice(0, at - 1) + out[at - 1].toLowerCase() + out.slice(at);
}

/** The section a value is shown by (colours and conditions aside): positive, negative, zero. */
function sectionOf(value: number, sections: number): number {
  if (value < 0 && sections > 1) return 1;
  if (value === 0 && sections > 2) return 2;
  return 0;
}

const PLACEHOLDERS = new Set(['ZERO', 'HASH', 'QMARK']);
const DATE_TOKENS = new Set(['DATETIME', 'DURATION', 'AMPM']);

function compile(code: string): Compiled {
  const result: Compiled = {
    pattern: code,
    date: false,
    time: false,
    elapsed: false,
    general: false,
    scientific: false,
    percents: 0,
    fractions: [],
    sections: 1,
  };
  let tokens: Token[];
  try {
    tokens = tokenize(code);
    format(code, 1, OPTIONS);
  } catch (error) {
    return { ...result, error: (error as Error).message };
  }
  const sections: Token[][] = [[]];
  for (const token of tokens) token.type === 'BREAK' ? sections.push([]) : sections.at(-1)!.push(token);
  for (const section of sections) {
    const zeros = section.filter((token) => token.type === 'ZERO').length;
    // Excel refuses more than 30 decimals; LibreOffice cuts such a number to 100 characters.
    if (zeros + (section.some((token) => token.type === 'POINT') ? 1 : 0) > MOST_CHARACTERS)
      return { ...result, error: `it asks for ${zeros} digits: a spreadsheet shows a number in ${MOST_CHARACTERS} characters at most` };
  }
  result.sections = sections.length;
  const raws = sections.map(sectionRaws);
  const join = (parts: string[][]) => parts.map((part) => part.join('')).join(';');
  result.pattern = join(raws.map((part) => part.map((raw) => raw.text)));
  if (raws.some((part) => part.some((raw) => raw.bareDecimal)))
    result.pointless = join(raws.map((part) => part.filter((raw) => !raw.bareDecimal).map((raw) => raw.text)));
  if (raws.some((part) => part.some((raw) => raw.letterAmPm)))
    result.amPm = join(raws.map((part) => part.map((raw) => (raw.letterAmPm ? 'AM/PM' : raw.text))));
  const info = getFormatDateInfo(code);
  result.date = info.year || info.month || info.day;
  result.time = info.hours || info.minutes || info.seconds;
  result.elapsed = tokens.some((token) => token.type === 'DURATION');
  const numeric = tokens.some((token) => PLACEHOLDERS.has(token.type) || DATE_TOKENS.has(token.type));
  result.general = tokens.some((token) => token.type === 'GENERAL') || !numeric;
  result.scientific = tokens.some((token) => token.type === 'EXP');
  result.percents = tokens.filter((token) => token.type === 'PERCENT').length;
  const fractions = sections.map(fractionOf);
  if (fractions.some((fraction) => fraction !== undefined)) result.fractions = fractions;
  return result;
}

interface Raw {
  text: string;
  /** A `.` with only `#` after it, or one of those `#`. */
  bareDecimal?: boolean;
  /** `A/P` (or `a/p`), which numfmt writes as `A` or `P`. */
  letterAmPm?: boolean;
}

/** A section's tokens as the pattern numfmt is given: see Compiled.pattern. */
function sectionRaws(section: Token[]): Raw[] {
  const dated = section.some((token) => DATE_TOKENS.has(token.type));
  const raws: Raw[] = [];
  for (let at = 0; at < section.length; at++) {
    const token = section[at];
    const value = String(token.value);
    if (token.type === 'SKIP') raws.push({ text: blankWidth(value) > 0 ? `"${' '.repeat(blankWidth(value))}"` : '' });
    else if (token.type === 'LOCALE' && !dated) {
      // The currency stays; its locale tag would change the separators, which LibreOffice keeps.
      const symbol = /^(.*?)(?:-[0-9A-Fa-f]+)?$/.exec(value)?.[1] ?? value;
      raws.push({ text: symbol === '' ? '' : `[$${symbol}]` });
    } else if (token.type === 'AMPM' && /^a\/p$/i.test(value)) raws.push({ text: 'A/P', letterAmPm: true });
    else if (
      token.type === 'CHAR' &&
      /^a$/i.test(value) &&
      section[at + 1]?.type === 'SLASH' &&
      /^p$/i.test(section[at + 2]?.value ?? '')
    ) {
      raws.push({ text: 'A/P', letterAmPm: true });
      at += 2;
    } else if (token.type === 'POINT' && !dated) {
      let end = at + 1;
      while (section[end]?.type === 'HASH') end++;
      const bare = !PLACEHOLDERS.has(section[end]?.type ?? '');
      for (let hash = at; hash < end; hash++) raws.push({ text: section[hash].raw, bareDecimal: bare });
      at = end - 1;
    } else raws.push({ text: token.raw });
  }
  return raws;
}

/** A section's fraction whose denominator is placeholders (`??/??`): their count, and whether a whole number comes first. */
function fractionOf(section: Token[]): { digits: number; whole: boolean } | undefined {
  const slash = section.findIndex((token) => token.type === 'SLASH');
  if (slash < 0 || section.some((token) => DATE_TOKENS.has(token.type))) return undefined;
  let digits = 0;
  while (PLACEHOLDERS.has(section[slash + 1 + digits]?.type ?? '')) digits++;
  if (digits === 0) return undefined;
  let numerator = slash;
  while (numerator > 0 && PLACEHOLDERS.has(section[numerator - 1].type)) numerator--;
  return { digits, whole: section.slice(0, numerator).some((token) => PLACEHOLDERS.has(token.type)) };
}
