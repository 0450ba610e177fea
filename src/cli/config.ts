// Profiles in a `conf` JSON file. The file holds tokens, so it is created 0600 and tightened back
// to 0600 whenever it is found looser (an editor or a copy may have widened it).
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import type Conf from 'conf';

export interface Profile {
  base_url?: string;
  token?: string;
  workspace?: string;
}

export interface ConfigFile {
  current?: string;
  profiles: Record<string, Profile>;
}

export interface ProfileEntry {
  name: string;
  current: boolean;
  profile: Profile;
}

export interface ConfigStore {
  /** Absolute path of the JSON file. */
  readonly path: string;
  currentName(): string | undefined;
  getProfile(name: string): Profile | undefined;
  /** Merges `patch` into the profile (creating it); a key set to undefined is removed. */
  setProfile(name: string, patch: Partial<Record<keyof Profile, string | undefined>>): Profile;
  deleteProfile(name: string): boolean;
  /** Makes `name` current; returns false when there is no such profile. */
  useProfile(name: string): boolean;
  listProfiles(): ProfileEntry[];
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/** Where the file lives: an explicit directory, else WSM_CONFIG_DIR, else the user config dir. */
export async function openConfig(options: { dir?: string; env?: Record<string, string | undefined> } = {}): Promise<ConfigStore> {
  // conf pulls in ajv and friends: loaded only by commands that need profiles.
  const { default: ConfClass } = await import('conf');
  const dir = options.dir ?? nonEmpty(options.env?.WSM_CONFIG_DIR);
  if (dir !== undefined) mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  const conf: Conf<ConfigFile> = new ConfClass<ConfigFile>({
    ...(dir !== undefined ? { cwd: dir } : { projectName: 'wsm', projectSuffix: '' }),
    configName: 'config',
    configFileMode: FILE_MODE,
    defaults: { profiles: {} },
    // Profile names may contain dots ("eu.prod"): keys are never paths.
    accessPropertiesByDotNotation: false,
    // A hand-edited file with a typo must not silently lose every token.
    clearInvalidConfig: false,
  });
  repairMode(conf.path);
  return new ConfStore(conf);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function repairMode(path: string): void {
  try {
    const { mode } = statSync(path);
    if ((mode & 0o777) !== FILE_MODE) chmodSync(path, FILE_MODE);
  } catch (err) {
    // Not written yet (conf writes defaults lazily on some platforms): nothing to repair.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

class ConfStore implements ConfigStore {
  constructor(private readonly conf: Conf<ConfigFile>) {}

  get path(): string {
    return this.conf.path;
  }

  private profiles(): Record<string, Profile> {
    return { ...(this.conf.get('profiles') ?? {}) };
  }

  private write(mutate: (file: ConfigFile) => void): void {
    const file: ConfigFile = { ...this.conf.store, profiles: this.profiles() };
    mutate(file);
    this.conf.store = file;
    repairMode(this.conf.path);
  }

  currentName(): string | undefined {
    return this.conf.get('current');
  }

  getProfile(name: string): Profile | undefined {
    const profile = this.profiles()[name];
    return profile === undefined ? undefined : { ...profile };
  }

  setProfile(name: string, patch: Partial<Record<keyof Profile, string | undefined>>): Profile {
    let result: Profile = {};
    this.write((file) => {
      const next: Profile = { ...file.profiles[name] };
      for (const [key, value] of Object.entries(patch) as [keyof Profile, string | undefined][]) {
        if (value === undefined) delete next[key];
        else next[key] = value;
      }
      file.profiles[name] = next;
      result = { ...next };
    });
    return result;
  }

  deleteProfile(name: string): boolean {
    if (this.getProfile(name) === undefined) return false;
    this.write((file) => {
      delete file.profiles[name];
      if (file.current === name) delete file.current;
    });
    return true;
  }

  useProfile(name: string): boolean {
    if (this.getProfile(name) === undefined) return false;
    this.write((file) => {
      file.current = name;
    });
    return true;
  }

  listProfiles(): ProfileEntry[] {
    const current = this.currentName();
    return Object.entries(this.profiles())
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, profile]) => ({ name, current: name === current, profile: { ...profile } }));
  }
}

/**
 * Called by `wsm serve` once it listens: saves profile `local` so the next `wsm` command works,
 * and makes it current only when no other profile is, so a real login is never displaced.
 * Pass `config` (from ctx.config()) to honour the CLI's config directory; otherwise one is opened.
 */
export async function saveLocalProfile(
  local: { baseUrl: string; token: string; workspace?: string },
  options: { config?: ConfigStore; dir?: string; env?: Record<string, string | undefined> } = { env: process.env },
): Promise<void> {
  const config = options.config ?? (await openConfig(options));
  config.setProfile('local', { base_url: local.baseUrl, token: local.token, workspace: local.workspace });
  const current = config.currentName();
  if (current === undefined || config.getProfile(current) === undefined) config.useProfile('local');
}
