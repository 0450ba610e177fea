// How values read for people on a terminal: times relative to now, statuses with a tone that
// colour can show. With -o (json, ndjson, csv) or when piped, values stay exactly as the API sent them.

const UNITS: Array<[name: string, seconds: number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** `3 minutes ago`, `in 2 days`, `just now`; the text itself when it is not a timestamp. */
export function relativeTime(value: string, now: Date): string {
  const at = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(at)) return value;
  const seconds = Math.round((now.getTime() - at) / 1000);
  const distance = Math.abs(seconds);
  if (distance < 10) return 'just now';
  const [unit, size] = UNITS.find(([, s]) => distance >= s) ?? UNITS[UNITS.length - 1];
  const count = Math.floor(distance / size);
  const text = `${count} ${unit}${count === 1 ? '' : 's'}`;
  return seconds >= 0 ? `${text} ago` : `in ${text}`;
}

/** Whether a column holds timestamps: by name (`created_at`, `finished_at`, ...). */
export function isTimeKey(key: string): boolean {
  return /(^|_)at$/.test(key);
}

export type Tone = 'good' | 'bad' | 'waiting';

const TONES: Record<string, Tone> = {
  approved: 'good',
  completed: 'good',
  active: 'good',
  true: 'good',
  rejected: 'bad',
  failed: 'bad',
  disabled: 'bad',
  paused: 'bad',
  false: 'bad',
  pending: 'waiting',
  processing: 'waiting',
  in_appeal: 'waiting',
};

/** The tone of a status value (`APPROVED`, `failed`, `true`), or undefined for anything else. */
export function toneOf(value: unknown): Tone | undefined {
  if (typeof value !== 'string' && typeof value !== 'boolean') return undefined;
  return TONES[String(value).toLowerCase()];
}

/** Whether a column holds a status: by name. */
export function isStatusKey(key: string): boolean {
  return key === 'status' || key.endsWith('.status');
}
