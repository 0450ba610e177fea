// A number cell as a spreadsheet displays it, from its number format (ECMA-376 §18.8.31): what an
// operator sees is what is imported. `00000` keeps its zeros, `0.00` its decimals, `#,##0` its
// separators, `0%` its percent sign; a date is written as an ISO date (and time); General writes a
// number in full, never in E notation (`447911123458`, not `4.47911E+11`).

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

/** A format's section without what only paints or pads it: colours, conditions, quoted text, escapes. */
const bare = (section: string) => section.replace(/\[[^\]]*\]|"[^"]*"|\\.|_.|\*./g, '');

/** Whether the code formats a date or time (d, m, y, h, s outside quotes, brackets and escapes). */
export function isDateFormat(code: string): boolean {
  const section = bare(code.split(';')[0]);
  return /[dyhs]/i.test(section) || (/m/i.test(section) && !/[0#?]/.test(section)) || /\[(h+|m+|s+)\]/i.test(code);
}

/** A number written out in full with at most 15 significant digits (what a spreadsheet keeps), never in E notation. */
function fullNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const rounded = Number(value.toPrecision(15));
  return rounded.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A date serial (days since 1899-12-30, or 1904-01-01) as an ISO date, date and time, or time. */
export function isoDate(serial: number, code: string, date1904: boolean): string {
  const section = bare(code.split(';')[0]).toLowerCase();
  const hasTime = /[hs]/.test(section) || /\[(h+|m+|s+)\]/i.test(code);
  const hasDate = /[dy]/.test(section) || (/m/.test(section) && !/[hs]/.test(section));
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  // Milliseconds rounded to the second: a time typed as 10:30 is stored as 0.4375 give or take.
  const at = new Date(epoch + Math.round(serial * 86_400) * 1000);
  const date = `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
  const time = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}`;
  if (hasDate && hasTime) return `${date}T${time}`;
  if (hasTime) {
    // Elapsed time ([h]:mm) may pass 24 hours.
    if (/\[h+\]/i.test(code)) {
      const seconds = Math.round(serial * 86_400);
      return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
    }
    return time;
  }
  return date;
}

/** `value` in the number part of a format section (`00000`, `#,##0.00`, `0.0%`, `0.00E+00`). */
function numberPart(value: number, section: string): string | undefined {
  const code = bare(section);
  const match = /([#0?,]*)(?:\.([#0?]*))?([eE][+-][0#]+)?/.exec(code.replace(/[^#0?,.eE+\-%]/g, (c) => (c === ' ' ? '' : '')));
  if (match === null || (match[1] === '' && match[2] === undefined)) return undefined;
  let [, whole = '', decimals = ''] = match;
  const exponent = match[3];
  const percent = (code.match(/%/g) ?? []).length;
  let scaled = value * 100 ** percent;
  // Commas after the last digit placeholder divide by a thousand each.
  const trailing = /,+$/.exec(whole)?.[0].length ?? 0;
  if (trailing > 0 && decimals === '') {
    scaled /= 1000 ** trailing;
    whole = whole.slice(0, -trailing);
  }
  const grouped = whole.includes(',');
  const minWhole = (whole.match(/0/g) ?? []).length;
  const minDecimals = (decimals.match(/0/g) ?? []).length;
  const maxDecimals = decimals.length;
  let text: string;
  if (exponent !== undefined) {
    const [mantissa, power] = Math.abs(scaled).toExponential(maxDecimals).split('e');
    const digits = (exponent.match(/0/g) ?? []).length;
    const sign = Number(power) < 0 ? '-' : exponent[1] === '+' ? '+' : '';
    text = `${mantissa}E${sign}${pad(Math.abs(Number(power)), digits)}`;
  } else {
    text = Math.abs(scaled).toLocaleString('en-US', {
      useGrouping: grouped,
      minimumFractionDigits: minDecimals,
      maximumFractionDigits: maxDecimals,
      minimumIntegerDigits: Math.max(1, minWhole),
    });
    if (minWhole === 0 && text.startsWith('0') && text.length > 1 && text[1] === '.') text = text.slice(1);
    if (minWhole === 0 && text === '0') text = '';
  }
  return `${text}${'%'.repeat(percent)}`;
}

/**
 * The text a spreadsheet shows for a number cell with this format code. Text around the number
 * in the code (a currency sign, a unit) is kept; colours and padding are not text.
 */
export function displayNumber(value: number, code: string, date1904: boolean): string {
  if (code === 'General' || code === '@' || code === '') return fullNumber(value);
  // LibreOffice writes a boolean as 1 or 0 in this format: a boolean, as Excel's are read.
  if (/^"TRUE";"TRUE";"FALSE"$/i.test(code)) return value !== 0 ? 'true' : 'false';
  if (isDateFormat(code)) return isoDate(value, code, date1904);
  const sections = code.split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/);
  let section = sections[0];
  let signed = value;
  if (value < 0 && sections.length > 1) {
    section = sections[1];
    signed = Math.abs(value); // the negative section shows its own sign, if any
  } else if (value === 0 && sections.length > 2) section = sections[2];
  if (/^\s*General\s*$/i.test(bare(section))) return fullNumber(value);
  const number = numberPart(signed, section);
  // A section of text alone (`"none"` for zero) shows that text.
  if (number === undefined) return literal(section).trim() || fullNumber(value);
  // The literal text before and after the number part, as the format writes it.
  const { first, last } = placeholderSpan(section);
  const before = literal(section.slice(0, first));
  const after = literal(section.slice(last));
  const sign = signed < 0 ? '-' : '';
  return `${sign}${before}${number}${after}`;
}

/** Quoted text, escaped characters, currency symbols (`[$€-2]`) and padding as they show; colours and conditions not at all. */
const literal = (part: string) =>
  part.replace(
    /\[\$([^\]-]*)[^\]]*\]|\[[^\]]*\]|"([^"]*)"|\\(.)|_.|\*.|%/g,
    (whole, currency?: string, quoted?: string, escaped?: string) => currency ?? quoted ?? escaped ?? (whole.startsWith('_') ? ' ' : ''),
  );

/** Where the number's placeholders start and end in a section, outside quotes, brackets and escapes. */
function placeholderSpan(section: string): { first: number; last: number } {
  let first = -1;
  let last = -1;
  for (let at = 0; at < section.length; at++) {
    const c = section[at];
    if (c === '"') at = section.indexOf('"', at + 1) < 0 ? section.length : section.indexOf('"', at + 1);
    else if (c === '[') at = section.indexOf(']', at) < 0 ? section.length : section.indexOf(']', at);
    else if (c === '\\' || c === '_' || c === '*') at++;
    else if ('#0?.,%'.includes(c) || ((c === 'E' || c === 'e') && /[+-]/.test(section[at + 1] ?? ''))) {
      if (first < 0) first = at;
      last = at + 1;
      if (c === 'E' || c === 'e') {
        at++;
        while (/[0#+-]/.test(section[at + 1] ?? '')) last = ++at + 1;
      }
    }
  }
  return first < 0 ? { first: 0, last: 0 } : { first, last };
}
