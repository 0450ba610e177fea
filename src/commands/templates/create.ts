// `wsm templates create (--file <json|yaml|-> | flags) [--header-file <media>]`: the client checks it
// with the same schema the server runs, then sends it as JSON, or multipart when a media file goes along.
import type { Written } from '../../api/answers.js';
import type { Template, TemplateCreateBody } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { CommandLine, FlagOptions } from '../declare.js';
import { journaledWrite } from '../../journal/resource-change.js';
import { sendingClient } from '../shared/sending-client.js';
import type { TEMPLATE_CREATE_FLAGS } from '../templates.js';
import { showWritten } from '../shared/written.js';
import { applyFlags, applyHeaderFile, readTemplateFile, type TemplateDraft } from './body.js';
import { templateDetailColumns } from './show.js';

export type TemplateCreateOptions = FlagOptions<typeof TEMPLATE_CREATE_FLAGS>;

/** The server's answer, and the template as sent (its name says what was created when the answer does not). */
export interface TemplateCreated {
  answer: Written<Template>;
  draft: TemplateDraft;
}

/** The flags as given: the file they complete is read by run, where its errors come first as before. */
export function parse({ opts }: CommandLine<typeof TEMPLATE_CREATE_FLAGS>): TemplateCreateOptions {
  return opts;
}

export async function run(ctx: Context, opts: TemplateCreateOptions): Promise<TemplateCreated> {
  const { file } = opts;
  let draft = applyFlags(file !== undefined ? await readTemplateFile(ctx, file) : {}, opts);
  if (file === undefined && draft.name === undefined) {
    throw new UsageError('give the template with --file <json|yaml> or with --name, --language, --category and --body');
  }
  const { headerFile } = opts;
  if (headerFile !== undefined) draft = await applyHeaderFile(ctx, draft, headerFile, opts.headerType);
  else if (opts.headerType !== undefined) throw new UsageError('--header-type goes with --header-file');
  const client = await sendingClient(ctx);
  const answer = await journaledWrite(ctx, client, { resource: 'templates', operation: 'create', body: draft }, () =>
    client.templates.create(draft as TemplateCreateBody, headerFile !== undefined ? { headerFile } : {}),
  );
  return { answer, draft };
}

export async function render(ctx: Context, { answer, draft }: TemplateCreated): Promise<void> {
  await showWritten(ctx, answer, {
    noun: 'template',
    columns: templateDetailColumns,
    line: (t) =>
      `created template ${t.id} (${t.name ?? draft.name}), status ${t.status ?? 'not given'}: run \`wsm templates sync --wait --template ${t.id}\` for the review`,
  });
}
