// `wsm auth login`: gather base URL, token and workspace (flags > env > terminal prompts), check
// the token (GET /me, or GET /workspaces/{workspace} where /me is missing), then save them as a
// profile and make it current.
import type { VerbInput } from '../../cli/action.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { baseUrlProblem, isUuid, normalizeBaseUrl } from '../../cli/values.js';
import { describeVerified, verifyToken } from './verify.js';

export async function run(ctx: Context, input: VerbInput): Promise<void> {
  const { globals, env, io, output } = ctx;
  const withToken = input.opts.withToken === true;
  const config = await ctx.config();
  const profileName = globals.profile || env.WSM_PROFILE || 'default';
  const saved = config.getProfile(profileName) ?? {};

  // Read stdin before any prompt: with --with-token it carries the token, not answers.
  let token: string | undefined;
  if (withToken) {
    token = firstLine(await io.readStdin());
    if (!token) {
      throw new UsageError('--with-token reads the token from standard input, which was empty: pipe it in, e.g. `wsm auth login --with-token < token.txt`');
    }
  } else if (globals.token) {
    token = globals.token;
    output.warn('a token on the command line lands in shell history and process lists; prefer `--with-token` (reads stdin)');
  } else if (env.WSM_TOKEN) {
    token = env.WSM_TOKEN;
  }

  const canPrompt = io.isStdinTTY && !withToken;
  let baseUrl = globals.baseUrl || env.WSM_BASE_URL;
  if (!baseUrl && canPrompt) {
    baseUrl = await ctx.prompter.input('API base URL', { default: saved.base_url, validate: (v) => baseUrlProblem(v) ?? true });
  }
  baseUrl ||= saved.base_url;
  if (!baseUrl) throw new UsageError('no base URL: pass --base-url <url> (or set WSM_BASE_URL)');
  const urlProblem = baseUrlProblem(baseUrl);
  if (urlProblem) throw new UsageError(urlProblem);
  baseUrl = normalizeBaseUrl(baseUrl);

  if (!token && canPrompt) token = (await ctx.prompter.password('API token')).trim();
  if (!token) throw new UsageError('no token: pipe it in with `--with-token` (standard input is not a terminal)');

  let workspace = globals.workspace || env.WSM_WORKSPACE || saved.workspace;
  if (workspace !== undefined && !isUuid(workspace)) throw new UsageError(`workspace "${workspace}" is not a UUID`);

  // Verify before saving: a typo must not replace a working profile. Without /me, the token is
  // checked against the workspace (api.md's GET /workspaces/{workspace}).
  const verified = await verifyToken(await ctx.clientFor({ baseUrl, token, workspace }), workspace);
  const user = verified.user;
  // Exactly one workspace is an unambiguous default; with several the user picks with -w.
  if (workspace === undefined && user?.workspaces?.length === 1) workspace = user.workspaces[0].id;

  config.setProfile(profileName, { base_url: baseUrl, token, workspace });
  config.useProfile(profileName);

  output.message(`Logged in to ${baseUrl} as ${describeVerified(verified)} (profile "${profileName}", now current)`);
  if (workspace === undefined) {
    output.message('No workspace chosen: pass -w <uuid> or run `wsm profile set workspace <uuid>`');
  }
}

function firstLine(text: string): string {
  return text.split(/\r?\n/).map((l) => l.trim()).find((l) => l !== '') ?? '';
}
