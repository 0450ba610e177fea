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

/** A duration as a flag takes it: `30m`, `1h`, `0s`, `1.5s`: the time a wait or a retry pause is said in. */
export function durationText(ms: number): string {
  if (ms === 0) return '0s';
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${Math.round(ms) / 1000}s`;
}
