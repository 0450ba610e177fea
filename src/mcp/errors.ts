// A failed call as an MCP tool error: the CLI's own words (describeError in src/cli/error-report.ts
// decides the words and the exit code, here as everywhere; a command they suggest named as the tool
// that does it, tool-words.ts) and what that exit code means, so an
// agent tells "not found" from "not allowed" from "fix the input" without parsing sentences.
// Never structuredContent on an error: clients check it against the success schema.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '../cli/context.js';
import { describeError } from '../cli/error-report.js';
import { ExitCode } from '../cli/errors.js';
import { inToolWords } from './tool-words.js';

/** What each exit code means (docs/output.md "Exit codes"), in the words an agent acts on. */
const EXIT_MEANINGS: Record<number, string> = {
  [ExitCode.failure]: 'failure',
  [ExitCode.usage]: 'bad input, nothing was sent',
  [ExitCode.auth]: 'not permitted (the token or its role)',
  [ExitCode.notFound]: 'not found',
  [ExitCode.rejected]: 'rejected by the server: fix the fields named',
  [ExitCode.unavailable]: 'unavailable or timed out: may succeed later',
  [ExitCode.templatesRejected]: 'templates rejected by the provider',
  [ExitCode.itemsFailed]: 'done, but some items failed',
  [ExitCode.interrupted]: 'cancelled',
};

/** The key under the result's `_meta` that carries the CLI's exit code. */
const EXIT_CODE_META = 'wsm/exit_code';

/** `(exit 4: not found)`: the line a tool error ends with. */
export function exitNote(code: number): string {
  return `(exit ${code}: ${EXIT_MEANINGS[code] ?? 'failure'})`;
}

/**
 * `error: contact 999 not found` + `(exit 4: not found)`, as a tool error result; then what the
 * call said before it failed (`said`: an upload's `✓` line and its warnings), which an error
 * result would otherwise lose.
 */
export function toolError(
  error: unknown,
  ctx: Pick<Context, 'env' | 'secrets' | 'knownBaseUrl' | 'globals'>,
  said: string[] = [],
): CallToolResult {
  const { code, text } = describeError(error, {
    env: ctx.env,
    secrets: () => ctx.secrets(),
    baseUrl: ctx.knownBaseUrl(),
    target: ctx.globals,
  });
  const before = said.length > 0 ? `\nsaid before the error:\n${said.map((line) => `  ${line}`).join('\n')}` : '';
  return refusal(`${inToolWords(text.trimEnd())}\n${exitNote(code)}${before}`, code);
}

/** A tool error from text of our own (a confirmation missing). */
export function refusal(text: string, code: number = ExitCode.usage): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }], _meta: { [EXIT_CODE_META]: code } };
}
