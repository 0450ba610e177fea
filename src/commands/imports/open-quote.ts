// Quotes a server whose reading of a file is not known (the published API) may read otherwise than
// wsm, in a file sent as its own bytes. wsm's reader costs a row that holds such a quote its own line
// and reads on from the next (formats/csv/reader.ts); a reader that follows RFC 4180 to the letter
// reads on otherwise: past a quote that never closes it takes every line after it into that value,
// so the rows the plan shows as created would never exist; a quote inside an unquoted value
// (`Ann "Lee" Smith`), text after a closing one (`"Ann" Lee`) or a doubled quote in an unquoted value
// may open and close a value there, so a row the plan shows failing is created, its quotes taken
// out. Such a file is refused before anything is sent (docs/import-file.md). wsm serve reads a file
// as wsm does: there the row alone fails, as the plan says.
import type { WsmClient } from '../../api/client.js';
import { type CsvFormat, openCsv } from '../../api/import-csv.js';
import { readAlikeEverywhere } from './canonical-csv.js';
import { RequestValidationError } from '../../cli/errors.js';
import { countOf } from '../../cli/text.js';
import { CSV_MESSAGES, MAX_QUOTED_CHARS } from '../../formats/csv/reader.js';

const QUOTE = '"';
/** Slightly under the reader's bound, so that no offset between the two texts makes the scan miss one. */
const QUOTED_BOUND = MAX_QUOTED_CHARS - 2;
/** Whether `c` ends a value: the separator (a file sent as its own bytes is comma-separated) or a line end. */
const endsValue = (c: string) => c === ',' || c === '\n' || c === '\r';

/**
 * Follows the file's quotes as its text is decoded for the encoding check, at the cost of finding
 * each quote, in the reader's grammar: outside a quoted value a quote opens one only where a value
 * starts (the file's start, after a comma or a line end); inside one, a quote followed by a quote is
 * a doubled quote, and one followed by a comma, a line end or the file's end closes it. Any other
 * quote is misplaced; a quoted value that does not close, or not within the reader's bound, may be
 * open. A file it clears holds neither; one it does not is read again to tell (quoteLines),
 * which a well-formed file seldom needs. A quote last in a chunk is decided by the next one.
 */
export function quoteScan(alsoFeed: (text: string) => void): OpenQuoteScan {
  let quotes = 0;
  /** Characters fed before the chunk at hand. */
  let offset = 0;
  /** Before the chunk at hand: whether a value starts there (the file's start, a comma or a line end before it). */
  let valueStarts = true;
  let quoted = false;
  /** Where the quoted value the scan is in opened. */
  let opener = 0;
  /** The last chunk ended on a quote inside a quoted value: the next character says what it is. */
  let quoteLast = false;
  let unclear = false;
  /** After a quote inside a quoted value, `next`: a quote doubles it and the value goes on (true); anything else closes the value. */
  const stillQuoted = (next: string): boolean => {
    if (next === QUOTE) return true;
    quoted = false;
    if (!endsValue(next)) unclear = true;
    return false;
  };
  const follow = (text: string) => {
    let at = 0;
    if (quoteLast) {
      quoteLast = false;
      if (stillQuoted(text[0])) {
        quotes++;
        at = 1;
      }
    }
    for (at = text.indexOf(QUOTE, at); at >= 0; at = text.indexOf(QUOTE, at + 1)) {
      quotes++;
      if (!quoted) {
        if (at > 0 ? endsValue(text[at - 1]) : valueStarts) {
          quoted = true;
          opener = offset + at;
        } else unclear = true;
        continue;
      }
      if (offset + at - opener > QUOTED_BOUND) unclear = true;
      if (at + 1 === text.length) quoteLast = true;
      else if (stillQuoted(text[at + 1])) {
        quotes++;
        at++;
      }
    }
    valueStarts = endsValue(text[text.length - 1]);
    offset += text.length;
  };
  // A quote last in the file closes its value.
  const isClear = () => !unclear && (!quoted || quoteLast);
  const isOdd = () => quotes % 2 === 1;
  return {
    feed(text) {
      alsoFeed(text);
      if (text.length > 0) follow(text);
    },
    get clear() {
      return isClear();
    },
    get odd() {
      return isOdd();
    },
    async refuseOpen(format, file, source, client) {
      // A file sent as the CSV of its rows (canonical-csv.ts) carries each row wsm cannot read as one line that every reader
      // refuses alone, its quotes paired, and quotes every other value whole: no reader can take such a row or run on past it.
      if (!readAlikeEverywhere(format) || isClear()) return;
      await refuseMisreadQuote(file, source, isOdd(), client);
    },
  };
}

/** quoteScan's view of a file, fed its text as the encoding check decodes it. */
export interface OpenQuoteScan {
  /** Follows `text`, then gives it to the feed it was made with. */
  feed(text: string): void;
  /** Whether every quote fed so far opens, closes or doubles inside a value, each quoted value closed within the reader's bound. */
  readonly clear: boolean;
  /** Whether the quotes fed are odd in number: a reader that follows RFC 4180 ends the file inside a value. */
  readonly odd: boolean;
  /** Once the whole text was fed: refuses a file sent as its own bytes whose quotes a server may read otherwise (refuseMisreadQuote). */
  refuseOpen(format: CsvFormat, file: string, source: string, client: WsmClient | undefined): Promise<void>;
}

/** Rows of one kind wsm's reader cannot read: the first one's line and how many there are (a hostile file may hold millions). */
interface LinesOf {
  first?: number;
  count: number;
}

/** The rows wsm's reader finds a quoted value not closed in, and those it finds a quote misplaced in. */
async function quoteLines(file: string): Promise<{ unclosed: LinesOf; misplaced: LinesOf }> {
  const unclosed: LinesOf = { count: 0 };
  const misplaced: LinesOf = { count: 0 };
  const add = (lines: LinesOf, line: number) => {
    lines.first ??= line;
    lines.count++;
  };
  for await (const item of (await openCsv(file)).rows) {
    if (item.kind !== 'error') continue;
    if (item.message === CSV_MESSAGES.unclosed) add(unclosed, item.line);
    else if (item.message === CSV_MESSAGES.strayQuote || item.message === CSV_MESSAGES.afterQuote) add(misplaced, item.line);
  }
  return { unclosed, misplaced };
}

/** ` line 4`, ` line 4 (and 2 more lines)`, or nothing. */
const atLines = ({ first, count }: LinesOf) =>
  first === undefined ? '' : ` line ${first}${count > 1 ? ` (and ${countOf(count - 1, 'more line')})` : ''}`;

/**
 * Refuses (exit 2, nothing sent) a file sent as its own bytes that holds a quote a server may read
 * otherwise than wsm, unless the server is known to read files as wsm does (it has wsm serve's
 * extensions). A quote that never closes is said first, where the rest of the file is at stake:
 * a value wsm's reader finds not closed, else, when the quotes are odd in number (`odd`), the
 * misplaced quote a reader of RFC 4180 opens a value at and never leaves.
 */
async function refuseMisreadQuote(file: string, source: string, odd: boolean, client: WsmClient | undefined): Promise<void> {
  // Asked first: a server that reads files as wsm does needs the file read no second time.
  if (client !== undefined && (await client.labels.hasExtensions()) === true) return;
  const { unclosed, misplaced } = await quoteLines(file);
  const open = unclosed.count > 0 || odd;
  if (!open && misplaced.count === 0) return;
  const unknown = 'nothing was sent, since how this server reads';
  throw new RequestValidationError(
    open
      ? `${source}${atLines(unclosed.count > 0 ? unclosed : misplaced)}: a quote opens a value and never closes: ${unknown} the rest of the file is not known (a reader that follows RFC 4180 takes every line after it into that value); close the quote, or double it ("") where it is part of the text, then import again`
      : `${source}${atLines(misplaced)}: a quote stands inside a value that is not quoted whole: ${unknown} such a value is not known (wsm reads the row as failed; a reader that follows RFC 4180 may take it with the quotes left out); quote the whole value and double each quote inside it ("Ann ""Lee"" Smith"), then import again`,
  );
}
