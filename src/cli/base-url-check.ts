// A wrong base URL fails as something else: under `/api/v2` our server answers every path with the
// API's own 404, so the user reads `workspace … not found or not yours` and blames the workspace.
// Before blaming anything behind the base URL, wsm asks whether the base URL answers like the API
// at all (WorkspacesResource.answersLikeApi: a request without a token gets the published API's 401), and if
// not, says so, naming where the URL came from and, when one answers, the URL to use instead.
// Asked only after a request failed in a way a wrong base URL explains (a 404 or 405, an extension
// "not supported", a 2xx that is no API answer): a working command never pays for the question.
import { APIStatusError, PageFailedError, UnsupportedEndpointError, UnusableResponseError } from '../api/errors.js';
import type { Context } from './context.js';
import { CliError, ExitCode } from './errors.js';
import { changeWhere, fromSource, originOf, sourceName, type SettingOrigin } from './setting-source.js';

/** Where a base URL came from: a setting (with its profile), or typed at `auth login`'s prompt. */
export type BaseUrlOrigin = SettingOrigin;

/** Asks one base URL whether it answers like the API; undefined when it cannot be asked. */
export type Probe = (baseUrl: string) => Promise<boolean | undefined>;

/** The base path the published API gives the API. */
const API_PATH = '/api/v3';

/** A failure that a base URL pointing elsewhere than the API would also give. */
function wrongBaseExplains(error: unknown, baseUrl: string): boolean {
  if (error instanceof PageFailedError) return wrongBaseExplains(error.cause, baseUrl);
  if (error instanceof UnsupportedEndpointError) return wrongBaseExplains(error.response, baseUrl);
  if (error instanceof UnusableResponseError) return true;
  return error instanceof APIStatusError && (error.status === 404 || error.status === 405) && error.url.startsWith(baseUrl);
}

/** The base URLs the API may be at instead: `/api/v2` -> `/api/v3`, the suffix added, the host's own `/api/v3`. */
function candidateBaseUrls(baseUrl: string): string[] {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return [];
  }
  const path = url.pathname.replace(/\/+$/, '');
  const versioned = /^(.*)\/api\/v\d+$/.exec(path);
  const candidates = [
    ...(versioned ? [`${url.origin}${versioned[1]}${API_PATH}`] : [`${url.origin}${path}${API_PATH}`]),
    `${url.origin}${API_PATH}`,
  ];
  return [...new Set(candidates)].filter((candidate) => candidate !== baseUrl.replace(/\/+$/, ''));
}

/** `(from --base-url)`, `(from WSM_BASE_URL)`, `, the base URL of profile "local" in …/config.json,`. */
function originWords(origin: BaseUrlOrigin): string {
  if (origin.source === 'profile') return `, the base URL of ${sourceName('baseUrl', origin)},`;
  return fromSource('baseUrl', origin);
}

/** How to use `url` instead, where the base URL came from. */
function settingFix(origin: BaseUrlOrigin): (url: string) => string {
  return (url) => changeWhere('baseUrl', origin.source === 'typed' ? { source: 'profile' } : origin, url);
}

/**
 * When `baseUrl` does not answer like the API: the error saying so (exit 4, as the 404 it explains),
 * with the URL that does when one of the likely ones answers. Undefined when it answers like the
 * API (the failure is what it says) or cannot be asked.
 */
export async function wrongBaseUrl(
  probe: Probe,
  baseUrl: string,
  origin: BaseUrlOrigin,
  fix = settingFix(origin),
  detail = '',
): Promise<CliError | undefined> {
  // The base URL first: a right one (most 404s are a record that is not there) costs one request,
  // and URLs the user never configured are asked only once it does not answer like the API.
  if ((await probe(baseUrl)) !== false) return undefined;
  const candidates = candidateBaseUrls(baseUrl);
  const others = await Promise.all(candidates.map(probe));
  const found = candidates.find((_, i) => others[i] === true);
  const question =
    new URL(baseUrl).pathname.replace(/\/+$/, '') === API_PATH ? 'is it the right server?' : `is ${API_PATH} the right path?`;
  const instead = found !== undefined ? ` ${found} does: ${fix(found)}` : '';
  return new CliError(
    `${baseUrl}${originWords(origin)} does not answer like the Workspace Messaging API${detail}: ${question}${instead}`,
    ExitCode.notFound,
  );
}

/** A probe over the context's connection settings (proxy, timeout, trace), without the token. */
export function probeWith(ctx: Context): Probe {
  return async (baseUrl) => (await ctx.clientFor({ baseUrl, token: '', maxRetries: 0 })).workspaces.answersLikeApi();
}

/**
 * The error to report for `error`: the wrong base URL when that explains it, otherwise `error`
 * itself. Only for requests to the base URL the settings resolved (auth login checks its own).
 */
export async function diagnoseFailure(ctx: Context, error: unknown): Promise<unknown> {
  const baseUrl = ctx.knownBaseUrl();
  if (baseUrl === undefined || !wrongBaseExplains(error, baseUrl)) return error;
  const settings = await ctx.settings().catch(() => undefined);
  if (settings?.baseUrl !== baseUrl || settings.sources.baseUrl === undefined) return error;
  const failed = failedRequest(error);
  const detail = ctx.globals.verbose && failed ? ` (${failed})` : '';
  const verdict = await wrongBaseUrl(probeWith(ctx), baseUrl, originOf('baseUrl', settings)!, undefined, detail);
  return verdict ?? error;
}

/** `404 on GET /api/v2/workspaces/…`: the request that failed, for -v. */
function failedRequest(error: unknown): string | undefined {
  if (error instanceof PageFailedError) return failedRequest(error.cause);
  const status = error instanceof UnsupportedEndpointError ? error.response : error;
  if (!(status instanceof APIStatusError)) return undefined;
  try {
    return `${status.status} on ${status.method} ${new URL(status.url).pathname}`;
  } catch {
    return undefined;
  }
}
