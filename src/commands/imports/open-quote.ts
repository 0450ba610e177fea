// A quote that opens a value and never closes, in a file sent as its own bytes to a server whose
// reading of a file is not known (the published API). wsm's reader costs such a row its own line
// and reads on from the next (formats/csv/reader.ts); a reader that follows RFC 4180 to the letter
// reads every line after it as part of that value, so the rows the plan shows as created would
// never exist. Such a file is refused before anything is sent (docs/import-file.md). wsm serve
// reads a file as wsm does: there the row alone fails, as the plan says.
import type { WsmClient } from '../../api/client.js';
import { type CsvFormat, openCsv } from '../../api/import-csv.js';
import { readAlikeEverywhere } from './canonical-csv.js';
import { RequestValidationError } from '../../cli/errors.js';
import { countOf } from '../../cli/text.js';
import { CSV_MESSAGES, MAX_QUOTED_CHARS } from '../../formats/csv/reader.js';

const QUOTE = '"';
/** Characters a value may start after (a separator, a line end) or the file's first (BOF, a BOM left in). */
const VALUE_START = new Set([',', ';', '\t', '\n', '\r', '\uFEFF']);
/** Slightly under the reader's bound, so that no offset between the two texts makes the scan miss one. */
const QUOTED_BOUND = MAX_QUOTED_CHARS - 2;

/**
 * Follows the file's quotes as its text is decoded for the encoding check, at the cost of finding
 * each quote: a quote may never close once the quotes are odd in number (an RFC 4180 reader ends inside one),
 * or a quote that may open a value has no quote after it within the reader's bound (wsm's reader
 * then reports a value not closed). A file it clears holds no such quote; one it does not is read
 * again to tell (openQuoteLines), which a well-formed file seldom needs.
 */
export function quoteScan(alsoFeed: (text: string) => void): OpenQuoteScan {
  let quotes = 0;
  let offset = 0;
  let before = '\n';
  let opener: number | undefined;
  let farApart = false;
  return {
    feed(text) {
      alsoFeed(text);
      for (let at = text.indexOf(QUOTE); at >= 0; at = text.indexOf(QUOTE, at + 1)) {
        const position = offset + at;
        if (opener !== undefined && position - opener > QUOTED_BOUND) farApart = true;
        opener = VALUE_START.has(at > 0 ? text[at - 1] : before) ? position : undefined;
        quotes++;
      }
      if (text.length > 0) before = text[text.length - 1];
      offset += text.length;
    },
    async refuseOpen(format, file, source, client) {
      // A file sent as the CSV of its rows (canonical-csv.ts) carries its unreadable rows with their quotes paired.
      if (!readAlikeEverywhere(format)) return;
      if (quotes % 2 === 1 || farApart || opener !== undefined) await refuseOpenQuote(file, source, quotes % 2 === 1, client);
    },
  };
}

/** quoteScan's view of a file, fed its text as the encoding check decodes it. */
export interface OpenQuoteScan {
  /** Follows `text`, then gives it to the feed it was made with. */
  feed(text: string): void;
  /** Once the whole text was fed: refuses a file sent as its own bytes when a quote may never close in it (refuseOpenQuote). */
  refuseOpen(format: CsvFormat, file: string, source: string, client: WsmClient | undefined): Promise<void>;
}

/**
 * The lines of the rows wsm's reader finds a quoted value not closed in; where there are none but
 * the quotes are odd in number, the lines of the rows it cannot read for a quote (a quote inside a
 * value, text after a closing one), where an RFC 4180 reader opens the value it never leaves.
 */
async function openQuoteLines(file: string): Promise<number[]> {
  const unclosed: number[] = [];
  const misplaced: number[] = [];
  for await (const item of (await openCsv(file)).rows) {
    if (item.kind !== 'error') continue;
    if (item.message === CSV_MESSAGES.unclosed) unclosed.push(item.line);
    else if (item.message === CSV_MESSAGES.strayQuote || item.message === CSV_MESSAGES.afterQuote) misplaced.push(item.line);
  }
  return unclosed.length > 0 ? unclosed : misplaced;
}

/**
 * Refuses (exit 2, nothing sent) a file sent as its own bytes whose quote never closes, unless the
 * server is known to read files as wsm does (it has wsm serve's extensions). `odd`: the scan found
 * the quotes odd in number, so a reader that follows RFC 4180 ends the file inside a value.
 */
async function refuseOpenQuote(file: string, source: string, odd: boolean, client: WsmClient | undefined): Promise<void> {
  const lines = await openQuoteLines(file);
  if (lines.length === 0 && !odd) return;
  if (client !== undefined && (await client.labels.hasExtensions()) === true) return;
  const where = lines.length === 0 ? '' : ` line ${lines[0]}${lines.length > 1 ? ` (and ${countOf(lines.length - 1, 'more line')})` : ''}`;
  throw new RequestValidationError(
    `${source}${where}: a quote opens a value and never closes: nothing was sent, since how this server reads the rest of the file is not known (a reader that follows RFC 4180 takes every line after it into that value); close the quote, or double it ("") where it is part of the text, then import again`,
  );
}
