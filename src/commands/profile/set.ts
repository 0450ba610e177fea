// `wsm profile set <key> <value>`: edit the profile in use (created when missing).
import type { Context } from '../../cli/context.js';
import type { Profile } from '../../cli/config.js';
import { UsageError } from '../../cli/errors.js';
import { baseUrlProblem, isUuid, normalizeBaseUrl } from '../../cli/values.js';
import type { CommandLine } from '../declare.js';

/** CLI key -> field in the file, with the check that keeps a bad value out of the file. */
const KEYS: Record<string, { field: keyof Profile; check: (value: string) => string | undefined; normalize?: (v: string) => string }> = {
  'base-url': { field: 'base_url', check: baseUrlProblem, normalize: normalizeBaseUrl },
  workspace: { field: 'workspace', check: (v) => (isUuid(v) ? undefined : `workspace "${v}" is not a UUID`) },
  token: { field: 'token', check: (v) => (v.trim() === '' ? 'the token is empty' : undefined), normalize: (v) => v.trim() },
};

export interface ProfileSetting {
  /** As typed: `base-url`, `workspace`, `token`. */
  key: string;
  field: keyof Profile;
  /** Checked, and normalised as the file keeps it. */
  value: string;
}

export function parse({ args }: CommandLine): ProfileSetting {
  const [key, value] = args;
  const spec = KEYS[key];
  if (spec === undefined) throw new UsageError(`unknown key "${key}": use one of ${Object.keys(KEYS).join(', ')}`);
  const problem = spec.check(value);
  if (problem) throw new UsageError(problem);
  return { key, field: spec.field, value: spec.normalize ? spec.normalize(value) : value };
}

/** Sets the value in the profile in use; returns that profile's name. */
export async function run(ctx: Context, { key, field, value }: ProfileSetting): Promise<string> {
  if (key === 'token') {
    ctx.output.warn('a token on the command line lands in shell history; prefer `wsm auth login --with-token`');
  }
  const config = await ctx.config();
  const profileName = await ctx.profileName();
  config.setProfile(profileName, { [field]: value });
  // A first profile becomes current, so the next command finds it.
  const current = config.currentName();
  if (current === undefined || config.getProfile(current) === undefined) config.useProfile(profileName);
  return profileName;
}

export function render(ctx: Context, profileName: string, { key }: ProfileSetting): void {
  ctx.output.done(`set ${key} in profile "${profileName}"`);
}
