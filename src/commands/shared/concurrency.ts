// How many requests a full walk or a bulk verb keeps in flight: --concurrency, else
// WSM_CONCURRENCY, else the page engine's default (6).
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../../api/page-engine.js';
import type { Context } from '../../cli/context.js';
import { badValue } from './verb.js';

export function concurrencyOf(ctx: Context, opts: Record<string, unknown>): number {
  const given = opts.concurrency ?? ctx.env.WSM_CONCURRENCY;
  if (given === undefined || given === '') return DEFAULT_CONCURRENCY;
  const text = String(given).trim();
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= MAX_CONCURRENCY)) {
    const source = opts.concurrency !== undefined ? '--concurrency' : 'WSM_CONCURRENCY';
    throw badValue(source, `a whole number from 1 to ${MAX_CONCURRENCY}`, text);
  }
  return value;
}
