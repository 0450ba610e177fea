// How a saved profile looks in every `wsm profile` verb: token masked, missing values null.
import type { ProfileEntry } from '../../cli/config.js';
import type { Column } from '../../cli/columns.js';
import { maskToken } from '../../cli/values.js';

export interface ProfileRecord {
  name: string;
  current: boolean;
  base_url: string | null;
  workspace: string | null;
  token: string | null;
}

export function profileRecord(entry: ProfileEntry): ProfileRecord {
  const { profile } = entry;
  return {
    name: entry.name,
    current: entry.current,
    base_url: profile.base_url ?? null,
    workspace: profile.workspace ?? null,
    token: profile.token === undefined ? null : maskToken(profile.token),
  };
}

export const profileColumns: Column<ProfileRecord>[] = [
  { key: 'current', header: ' ', get: (p) => (p.current ? '*' : '') },
  { key: 'name', header: 'NAME' },
  { key: 'base_url', header: 'BASE URL' },
  { key: 'workspace', header: 'WORKSPACE' },
  { key: 'token', header: 'TOKEN' },
];
