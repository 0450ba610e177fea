// Checks of the connection values users type (flags, prompts, `profile set`), done before any request.

import { UsageError } from './errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A sentence saying what is wrong with a base URL, or undefined when it is an http(s) URL. */
export function baseUrlProblem(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    if (url.protocol === 'http:' || url.protocol === 'https:') return undefined;
  } catch {
    // not a URL at all: same sentence
  }
  return `"${value}" is not an http(s) URL`;
}

/** Trailing slashes dropped so that paths join cleanly. */
export function normalizeBaseUrl(value: string): string {
  return value.trim().replace(/\/+$/, '');
}

/** `wsm_ab…f9`: enough to tell tokens apart, never enough to use one. Short tokens show only the end. */
export function maskToken(token: string): string {
  if (token.length < 16) return `…${token.slice(-2)}`;
  return `${token.slice(0, 6)}…${token.slice(-2)}`;
}

/**
 * An origin as a browser sends it (`http://127.0.0.1:5173`: scheme, host, port; no path), or `*`.
 * Returns the origin as compared (lower case, no default port) or undefined when it is none.
 */
export function normalizeOrigin(text: string): string | undefined {
  const value = text.trim();
  if (value === '*') return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // Anything beyond the origin (a path, a query, credentials) is no origin: refused rather than cut.
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '' || /\/\/.*\/./.test(value))
    return undefined;
  return url.origin;
}

/** `--port` and `--host` of a server this process starts, in the user's words: `--port takes a whole number from 0 to 65535, got "x"`. */
export function listenAddress(port: string, host: string): { host: string; port: number } {
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) throw new UsageError(`--port takes a whole number from 0 to 65535, got "${port}"`);
  if (host.trim() === '') throw new UsageError('--host takes an address to listen on, such as 127.0.0.1, got ""');
  return { host: host.trim(), port: Number(port) };
}
