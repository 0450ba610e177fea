// `wsm serve`: parse the flags (each error names its flag, exit 2), start the server, save the
// profile that points the CLI at it, and stop cleanly on SIGINT/SIGTERM. As a verb: run serves
// until stopped and returns the server as it started; `live` says where it listens (and how to
// read its token) as soon as it does.
import { connect } from 'node:net';
import * as z from 'zod';
import { UsageError } from '../../cli/errors.js';
import { isUuid, listenAddress, normalizeOrigin } from '../../cli/values.js';
import { shellWord } from '../../cli/suggest.js';
import { saveLocalProfile } from '../../cli/config.js';
import type { Context } from '../../cli/context.js';
import type { CommandLine, FlagOptions } from '../declare.js';
import type { SERVE_FLAGS } from '../serve.js';
import { badValue, parseDuration, parseValue } from '../shared/verb.js';

const PROVIDER_FAULTS = ['unavailable', 'credentials', 'timeout'] as const;

/** The profile a server is saved under unless `--profile` names another. */
const DEFAULT_PROFILE = 'local';

/** `--cors` values, or else WSM_CORS (comma-separated), each an origin such as http://localhost:5173, or `*`. */
function corsOrigins(flag: string[] | undefined, env: string | undefined): string[] {
  const given = flag ?? (env ?? '').split(',').filter((value) => value.trim() !== '');
  const where = flag ? '--cors' : 'WSM_CORS';
  return given.map((value) => {
    // A browser sends one origin, matched whole: `https://*.example.com` would be taken and never match.
    if (value.trim() !== '*' && value.includes('*'))
      throw new UsageError(
        `${where} takes whole origins, and "${value.trim()}" has a wildcard, which no browser's Origin matches: name each origin (repeat --cors), or * for any`,
      );
    const origin = normalizeOrigin(value);
    if (origin === undefined)
      throw new UsageError(
        `${where} takes an origin such as http://localhost:5173 (scheme, host and port, no path) or *, got "${value.trim()}"`,
      );
    return origin;
  });
}

/** The flags in the user's words: `--port takes a whole number from 0 to 65535, got "x"`. */
function serveFlags(opts: FlagOptions<typeof SERVE_FLAGS>, workspace: string | undefined, env: Record<string, string | undefined>) {
  const { host, port } = listenAddress(String(opts.port), String(opts.host));
  const { adminToken } = opts;
  if (adminToken !== undefined && adminToken.length < 8) throw new UsageError('--admin-token must be at least 8 characters long');
  if (workspace !== undefined && !isUuid(workspace)) throw badValue('-w/--workspace', 'the UUID of the workspace to seed', workspace);
  return {
    host,
    port,
    db: opts.db,
    adminToken,
    workspace,
    approvalDelayMs: parseDuration(opts.approvalDelay, '--approval-delay'),
    providerFault:
      opts.providerFault === undefined ? undefined : parseValue(z.enum(PROVIDER_FAULTS), opts.providerFault, '--provider-fault'),
    logger: opts.log === true,
    apiOnly: opts.apiOnly === true,
    corsOrigins: corsOrigins(opts.cors, env.WSM_CORS),
  };
}

export interface ServeOptions {
  server: ReturnType<typeof serveFlags>;
  /** The profile saved for this server: the global --profile, else `local`. */
  profileName: string;
  /** A throwaway `--db :memory:` saves no profile (one pointing at a dead port later) unless --profile names one. */
  saveProfile: boolean;
}

/** The server as it started: where it listens, its workspace, and the profile that now points at it. */
export interface Started {
  url: string;
  workspaceId: string;
  /** Undefined when no profile was saved (`--db :memory:` without --profile). */
  profileName: string | undefined;
  token: string;
  /** The origins `--cors` lets browsers call from. */
  corsOrigins: string[];
  /** The token was minted by this start (printed once). */
  newToken: boolean;
  /** The profile's old address, where another server still answered. */
  replaced?: string;
  apiOnly: boolean;
}

/** What a person sees once the server listens, while run goes on serving. */
export interface ServeLive {
  started(started: Started): void;
}

export function parse({ opts }: CommandLine<typeof SERVE_FLAGS>, ctx: Context): ServeOptions {
  // -w/--workspace and --profile are global flags: serve reads the seeded workspace's id and the
  // name to save its profile under from there.
  const server = serveFlags(opts, ctx.globals.workspace, ctx.env);
  const named = ctx.globals.profile;
  return { server, profileName: named ?? DEFAULT_PROFILE, saveProfile: server.db !== ':memory:' || named !== undefined };
}

/** Serves until SIGINT or SIGTERM; returns the server as it started. */
export async function run(ctx: Context, { server: flags, profileName, saveProfile }: ServeOptions, live?: ServeLive): Promise<Started> {
  if (flags.corsOrigins.includes('*')) {
    ctx.output.warn('--cors *: a page from any site may call this API with a token it holds; name the origins of your app instead');
  }
  const config = await ctx.config();
  const previous = saveProfile ? config.getProfile(profileName) : undefined;

  const { startServer } = await import('../../server/serve.js');
  const server = await startServer({ ...flags, previousToken: previous?.token, onWarning: (message) => ctx.output.warn(message) });

  // SIGINT/SIGTERM: stop accepting, finish in-flight requests, close the database, exit 0.
  // Listened for before "Listening on" is printed: a script that stops the server as soon as it
  // reads that line would otherwise find no handler, and the signal's default kills the process.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close().then(resolve, resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

  // Another server still answering at the profile's old address loses its profile: say so.
  const replaced =
    previous?.base_url !== undefined && previous.base_url !== server.url && (await answers(previous.base_url))
      ? previous.base_url
      : undefined;
  if (saveProfile)
    await saveLocalProfile({ baseUrl: server.url, token: server.token, workspace: server.workspaceId }, { config, name: profileName });
  const started: Started = {
    url: server.url,
    workspaceId: server.workspaceId,
    profileName: saveProfile ? profileName : undefined,
    token: server.token,
    corsOrigins: flags.corsOrigins,
    newToken: server.newToken,
    ...(replaced !== undefined ? { replaced } : {}),
    apiOnly: flags.apiOnly,
  };
  live?.started(started);
  await stopped;
  return started;
}

/**
 * "Listening on" on stdout (scripts wait for it), then the profile, the token and the origins
 * `--cors` allows. The token itself only on a terminal, when minted: piped into a CI log it would
 * stay there, so a log gets the command that prints it.
 */
export function live(ctx: Context): ServeLive {
  return {
    started({ url, workspaceId, profileName, token, corsOrigins, newToken, replaced, apiOnly }) {
      ctx.output.text(`Listening on ${url}\n`);
      if (replaced !== undefined) {
        ctx.output.warn(
          `replacing profile "${profileName}" (was ${replaced}, where a server still answers): pass --profile <name> to save this server under another name`,
        );
      }
      ctx.io.err(`Workspace ${workspaceId}; ${tokenLine(ctx, profileName, newToken ? token : undefined)}\n`);
      if (corsOrigins.length > 0)
        ctx.io.err(`Browsers may call it from ${corsOrigins.includes('*') ? 'any origin (*)' : corsOrigins.join(', ')}\n`);
      if (apiOnly) ctx.io.err('Published API only: every extension answers 404\n');
    },
  };
}

/** Where the profile went and how to read the token: `minted` is a token this start made, shown on a terminal only. */
function tokenLine(ctx: Context, profileName: string | undefined, minted: string | undefined): string {
  const shown = minted !== undefined && ctx.io.isStderrTTY ? minted : undefined;
  if (profileName === undefined) {
    // Nothing saved: on a terminal the token is shown; a log gets how to choose one instead.
    const token =
      minted === undefined ? 'the one --admin-token gave' : (shown ?? 'not printed when piped: pass --admin-token <token> to choose it');
    return `no profile saved (--db :memory:; --profile <name> saves one); admin token: ${token}`;
  }
  const command = `\`wsm auth token --profile ${shellWord(profileName)}\``;
  return `profile "${profileName}" saved; admin token: ${shown === undefined ? `${command} prints it` : `${shown} (${command} prints it again)`}`;
}

/** The server has stopped: everything was said while it ran. */
export function render(): void {}

/** Whether something accepts connections at the URL's host and port (a quick TCP connect, no request). */
function answers(url: string, timeoutMs = 500): Promise<boolean> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(false);
  }
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve) => {
    const socket = connect({ host: target.hostname.replace(/^\[|\]$/g, ''), port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
