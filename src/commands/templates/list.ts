// `wsm templates list [--status] [--category] [--search] [--page] [--per-page] [--all]` (extension)
import type { TemplateListQuery } from '../../api/resources/templates.js';
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUS_FILTERS, type Template } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import type { CommandLine } from '../declare.js';
import { listing, parsePageFlags, renderListing, type Listing, type PageFlags } from '../shared/list.js';
import { badValue, workspaceClient } from '../shared/verb.js';
import type { TEMPLATE_LIST_FLAGS } from '../templates.js';
import { templateColumns } from './show.js';

/** One of `choices`, in any case (`approved` is APPROVED); anything else is exit 2 listing them. */
function choice<T extends string>(value: unknown, choices: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  const upper = String(value).trim().toUpperCase();
  const found = choices.find((c) => c === upper);
  if (found === undefined) throw badValue(flag, `one of ${choices.join(', ')}`, value);
  return found;
}

export interface TemplateListOptions {
  flags: PageFlags;
  query: TemplateListQuery;
}

export function parse({ opts }: CommandLine<typeof TEMPLATE_LIST_FLAGS>, ctx: Context): TemplateListOptions {
  const flags = parsePageFlags(ctx, opts);
  const query: TemplateListQuery = {};
  const status = choice(opts.status, TEMPLATE_STATUS_FILTERS, '--status');
  if (status !== undefined) query.status = status;
  const category = choice(opts.category, TEMPLATE_CATEGORIES, '--category');
  if (category !== undefined) query.category = category;
  if (opts.search !== undefined) query.search = opts.search;
  return { flags, query };
}

export async function run(ctx: Context, { flags, query }: TemplateListOptions): Promise<Listing<Template>> {
  const client = await workspaceClient(ctx);
  return listing(flags, { page: (q) => client.templates.list(q), pages: (q, s) => client.templates.list(q).pages(s) }, query);
}

export function render(ctx: Context, templates: Listing<Template>): Promise<void> {
  return renderListing(ctx, templates, { columns: templateColumns, noun: 'templates' });
}
