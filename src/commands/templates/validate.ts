// `wsm templates validate <file> [--strict]`: the create rules, offline. Exit 2 with one line per
// field error (the same messages the server would answer with). A template the API accepts may
// still be one the provider's review rejects (decisions.md §6): each such rule is a warning, from
// the same module the simulated provider decides with (src/api/template-review.ts); --strict makes
// a warning exit 2 (a local validation failure, as the exit table says), for CI that would rather
// fail before the review than after it.
import { check, templateCreateBody } from '../../api/schemas/index.js';
import { reviewProblems, type ReviewProblem } from '../../api/template-review.js';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode, RequestValidationError } from '../../cli/errors.js';
import type { CommandLine } from '../declare.js';
import type { VALIDATE_FLAGS } from '../templates.js';
import { readTemplateFile } from './body.js';

export interface ValidateOptions {
  file: string;
  strict: boolean;
}

/** The template file checked offline: valid for the API (else exit 2), and what the provider's review would reject. */
export interface Validated {
  file: string;
  review: ReviewProblem[];
}

export function parse({ args, opts }: CommandLine<typeof VALIDATE_FLAGS>): ValidateOptions {
  return { file: args[0], strict: opts.strict === true };
}

export async function run(ctx: Context, { file }: ValidateOptions): Promise<Validated> {
  const draft = await readTemplateFile(ctx, file);
  const result = check(templateCreateBody, draft);
  if (!result.ok) throw new RequestValidationError(`${file} is not a valid template`, result.errors);
  const review = reviewProblems(result.value);
  for (const problem of review)
    ctx.output.warn(`${problem.field}: ${problem.message} (the provider's review rejects it: ${problem.reason})`);
  return { file, review };
}

export function render(ctx: Context, { file, review }: Validated): void {
  if (ctx.output.structured) {
    ctx.output.json({ file, valid: true, review });
  } else if (!ctx.output.quiet) {
    ctx.output.text(
      review.length === 0
        ? 'valid\n'
        : `valid for the API, but the provider's review would reject it (${review.length} warning${review.length === 1 ? '' : 's'})\n`,
    );
  }
}

/** --strict: a template the review would reject is exit 2, a local validation failure. */
export function settle(_ctx: Context, { file, review }: Validated, { strict }: ValidateOptions): void {
  if (review.length > 0 && strict) throw new CliError(`the provider's review would reject ${file} (--strict)`, ExitCode.usage);
}
