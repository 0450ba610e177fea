// `wsm templates list [--status] [--category] [--search] [--page] [--per-page] [--all]` (extension)
import type { TemplateListQuery } from '../../api/resources/templates.js';
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUS_FILTERS } from '../../api/schemas/index.js';
import { parsePageFlags, renderList } from '../shared/list.js';
import { badValue, typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { list } from '../templates.js';
import { templateColumns } from './show.js';


/** One of `choices`, in any case (`approved` is APPROVED); anything else is exit 2 listing them. */
function choice<T extends string>(value: unknown, choices: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  const upper = String(value).trim().toUpperCase();
  const found = choices.find((c) => c === upper);
  if (found === undefined) throw badValue(flag, `one of ${choices.join(', ')}`, value);
  return found;
}

export const run: VerbRun = typedRun<typeof list>(async (ctx, { opts }) => {
  const flags = parsePageFlags(ctx, opts);
  const query: TemplateListQuery = {};
  const status = choice(opts.status, TEMPLATE_STATUS_FILTERS, '--status');
  if (status !== undefined) query.status = status;
  const category = choice(opts.category, TEMPLATE_CATEGORIES, '--category');
  if (category !== undefined) query.category = category;
  if (opts.search !== undefined) query.search = opts.search;
  const client = await workspaceClient(ctx);
  await renderList(
    ctx,
    flags,
    { page: (q) => client.templates.list(q), pages: (q, s) => client.templates.list(q).pages(s) },
    query,
    { columns: templateColumns, noun: 'templates' },
  );
});
