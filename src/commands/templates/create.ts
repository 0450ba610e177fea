// `wsm templates create (--file <json|yaml|-> | flags) [--header-file <media>]`: checked with the
// same schema the server runs, then sent as JSON, or multipart when a media file goes along.
import { templateCreateBody, type TemplateCreateBody } from '../../api/schemas/index.js';
import { UsageError } from '../../cli/errors.js';
import { checkLocal, typedRun, workspaceClient, type VerbRun } from '../shared/verb.js';
import type { create } from '../templates.js';
import { showWritten } from '../shared/written.js';
import { applyFlags, applyHeaderFile, readTemplateFile } from './body.js';
import { templateDetailColumns } from './show.js';

export const run: VerbRun = typedRun<typeof create>(async (ctx, { opts }) => {
  const { file } = opts;
  let draft = applyFlags(file !== undefined ? await readTemplateFile(ctx, file) : {}, opts);
  if (file === undefined && draft.name === undefined) {
    throw new UsageError('give the template with --file <json|yaml> or with --name, --language, --category and --body');
  }
  const { headerFile } = opts;
  if (headerFile !== undefined) draft = await applyHeaderFile(draft, headerFile, opts.headerType);
  else if (opts.headerType !== undefined) throw new UsageError('--header-type goes with --header-file');
  checkLocal(templateCreateBody, draft, 'template');
  const client = await workspaceClient(ctx);
  const answer = await client.templates.create(draft as TemplateCreateBody, headerFile !== undefined ? { headerFile } : {});
  await showWritten(ctx, answer, {
    noun: 'template',
    columns: templateDetailColumns,
    line: (t) => `created template ${t.id} (${t.name ?? draft.name}), status ${t.status ?? 'not given'}: run \`wsm templates sync --wait --template ${t.id}\` for the review`,
  });
});
