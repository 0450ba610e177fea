// `wsm auth login --email <e>`: a token for a user made with a password (`users create --password`),
// from POST /auth/tokens. That operation is an extension (decisions.md §6; the published API has no login): a
// server without it is the client's UnsupportedEndpointError, saying to log in with a token instead.
import { ValidationFailedError } from '../../api/errors.js';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode, UsageError } from '../../cli/errors.js';

/** The password piped with --password-stdin: the line end is dropped, nothing else (spaces may be part of it). */
export function passwordFromStdin(text: string): string {
  const password = text.replace(/\r?\n$/, '');
  if (password === '') throw new UsageError('--password-stdin reads the password from standard input, which was empty: pipe it in');
  if (/[\r\n]/.test(password))
    throw new UsageError('standard input holds more than one line: --password-stdin reads one password (nothing was saved)');
  return password;
}

/** POST /auth/tokens with the e-mail and password; the token it issues. A refusal is exit 3 and saves nothing. */
export async function issueToken(ctx: Context, baseUrl: string, email: string, password: string): Promise<string> {
  const client = await ctx.clientFor({ baseUrl, token: '' });
  let answer;
  try {
    answer = await client.auth.createToken({ email, password });
  } catch (error) {
    if (error instanceof ValidationFailedError) {
      const reasons = Object.values(error.errors).flat().join(' ') || error.message;
      throw new CliError(`the server refused ${email} with that password: ${reasons} (nothing was saved)`, ExitCode.auth);
    }
    throw error;
  }
  const token = (answer as { data?: { token?: unknown } } | undefined)?.data?.token;
  if (typeof token !== 'string' || token === '')
    throw new CliError('the server answered POST /auth/tokens without a token (data.token): nothing was saved');
  return token;
}
