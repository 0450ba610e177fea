// How many changes the journal keeps, and for how long: WSM_HISTORY_CHANGES and WSM_HISTORY_DAYS.

export interface JournalLimits {
  changes: number;
  days: number;
}

export const DEFAULT_LIMITS: JournalLimits = { changes: 200, days: 90 };

/** Upper bounds of the limits: 100 years keeps every cut-off a real date, so a limit can never empty the journal. */
const MAX_LIMITS: JournalLimits = { changes: 100_000, days: 36_500 };

/** The limits WSM_HISTORY_CHANGES and WSM_HISTORY_DAYS set; a value that is no whole number from 1 to its bound is refused. */
export function limitsFrom(env: Record<string, string | undefined>): JournalLimits | string {
  const read = (name: string, fallback: number, most: number): number | string => {
    const text = env[name]?.trim();
    if (text === undefined || text === '') return fallback;
    return /^\d+$/.test(text) && Number(text) > 0 && Number(text) <= most
      ? Number(text)
      : `${name} must be a whole number from 1 to ${most.toLocaleString('en-US')}, got "${text}"`;
  };
  const changes = read('WSM_HISTORY_CHANGES', DEFAULT_LIMITS.changes, MAX_LIMITS.changes);
  const days = read('WSM_HISTORY_DAYS', DEFAULT_LIMITS.days, MAX_LIMITS.days);
  if (typeof changes === 'string') return changes;
  if (typeof days === 'string') return days;
  return { changes, days };
}
