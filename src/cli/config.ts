// Profiles in one JSON file, `config.json` in the user's config directory (WSM_CONFIG_DIR
// overrides it). The file holds tokens, so:
// - it is written atomically (replace-file.ts: flushed, then renamed over) with mode 0600, and tightened
//   back to 0600 when found looser;
// - the directory is created 0700; one that others may write to is tightened when it is ours and
//   refused when it is not (another user could swap the file for a link to theirs);
// - a config file that is a symbolic link is read through but never written through: the write
//   would land wherever the link points, so wsm says so and stops instead;
// - a file that cannot be read, is empty, is not JSON or holds the wrong types stops the command
//   with a sentence naming the file and saying how to fix it.
import { chmodSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from './errors.js';
import { writeFileAtomically } from './replace-file.js';

export interface Profile {
  base_url?: string;
  token?: string;
  workspace?: string;
}

interface ConfigFile {
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
const PROFILE_KEYS: ReadonlyArray<keyof Profile> = ['base_url', 'token', 'workspace'];

type Env = Record<string, string | undefined>;

/** Where the file lives: an explicit directory, else WSM_CONFIG_DIR, else the user config dir. */
export async function openConfig(options: { dir?: string; env?: Env } = {}): Promise<ConfigStore> {
  const env = options.env ?? {};
  const dir = resolve(options.dir ?? nonEmpty(env.WSM_CONFIG_DIR) ?? defaultConfigDir(env));
  secureDirectory(dir);
  return new FileStore(join(dir, 'config.json'));
}

/** The platform's config directory for wsm: ~/.config/wsm (XDG), ~/Library/Preferences/wsm, %APPDATA%\wsm\Config. */
function defaultConfigDir(env: Env): string {
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'wsm');
  if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'wsm', 'Config');
  return join(nonEmpty(env.XDG_CONFIG_HOME) ?? join(home, '.config'), 'wsm');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

const reasonOf = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? (err as Error).message;
};

const ownedByMe = (uid: number) => typeof process.getuid !== 'function' || uid === process.getuid();

function secureDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  } catch (err) {
    throw new ConfigError(`cannot create the config directory ${dir} (${reasonOf(err)}): set WSM_CONFIG_DIR to a directory you can write`);
  }
  if (process.platform === 'win32') return;
  const info = statSync(dir);
  if ((info.mode & 0o022) === 0) return;
  if (!ownedByMe(info.uid)) {
    throw new ConfigError(
      `the config directory ${dir} can be written by other users and is not yours: refusing to keep tokens there; set WSM_CONFIG_DIR to a directory of your own`,
    );
  }
  // Ours but open to others: anyone could replace config.json. Tighten it.
  chmodSync(dir, DIR_MODE);
}

class FileStore implements ConfigStore {
  private data: ConfigFile & Record<string, unknown>;

  constructor(readonly path: string) {
    this.data = this.read();
  }

  private read(): ConfigFile & Record<string, unknown> {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
      throw new ConfigError(
        `cannot read the config file ${this.path} (${reasonOf(err)}): make it readable (chmod 600 ${this.path}) or set WSM_CONFIG_DIR to another directory`,
      );
    }
    repairMode(this.path);
    const howToFix = `fix it in an editor, or delete it and log in again (\`wsm auth login\`)`;
    if (text.trim() === '') throw new ConfigError(`the config file ${this.path} is empty: delete it and log in again (\`wsm auth login\`)`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new ConfigError(`the config file ${this.path} is not valid JSON (${(err as Error).message}): ${howToFix}`);
    }
    const problem = shapeProblem(parsed);
    if (problem) throw new ConfigError(`the config file ${this.path} is not a wsm config: ${problem}; ${howToFix}`);
    return parsed as ConfigFile & Record<string, unknown>;
  }

  private write(mutate: (file: ConfigFile) => void): void {
    // Read again: another wsm (a `wsm serve` saving its profile) may have written meanwhile.
    const next = structuredClone(this.read());
    mutate(next);
    refuseLink(this.path);
    // Atomic (a crash or a concurrent wsm never leaves half a file), and 0600 from its first byte.
    try {
      writeFileAtomically(this.path, JSON.stringify(next, null, '\t') + '\n', FILE_MODE);
    } catch (err) {
      throw new ConfigError(`cannot write the config file ${this.path} (${reasonOf(err)}): check the permissions of ${dirname(this.path)}`);
    }
    this.data = next as ConfigFile & Record<string, unknown>;
  }

  currentName(): string | undefined {
    return this.data.current;
  }

  getProfile(name: string): Profile | undefined {
    const profile = Object.hasOwn(this.data.profiles, name) ? this.data.profiles[name] : undefined;
    return profile === undefined ? undefined : { ...profile };
  }

  setProfile(name: string, patch: Partial<Record<keyof Profile, string | undefined>>): Profile {
    let result: Profile = {};
    this.write((file) => {
      const next: Profile = { ...(Object.hasOwn(file.profiles, name) ? file.profiles[name] : {}) };
      for (const [key, value] of Object.entries(patch) as [keyof Profile, string | undefined][]) {
        if (value === undefined) delete next[key];
        else next[key] = value;
      }
      // defineProperty: a profile named "__proto__" is a key like any other, not the prototype.
      Object.defineProperty(file.profiles, name, { value: next, enumerable: true, writable: true, configurable: true });
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
    return Object.entries(this.data.profiles)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, profile]) => ({ name, current: name === current, profile: { ...profile } }));
  }
}

/** What makes a parsed file unusable, in the words of its keys; undefined when it is fine. */
function shapeProblem(value: unknown): string | undefined {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value)) return 'it must hold a JSON object';
  if (value.current !== undefined && typeof value.current !== 'string') return '"current" must be a profile name (a string)';
  if (value.profiles === undefined) {
    value.profiles = {};
    return undefined;
  }
  if (!isObject(value.profiles)) return '"profiles" must be an object of profiles';
  for (const [name, profile] of Object.entries(value.profiles)) {
    if (!isObject(profile)) return `profile "${name}" must be an object`;
    for (const key of PROFILE_KEYS) {
      if (profile[key] !== undefined && typeof profile[key] !== 'string') return `"${key}" of profile "${name}" must be a string`;
    }
  }
  return undefined;
}

/** A config file that is a link: writing would change the file it points to, not this one. */
function refuseLink(path: string): void {
  let target: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return;
    target = readlinkSync(path);
  } catch {
    return; // not there yet: the write creates it
  }
  throw new ConfigError(
    `the config file ${path} is a symbolic link (to ${target}); wsm does not write through links: replace it with a regular file (cp --remove-destination "$(readlink -f ${path})" ${path}) or set WSM_CONFIG_DIR`,
  );
}

function repairMode(path: string): void {
  try {
    const info = lstatSync(path);
    if (!info.isFile() || !ownedByMe(info.uid) || process.platform === 'win32') return;
    if ((info.mode & 0o777) !== FILE_MODE) chmodSync(path, FILE_MODE);
  } catch {
    // Gone between the read and here: nothing to repair.
  }
}

/**
 * Called by `wsm serve` once it listens: saves profile `local` (or `name`: serve's --profile) so
 * the next `wsm` command works, and makes it current only when no other profile is, so a real
 * login is never displaced.
 * Pass `config` (from ctx.config()) to honour the CLI's config directory; otherwise one is opened.
 */
export async function saveLocalProfile(
  local: { baseUrl: string; token: string; workspace?: string },
  options: { config?: ConfigStore; dir?: string; env?: Env; name?: string } = { env: process.env },
): Promise<void> {
  const config = options.config ?? (await openConfig(options));
  const name = options.name ?? 'local';
  config.setProfile(name, { base_url: local.baseUrl, token: local.token, workspace: local.workspace });
  const current = config.currentName();
  if (current === undefined || config.getProfile(current) === undefined) config.useProfile(name);
}
