import { UsageError } from './errors.js';

/** Durations as people type them: `500ms`, `5s`, `30m`, `1h`, or a bare number of seconds. */
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!match) return undefined;
  return Math.round(Number(match[1]) * UNITS[match[2] ?? 's']);
}

/** One wording for every duration flag and variable: `--timeout takes a duration such as 10s, 2m or 500ms, got "abc"`. */
export function badDuration(source: string, value: unknown): UsageError {
  return new UsageError(`${source} takes a duration such as 10s, 2m or 500ms, got "${String(value)}"`);
}
