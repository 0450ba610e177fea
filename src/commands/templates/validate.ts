// `wsm templates validate <file> [--strict]`: the create rules, offline. Exit 2 with one line per
// field error (the same messages the server would answer with). A template the API accepts may
// still be one the provider's review rejects (decisions.md §6): each such rule is a warning, from
// the same module the simulated provider decides with (src/api/template-review.ts); --strict makes
// a warning exit 1, for CI that would rather fail before the review than after it.
import { check, templateCreateBody } from '../../api/schemas/index.js';
import { reviewProblems } from '../../api/template-review.js';
import { CliError, ExitCode, LocalValidationError } from '../../cli/errors.js';
import { typedRun, type VerbRun } from '../shared/verb.js';
import type { validate } from '../templates.js';
import { readTemplateFile } from './body.js';

export const run: VerbRun = typedRun<typeof validate>(async (ctx, { args, opts }) => {
  const file = args[0];
  const draft = await readTemplateFile(ctx, file);
  const result = check(templateCreateBody, draft);
  if (!result.ok) throw new LocalValidationError(`${file} is not a valid template`, result.errors);
  const review = reviewProblems(result.value);
  for (const problem of review) ctx.output.warn(`${problem.field}: ${problem.message} (the provider's review rejects it: ${problem.reason})`);
  if (ctx.output.structured) {
    ctx.output.json({ file, valid: true, review });
  } else if (!ctx.output.quiet) {
    ctx.output.text(review.length === 0 ? 'valid\n' : `valid for the API, but the provider's review would reject it (${review.length} warning${review.length === 1 ? '' : 's'})\n`);
  }
  if (review.length > 0 && opts.strict === true) {
    throw new CliError(`the provider's review would reject ${file} (--strict)`, ExitCode.failure);
  }
});
