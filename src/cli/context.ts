// The Context handed to every command: IO, resolved settings, profiles, the API client, prompts,
// output. Everything expensive (undici, zod, inquirer) is built on first use, never at start-up.
import type { Dispatcher } from 'undici';
import type { WsmClient } from '../api/client.js';
import { redactSecret } from '../api/redact.js';
import { openConfig, type ConfigStore } from './config.js';
import type { SignalSource } from './interrupt.js';
import { requestTimeoutMs } from './timeout.js';
import { CancelledError, NotLoggedInError, UsageError } from './errors.js';
import type { HostFiles } from './host-files.js';
import type { IOStreams } from './io.js';
import { createOutput, type Output, type OutputFormat } from './output.js';
import { createPrompter, type Prompter } from './prompter.js';
import { changeWhere, fromSource, originOf, sourceName } from './setting-source.js';
import { baseUrlProblem, isUuid, normalizeBaseUrl } from './values.js';
import { packageVersion } from './version.js';

export type Env = Record<string, string | undefined>;

/** The global flags (docs/configuration.md), as parsed (before env and profile are consulted). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  token?: string;
  workspace?: string;
  output: OutputFormat;
  color: boolean;
  quiet: boolean;
  verbose: boolean;
  yes: boolean;
  /** The global `--timeout`: the time one request may take (cli/timeout.ts settles what it means). */
  timeout?: string;
  /** `--json a,b`: the fields to print as JSON. */
  fields?: string[];
  /** `--jq <expr>`: a jq filter over the JSON. */
  jq?: string;
}

export type SettingSource = 'flag' | 'env' | 'profile';

/** Connection settings after precedence: flag > environment > profile. */
export interface Settings {
  profileName: string;
  baseUrl?: string;
  token?: string;
  workspace?: string;
  sources: { baseUrl?: SettingSource; token?: SettingSource; workspace?: SettingSource };
  /** The config file the profile is read from. */
  configPath?: string;
}

/** What main() can be given; tests replace any of it. */
export interface CliDeps {
  io: IOStreams;
  env: Env;
  /** undici dispatcher for the client (a MockAgent in tests). */
  dispatcher?: Dispatcher;
  /** Directory of the config file; beats WSM_CONFIG_DIR. */
  configDir?: string;
  prompter?: Prompter;
  now: () => Date;
  /** The arguments wsm was run with, which the change journal records (the process's own when unset). */
  args?: string[];
}

export interface Context {
  io: IOStreams;
  globals: GlobalOptions;
  env: Env;
  now: () => Date;
  prompter: Prompter;
  output: Output;
  /** The resolved settings; UsageError (exit 2) for a named profile that does not exist or a base URL that is not http(s). */
  settings(): Promise<Settings>;
  /** The profile in use by name, unchecked: `profile set` creates it, `profile show` words its own error. */
  profileName(): Promise<string>;
  config(): Promise<ConfigStore>;
  /** Client for the resolved settings; NotLoggedInError (exit 2) without base URL or token. */
  client(): Promise<WsmClient>;
  /** Client for explicit values (auth login verifies before saving; completion asks with a short timeout). */
  clientFor(connection: {
    baseUrl: string;
    token: string;
    workspace?: string;
    timeoutMs?: number;
    maxRetries?: number;
  }): Promise<WsmClient>;
  /** The workspace id to act on; UsageError (exit 2) when none is set or it is not a UUID. */
  workspace(): Promise<string>;
  /**
   * Asks `question` (y/N) on a terminal unless --yes; without a terminal requires --yes (exit 2):
   * `<action> needs --yes when not on a terminal`, with `action` such as "deleting contact 4".
   */
  confirm(question: string, action: string): Promise<void>;
  /** Strings never to print: every token we know of. */
  secrets(): string[];
  /** The base URL once settings were resolved (error messages name it), else undefined. */
  knownBaseUrl(): string | undefined;
  /** The settings once resolved (error messages name where each came from), else undefined. */
  knownSettings(): Settings | undefined;
  /**
   * What interrupts a wait (untilInterrupted): the process's SIGINT when unset; `wsm mcp` gives
   * each tool call its own, fired by the client's cancellation.
   */
  interrupts?: SignalSource;
  /**
   * Where the input came from, for the files of this machine it names (host-files.ts): unset on the
   * command line; `wsm mcp --http` marks its calls' input as a remote caller's.
   */
  hostFiles?: HostFiles;
  /** What the change journal says made a change: the command line when unset; `wsm mcp` names its tool. */
  journalCommand?: string;
  /** The arguments of that command line (CliDeps.args). */
  commandArgs?: string[];
  /** What the change journal says a change did, where the verb's own words would name a file of its own making: `wsm mcp` names what the agent gave. */
  journalSummary?: string;
}

export function createContext(deps: CliDeps, globals: GlobalOptions): Context {
  const { io, env } = deps;
  let configPromise: Promise<ConfigStore> | undefined;
  let settingsPromise: Promise<Settings> | undefined;
  let clientPromise: Promise<WsmClient> | undefined;
  let resolvedBaseUrl: string | undefined;
  let resolvedSettings: Settings | undefined;

  const config = () => (configPromise ??= openConfig({ dir: deps.configDir, env }));

  const settings = () =>
    (settingsPromise ??= (async () => {
      const resolved = resolveSettings(globals, env, await config());
      resolvedBaseUrl = resolved.baseUrl;
      resolvedSettings = resolved;
      return resolved;
    })());

  const clientFor: Context['clientFor'] = async ({
    baseUrl,
    token,
    workspace,
    timeoutMs = requestTimeoutMs(globals.timeout, env),
    maxRetries,
  }) => {
    const { createClient } = await import('../api/client.js');
    resolvedBaseUrl ??= baseUrl;
    return createClient({
      baseUrl,
      token,
      workspace,
      dispatcher: deps.dispatcher,
      userAgent: `wsm/${packageVersion()}`,
      timeoutMs,
      maxRetries,
      // The client already redacts the token in its trace; we keep stderr as the only sink.
      trace: globals.verbose ? (line) => io.err(redactSecret(line, token) + '\n') : undefined,
    });
  };

  const ctx: Context = {
    io,
    globals,
    env,
    now: deps.now,
    commandArgs: deps.args,
    prompter: deps.prompter ?? createPrompter(io),
    output: createOutput(io, {
      format: globals.output,
      quiet: globals.quiet,
      fields: globals.fields,
      jq: globals.jq,
      now: deps.now,
      target: globals,
    }),
    settings,
    profileName: async () => resolveProfileName(globals, env, await config()).name,
    config,
    clientFor,
    client: () =>
      (clientPromise ??= (async () => {
        const s = await settings();
        const { baseUrl, token } = requireLogin(s);
        return clientFor({ baseUrl, token, workspace: s.workspace });
      })()),
    async workspace() {
      const resolved = await settings();
      const { workspace } = resolved;
      // A fresh install lacks everything: logging in is the first step, not choosing a workspace.
      requireLogin(resolved);
      if (workspace === undefined) {
        throw new UsageError('no workspace: pass -w <uuid>, set WSM_WORKSPACE, or run `wsm profile set workspace <uuid>`');
      }
      if (!isUuid(workspace)) {
        const origin = originOf('workspace', resolved);
        throw new UsageError(
          `workspace "${workspace}"${fromSource('workspace', origin)} is not a UUID${origin ? `: ${changeWhere('workspace', origin)}` : ''}`,
        );
      }
      return workspace;
    },
    async confirm(question, action) {
      if (globals.yes) return;
      if (!io.isStdinTTY) throw new UsageError(`${action} needs --yes when not on a terminal`);
      if (!(await ctx.prompter.confirm(question, false))) throw new CancelledError();
    },
    secrets: () => [globals.token, env.WSM_TOKEN?.trim(), resolvedSettings?.token].filter((s): s is string => !!s),
    knownBaseUrl: () => resolvedBaseUrl,
    knownSettings: () => resolvedSettings,
  };
  return ctx;
}

/**
 * The settings a request needs, or what is missing, named: nothing at all is "not logged in"; a
 * token without a base URL (WSM_TOKEN alone, say) is a missing base URL, not a missing login.
 */
export function requireLogin(settings: Settings): { baseUrl: string; token: string } {
  const { baseUrl, token } = settings;
  if (baseUrl && token) return { baseUrl, token };
  if (!baseUrl && token) {
    throw new NotLoggedInError(
      `no base URL for the token${fromSource('token', originOf('token', settings))}: pass --base-url <url>, set WSM_BASE_URL, or run \`wsm profile set base-url <url>\``,
    );
  }
  if (baseUrl && !token) {
    throw new NotLoggedInError(
      `no token for ${baseUrl}${fromSource('baseUrl', originOf('baseUrl', settings))}: run \`wsm auth login\`, or set WSM_TOKEN`,
    );
  }
  throw new NotLoggedInError();
}

/** The profile to use: `--profile`, WSM_PROFILE (both "explicit"), the current one, or `default`. */
function resolveProfileName(globals: GlobalOptions, env: Env, config: ConfigStore): { name: string; explicit: boolean } {
  const named = globals.profile || env.WSM_PROFILE;
  return named ? { name: named, explicit: true } : { name: config.currentName() || 'default', explicit: false };
}

/**
 * Precedence (docs/configuration.md "Where settings come from"): flag > environment > profile. Pure, so tests pin it down directly.
 * A profile named explicitly must exist (a typo would otherwise act as an empty profile), and the
 * base URL must be http(s) wherever it came from: nothing is sent with a URL undici would refuse.
 */
export function resolveSettings(globals: GlobalOptions, env: Env, config: ConfigStore): Settings {
  const { name: profileName, explicit } = resolveProfileName(globals, env, config);
  const saved = config.getProfile(profileName);
  if (saved === undefined && explicit) throw new UsageError(`no profile named "${profileName}" (see \`wsm profile list\`)`);
  const profile = saved ?? {};
  const sources: Settings['sources'] = {};
  const pick = (key: keyof Settings['sources'], flag: string | undefined, envValue: string | undefined, saved: string | undefined) => {
    for (const [raw, source] of [
      [flag, 'flag'],
      [envValue, 'env'],
      [saved, 'profile'],
    ] as const) {
      // Trimmed like a token read from stdin: `export WSM_TOKEN="$(cat token.txt)"` keeps no newline.
      const value = raw?.trim();
      if (value !== undefined && value !== '') {
        sources[key] = source;
        return value;
      }
    }
    return undefined;
  };
  const baseUrl = pick('baseUrl', globals.baseUrl, env.WSM_BASE_URL, profile.base_url);
  if (baseUrl !== undefined && baseUrlProblem(baseUrl) !== undefined) {
    const origin = originOf('baseUrl', { sources, profileName, configPath: config.path })!;
    const source = origin.source === 'profile' ? `the base URL of ${sourceName('baseUrl', origin)}` : sourceName('baseUrl', origin);
    const fix = origin.source === 'profile' ? ` (fix it with \`wsm profile set base-url <url>\`)` : '';
    throw new UsageError(`${source} must be an http(s) URL such as https://api.example.com/api/v3, got "${baseUrl}"${fix}`);
  }
  return {
    profileName,
    baseUrl: baseUrl === undefined ? undefined : normalizeBaseUrl(baseUrl),
    token: pick('token', globals.token, env.WSM_TOKEN, profile.token),
    workspace: pick('workspace', globals.workspace, env.WSM_WORKSPACE, profile.workspace),
    sources,
    configPath: config.path,
  };
}
