// Where a connection setting came from, said the same way in every error about it: a token the
// server rejects, a base URL that is no http(s) URL or does not answer like the API, a workspace
// that is no UUID or not yours. A setting from WSM_TOKEN is fixed in the environment, not by
// `wsm auth login`, so every such error names the flag, the variable or the profile (and its file).
import type { SettingSource } from './context.js';

export type SettingName = 'token' | 'baseUrl' | 'workspace';

/** Where one setting came from: a flag, a variable, a profile (in its config file), or typed at a prompt. */
export interface SettingOrigin {
  source: SettingSource | 'typed';
  profile?: string;
  /** The config file holding the profile. */
  configPath?: string;
}

/** Every setting's origin, as Settings resolved them. */
export interface SettingOrigins {
  sources: Partial<Record<SettingName, SettingSource>>;
  profileName: string;
  configPath?: string;
  /** The workspace in use: a workspace named otherwise (an argument) has no source to name. */
  workspace?: string;
}

const FLAGS: Record<SettingName, string> = { token: '--token', baseUrl: '--base-url', workspace: '-w' };
const VARIABLES: Record<SettingName, string> = { token: 'WSM_TOKEN', baseUrl: 'WSM_BASE_URL', workspace: 'WSM_WORKSPACE' };
const PROFILE_KEYS: Record<SettingName, string> = { token: 'token', baseUrl: 'base-url', workspace: 'workspace' };

/** The origin of `name` in resolved settings; undefined when it was not set. */
export function originOf(name: SettingName, origins: SettingOrigins | undefined): SettingOrigin | undefined {
  const source = origins?.sources[name];
  if (source === undefined) return undefined;
  return { source, profile: origins!.profileName, configPath: origins!.configPath };
}

/** `--token`, `WSM_TOKEN`, `profile "local" in /home/ann/.config/wsm/config.json`; undefined when typed. */
export function sourceName(name: SettingName, origin: SettingOrigin): string | undefined {
  if (origin.source === 'flag') return FLAGS[name];
  if (origin.source === 'env') return VARIABLES[name];
  if (origin.source === 'profile') return `profile "${origin.profile ?? 'default'}"${origin.configPath ? ` in ${origin.configPath}` : ''}`;
  return undefined;
}

/** ` (from WSM_TOKEN)`, or nothing when the origin is unknown or typed. */
export function fromSource(name: SettingName, origin: SettingOrigin | undefined): string {
  const named = origin && sourceName(name, origin);
  return named ? ` (from ${named})` : '';
}

/** How to give the setting another value where it came from: `set WSM_TOKEN=<token>`, ``run `wsm auth login` ``. */
export function changeWhere(name: SettingName, origin: SettingOrigin, value = placeholder(name)): string {
  if (origin.source === 'flag') return `pass ${FLAGS[name]} ${value}`;
  if (origin.source === 'env') return `set ${VARIABLES[name]}=${value}`;
  if (name === 'token') return 'run `wsm auth login`';
  return `run \`wsm profile set ${PROFILE_KEYS[name]} ${value}\``;
}

function placeholder(name: SettingName): string {
  return name === 'baseUrl' ? '<url>' : name === 'token' ? '<token>' : '<uuid>';
}
