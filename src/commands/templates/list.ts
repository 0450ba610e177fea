// `wsm templates list [--status] [--category] [--search] [--page] [--per-page] [--all]` (extension)
import type { TemplateListQuery } from '../../api/resources/templates.js';
import { TEMPLATE_CATEGORIES } from '../../api/schemas/index.js';
import { z } from 'zod';
import { parsePageFlags, renderList } from '../shared/list.js';
import { parseValue, str, verb, workspaceClient } from '../shared/verb.js';
import { templateColumns } from './show.js';

export const run = verb(async (ctx, { opts }) => {
  const flags = parsePageFlags(ctx, opts);
  const query: TemplateListQuery = {};
  const status = str(opts.status);
  if (status !== undefined) query.status = status.toUpperCase();
  if (opts.category !== undefined) query.category = parseValue(z.enum(TEMPLATE_CATEGORIES), String(opts.category).toUpperCase(), '--category');
  const search = str(opts.search);
  if (search !== undefined) query.search = search;
  const client = await workspaceClient(ctx);
  await renderList(
    ctx,
    flags,
    { page: (q) => client.templates.list(q), all: (q, s) => client.templates.iterate(q, s) },
    query,
    { columns: templateColumns, noun: 'templates' },
  );
});
