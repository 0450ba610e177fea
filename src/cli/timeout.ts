// What `--timeout` means, settled here alone. It is the time one request may take (the global
// flag, or WSM_TIMEOUT; 30s by default), except on a verb that waits (`templates sync --wait`, an
// import's `--wait`): such a verb declares a `--timeout` of its own, how long the whole wait may
// last (30m by default), and there WSM_TIMEOUT alone sets the request limit.
import type { Command, Option } from 'commander';
import { badDuration, parseDuration } from './duration.js';

/** The default time one request may take. */
const DEFAULT_TIMEOUT_MS = 30_000;
/** The default time a wait may take: WAIT_TIMEOUT_FLAG (commands/declare.ts) declares it. */
export const DEFAULT_WAIT_TIMEOUT = '30m';

/**
 * The program's `--timeout` gives way where `verb` has one of its own: commander would otherwise
 * hand the verb's flag to the program.
 */
export function yieldGlobalTimeout(program: Command, verb: Command | undefined): void {
  if (!verb?.options.some((o) => o.long === '--timeout')) return;
  const index = program.options.findIndex((o) => o.long === '--timeout');
  // commander types the list readonly; removing the declaration is what makes the flag the verb's.
  if (index >= 0) (program.options as Option[]).splice(index, 1);
}

/** One request's limit: the global `--timeout` beats WSM_TIMEOUT; a value that is not a duration is a usage error naming its source. */
export function requestTimeoutMs(globalTimeout: string | undefined, env: Record<string, string | undefined>): number {
  const [text, source] = globalTimeout !== undefined ? [globalTimeout, '--timeout'] : [env.WSM_TIMEOUT, 'WSM_TIMEOUT'];
  if (text === undefined || text.trim() === '') return DEFAULT_TIMEOUT_MS;
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0) throw badDuration(source, text);
  return ms;
}

/** A waiting verb's own `--timeout`: how long the wait may last. */
export function waitTimeoutMs(value: unknown): number {
  const text = value ?? DEFAULT_WAIT_TIMEOUT;
  const ms = typeof text === 'string' ? parseDuration(text) : undefined;
  if (ms === undefined) throw badDuration('--timeout', text);
  return ms;
}
