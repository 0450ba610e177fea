// One way to print a list verb: a page (with a hint about the rest on a terminal), or with
// --all every page streamed out as it arrives, one write a page (Output.pages, as export).
import type { ListPage } from '../../api/pagination.js';
import { PER_PAGE_MAX } from '../../api/schemas/common.js';
import type { WalkSettings } from '../../api/resources/base.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { Column } from '../../cli/columns.js';
import { concurrencyOf } from './concurrency.js';
import { parseValue, positiveInt } from './verb.js';
import * as z from 'zod';
import { countText } from '../../cli/text.js';

const perPageSchema = z.coerce.number().int().min(1).max(PER_PAGE_MAX);

export interface PageFlags {
  page?: number;
  per_page?: number;
  all: boolean;
  /** Requests in flight for --all. */
  concurrency: number;
}

export function parsePageFlags(ctx: Context, opts: Record<string, unknown>): PageFlags {
  const flags: PageFlags = { all: opts.all === true, concurrency: concurrencyOf(ctx, opts) };
  if (opts.page !== undefined) flags.page = parseValue(positiveInt, opts.page, '--page', 'a positive integer');
  if (opts.perPage !== undefined)
    flags.per_page = parseValue(perPageSchema, opts.perPage, '--per-page', `a whole number from 1 to ${PER_PAGE_MAX}`);
  if (flags.all && flags.page !== undefined) throw new UsageError('--all and --page cannot be used together');
  return flags;
}

export interface ListSource<T, Q> {
  page: (query: Q & { page?: number; per_page?: number }) => PromiseLike<ListPage<T>>;
  pages: (query: Q & { per_page?: number }, settings: WalkSettings) => AsyncIterable<ListPage<T>>;
}

/**
 * A list verb's data: one page, or with --all the walk of every page (started when it is read,
 * so that its progress is drawn where it is printed).
 */
export type Listing<T> =
  | { page: ListPage<T>; flags: PageFlags }
  | { walk: (settings: WalkSettings) => AsyncIterable<ListPage<T>>; flags: PageFlags };

/** A list verb's run: the page asked for, or the walk of every page with --all. */
export async function listing<T, Q extends object>(flags: PageFlags, source: ListSource<T, Q>, query: Q): Promise<Listing<T>> {
  if (flags.all) return { walk: (settings) => source.pages({ ...query, per_page: flags.per_page ?? PER_PAGE_MAX }, settings), flags };
  return { page: await source.page({ ...query, page: flags.page, per_page: flags.per_page }), flags };
}

/** A list verb's render: the page with a hint about the rest on a terminal, or every page as it arrives. */
export async function renderListing<T extends object>(
  ctx: Context,
  listed: Listing<T>,
  options: { columns: Column<T>[]; noun: string; idKey?: string },
): Promise<void> {
  const { flags } = listed;
  if ('walk' in listed) {
    // The page engine tells how far the walk is (rows, and the total from page 1): a terminal shows it.
    const progress = ctx.io.progress(`Fetching ${options.noun}`);
    let count: number;
    try {
      const pages = listed.walk({ concurrency: flags.concurrency, progress: (event) => progress.update(event.done, event.total) });
      count = await ctx.output.pages(rowsOf(pages), options);
    } finally {
      progress.done();
    }
    if (count === 0) ctx.output.message(`No ${options.noun}.`);
    return;
  }
  const response = listed.page;
  const count = await ctx.output.list(response.data, options);
  // The hint reads only what the server gave: a simple paginator has no total and no last page.
  const { meta } = response;
  const current = meta.current_page ?? flags.page ?? 1;
  if (count === 0) ctx.output.message(`No ${options.noun}${current > 1 || (meta.total ?? 0) > 0 ? ` on page ${current}` : ''}.`);
  else if (meta.last_page !== undefined && meta.last_page > 1) {
    const of = meta.total !== undefined ? ` of ${countText(meta.total)}` : '';
    const shown = `${countText(meta.from ?? 1)}-${countText(meta.to ?? count)}`;
    const page = `page ${countText(current)} of ${countText(meta.last_page)}`;
    if (leftOutUnseen(ctx, flags))
      ctx.output.warn(`printed ${options.noun} ${shown}${of} (${page}); the other pages were left out: add --all for every one`);
    else ctx.output.message(`Showing ${shown}${of} ${options.noun} (${page}): use --page or --all for more`);
  } else if (meta.last_page === undefined && response.next) {
    if (leftOutUnseen(ctx, flags))
      ctx.output.warn(`printed page ${current} of ${options.noun}; the next pages were left out: add --all for every one`);
    else ctx.output.message(`Showing page ${current} of ${options.noun}: use --page ${current + 1} or --all for more`);
  }
}

/**
 * A page piped on (`contacts list -q | contacts delete --from -`) looks like the whole list to what
 * reads it: unless --page chose it, stderr says what was left out, -q or not.
 */
function leftOutUnseen(ctx: Context, flags: PageFlags): boolean {
  return !ctx.io.isStdoutTTY && flags.page === undefined;
}

/** Each page's rows. */
async function* rowsOf<T>(pages: AsyncIterable<ListPage<T>>): AsyncGenerator<T[]> {
  for await (const page of pages) yield page.data;
}
