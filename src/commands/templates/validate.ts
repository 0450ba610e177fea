// `wsm templates validate <file>`: the create rules, offline. Exit 0 printing `valid`, or exit 2
// with one line per field error (the same messages the server would answer with).
import { check, templateCreateBody } from '../../api/schemas/index.js';
import { LocalValidationError } from '../../cli/errors.js';
import { verb } from '../shared/verb.js';
import { readTemplateFile } from './body.js';

export const run = verb(async (ctx, { args }) => {
  const file = args[0];
  const draft = await readTemplateFile(ctx, file);
  const result = check(templateCreateBody, draft);
  if (!result.ok) throw new LocalValidationError(`${file} is not a valid template`, result.errors);
  if (ctx.output.format === 'json' || ctx.output.format === 'ndjson') {
    ctx.io.out(JSON.stringify({ file, valid: true }, null, ctx.output.format === 'json' ? 2 : 0) + '\n');
  } else if (!ctx.output.quiet) {
    ctx.io.out('valid\n');
  }
});
