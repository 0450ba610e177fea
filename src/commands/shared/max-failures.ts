// `--max-failures N` or `N%`: how many failed items (rows of an import, lines of a bulk verb) a
// run tolerates before it exits 8 (docs/output.md "Exit codes"). Without the flag, none.
import { CliError, ExitCode, UsageError } from '../../cli/errors.js';
import type { Context } from '../../cli/context.js';

/**
 * The command finished, but some of its items failed (rows of an import, ids or lines of a bulk
 * verb) beyond what --max-failures tolerates (exit 8). The command printed its report first, so a
 * script reads the report on stdout and the outcome in the code.
 */
class ItemsFailedError extends CliError {
  override name = 'ItemsFailedError';
  constructor(message: string, exitCode: number = ExitCode.itemsFailed) {
    super(message, exitCode);
  }
}

export interface FailureLimit {
  /** At most this many failed items. */
  count?: number;
  /** At most this share (0..1) of the items. */
  share?: number;
  /** As the user typed it, for messages. */
  text: string;
}

/** `5`, `0`, `1%`, `0.5%`; anything else is exit 2. */
export function parseMaxFailures(value: unknown): FailureLimit | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text);
  if (percent && Number(percent[1]) <= 100) return { share: Number(percent[1]) / 100, text };
  if (/^\d+$/.test(text) && Number.isSafeInteger(Number(text))) return { count: Number(text), text };
  throw new UsageError(`--max-failures takes a number of items or a share such as 1%, got "${text}"`);
}

/** Whether `failed` of `total` items is within the limit. */
function tolerated(limit: FailureLimit | undefined, failed: number, total: number): boolean {
  if (failed === 0) return true;
  if (limit === undefined) return false;
  if (limit.count !== undefined) return failed <= limit.count;
  return failed <= (limit.share ?? 0) * total;
}

/**
 * The end of a run with failed items: within --max-failures a warning, otherwise exit 8 with
 * `summary` (`3 of 1,200 rows failed`). `code` replaces 8 when the run itself failed rather than
 * its items (every item refused the token, the server was unreachable).
 */
export function endWithFailures(
  ctx: Context,
  limit: FailureLimit | undefined,
  failed: number,
  total: number,
  summary: string,
  code?: number,
): void {
  if (failed === 0) return;
  if (tolerated(limit, failed, total)) {
    ctx.output.warn(`${summary} (tolerated: --max-failures ${limit!.text})`);
    return;
  }
  throw new ItemsFailedError(summary, code);
}
