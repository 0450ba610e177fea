// `wsm auth login`: gather base URL, token and workspace (flags > env > terminal prompts), check
// the token and the base URL (GET /me, or GET /workspaces/{workspace} where /me is missing: a
// route missing there means the base URL is wrong), then save them as a profile and make it
// current. Nothing is saved, and the current profile stays, unless every check passed. With /me,
// the workspace comes from the token's own: the only one, or picked on a terminal. With --email,
// the token comes from the e-mail and password (password.ts), then everything goes the same way.
import type { CommandLine } from '../declare.js';
import type { LOGIN_FLAGS } from '../auth.js';
import type { Context } from '../../cli/context.js';
import { AuthenticationError } from '../../api/errors.js';
import { CliError, ExitCode, UsageError } from '../../cli/errors.js';
import { baseUrlProblem, isUuid, normalizeBaseUrl } from '../../cli/values.js';
import { pickWorkspace } from '../workspace/mine.js';
import type { MeUser } from './me.js';
import { issueToken, passwordFromStdin } from './password.js';
import { probeWith, wrongBaseUrl, type BaseUrlOrigin } from '../../cli/base-url-check.js';
import { checkWorkspace, describeVerified, verifyToken } from './verify.js';

export interface LoginOptions {
  withToken: boolean;
  email?: string;
  passwordStdin: boolean;
}

/** What a login saved: where, as whom, in which profile, with which workspace (none: one to choose later). */
export interface LoggedIn {
  baseUrl: string;
  profileName: string;
  user: string;
  workspace?: string;
  /** The workspaces the token reaches, as GET /me counts them. */
  reachable: number;
}

export function parse({ opts }: CommandLine<typeof LOGIN_FLAGS>, ctx: Context): LoginOptions {
  const withToken = opts.withToken === true;
  const email = typeof opts.email === 'string' ? opts.email.trim() : undefined;
  const passwordStdin = opts.passwordStdin === true;
  if (passwordStdin && email === undefined) throw new UsageError('--password-stdin goes with --email <address>');
  if (email !== undefined && (withToken || ctx.globals.token))
    throw new UsageError('log in with --email (and a password) or with a token, not both');
  return { withToken, passwordStdin, ...(email !== undefined ? { email } : {}) };
}

export async function run(ctx: Context, { withToken, email, passwordStdin }: LoginOptions): Promise<LoggedIn> {
  const { globals, env, io, output } = ctx;
  const config = await ctx.config();
  const profileName = globals.profile || env.WSM_PROFILE || 'default';
  const saved = config.getProfile(profileName) ?? {};
  // A profile without a server of its own takes the current profile's: after `wsm serve`, a user
  // made there signs in with `--email` alone, as the README shows, with no --base-url to repeat.
  const currentName = config.currentName();
  const knownBaseUrl = saved.base_url ?? (currentName === undefined ? undefined : config.getProfile(currentName)?.base_url);

  // Read stdin before any prompt: with --with-token it carries the token, not answers.
  let token: string | undefined;
  let password: string | undefined;
  if (email !== undefined) {
    // The e-mail and password issue a new token: one set in WSM_TOKEN is not this login's.
    if (passwordStdin) password = passwordFromStdin(await io.readStdin());
  } else if (withToken) {
    token = tokenFrom(await io.readStdin(), 'standard input');
    if (!token) {
      throw new UsageError(
        '--with-token reads the token from standard input, which was empty: pipe it in, e.g. `wsm auth login --with-token < token.txt`',
      );
    }
  } else if (globals.token) {
    token = tokenFrom(globals.token, '--token');
    output.warn('a token on the command line lands in shell history and process lists; prefer `--with-token` (reads stdin)');
  } else if (env.WSM_TOKEN) {
    token = tokenFrom(env.WSM_TOKEN, 'WSM_TOKEN');
  }

  const canPrompt = io.isStdinTTY && !withToken && !passwordStdin;
  let baseUrl = globals.baseUrl || env.WSM_BASE_URL;
  let origin: BaseUrlOrigin = { source: globals.baseUrl ? 'flag' : 'env' };
  if (!baseUrl && canPrompt) {
    baseUrl = await ctx.prompter.input('API base URL', { default: knownBaseUrl, validate: (v) => baseUrlProblem(v) ?? true });
    origin = { source: 'typed' };
  }
  if (!baseUrl) {
    baseUrl = knownBaseUrl;
    origin = { source: 'profile', profile: saved.base_url !== undefined ? profileName : currentName };
  }
  if (!baseUrl) throw new UsageError('no base URL: pass --base-url <url> (or set WSM_BASE_URL)');
  const urlProblem = baseUrlProblem(baseUrl);
  if (urlProblem) throw new UsageError(urlProblem);
  baseUrl = normalizeBaseUrl(baseUrl);

  if (email !== undefined) {
    if (password === undefined && canPrompt) password = await ctx.prompter.password(`Password for ${email}`);
    if (!password) throw new UsageError('no password: pipe it in with `--password-stdin` (standard input is not a terminal)');
    token = await issueToken(ctx, baseUrl, email, password);
  }
  if (!token && canPrompt) token = tokenFrom(await ctx.prompter.password('API token'), 'the token typed');
  if (!token) throw new UsageError('no token: pipe it in with `--with-token` (standard input is not a terminal)');

  const given = (globals.workspace || env.WSM_WORKSPACE)?.trim() || undefined;
  let workspace = given ?? saved.workspace;
  if (workspace !== undefined && !isUuid(workspace)) throw new UsageError(`workspace "${workspace}" is not a UUID`);

  // Verify before saving: a typo must not replace a working profile. Without /me, the token is
  // checked against the workspace (the published API's GET /workspaces/{workspace}).
  const client = await ctx.clientFor({ baseUrl, token, workspace });
  // Logging in again is how a wrong base URL is fixed here: login saves the URL itself.
  const wrongBase = () =>
    wrongBaseUrl(probeWith(ctx), baseUrl, origin, (url) => `run \`wsm auth login --base-url ${url}\` (nothing was saved)`);
  const verified = await verifyToken(client, workspace, baseUrl, wrongBase).catch((error: unknown) => {
    // The usual hint, "run wsm auth login", would send the user back here.
    if (error instanceof AuthenticationError)
      throw new CliError(`${baseUrl} rejected this token (401): check it; nothing was saved`, ExitCode.auth);
    throw error;
  });
  if (verified.user)
    workspace = await chooseWorkspace(ctx, verified.user, workspace, given !== undefined, (id) =>
      checkWorkspace(client, id, baseUrl, wrongBase),
    );

  config.setProfile(profileName, { base_url: baseUrl, token, workspace });
  config.useProfile(profileName);

  return {
    baseUrl,
    profileName,
    user: describeVerified(verified),
    ...(workspace !== undefined ? { workspace } : {}),
    reachable: verified.user?.workspaces?.length ?? 0,
  };
}

export function render(ctx: Context, { baseUrl, profileName, user, workspace, reachable }: LoggedIn): void {
  ctx.output.done(`logged in to ${baseUrl} as ${user} (profile "${profileName}", now current)`);
  if (workspace === undefined) {
    // Seen in scripts too: the next command, in any shell, runs as this profile and needs a workspace.
    const several = reachable > 1 ? `this token reaches ${reachable} workspaces and none is picked without a terminal; ` : '';
    ctx.output.warn(
      `no workspace chosen: ${several}profile "${profileName}" is now current without one: pass -w <uuid> or run \`wsm workspace use\``,
    );
  }
}

/**
 * The workspace to save, from the token's own (GET /me): one given (-w, WSM_WORKSPACE) stays when
 * the token reaches it (checked with GET /workspaces/{id} when /me does not list it); the
 * profile's old one stays only when it is among them; otherwise the only one, or the one picked
 * on a terminal, or none.
 */
async function chooseWorkspace(
  ctx: Context,
  user: MeUser,
  workspace: string | undefined,
  given: boolean,
  check: (id: string) => Promise<void>,
): Promise<string | undefined> {
  const mine = (user.workspaces ?? []).map((w) => ({ id: w.id, name: w.name, current: false }));
  const listed = (id: string) => mine.some((w) => w.id.toLowerCase() === id.toLowerCase());
  if (workspace !== undefined && listed(workspace)) return workspace;
  if (workspace !== undefined && given) {
    await check(workspace);
    return workspace;
  }
  return (await pickWorkspace(ctx, mine))?.id;
}

/** A token as piped, typed or set: surrounding blanks and line ends dropped; inside, a token has none. */
function tokenFrom(text: string, source: string): string | undefined {
  const token = text.trim();
  if (token === '') return undefined;
  if (/\s/.test(token)) throw new UsageError(`${source} holds more than one line or word: a token is one word (nothing was saved)`);
  return token;
}
