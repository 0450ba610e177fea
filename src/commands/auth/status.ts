// `wsm auth status`: which profile, server, workspace and user the next command would use.
// The token is checked (GET /me, or GET /workspaces/{workspace} where /me is missing); a rejected
// token ends in exit 3 through the shared error handler.
import { requireLogin, type Context } from '../../cli/context.js';
import type { Column } from '../../cli/columns.js';
import { maskToken } from '../../cli/values.js';
import { probeWith, wrongBaseUrl } from '../../cli/base-url-check.js';
import { describeVerified, verifyToken } from './verify.js';

export interface AuthStatus {
  profile: string;
  base_url: string;
  workspace: string | null;
  user: string;
  token: string;
  token_source: string;
}

/** The fields `--json` may select. */
export const STATUS_FIELDS: ReadonlyArray<keyof AuthStatus> = ['profile', 'base_url', 'workspace', 'user', 'token', 'token_source'];

const columns: Column<AuthStatus>[] = [
  { key: 'profile', header: 'Profile' },
  { key: 'base_url', header: 'Server' },
  { key: 'workspace', header: 'Workspace' },
  { key: 'user', header: 'User' },
  { key: 'token', header: 'Token' },
  { key: 'token_source', header: 'Token from' },
];

export function parse(): void {}

export async function run(ctx: Context): Promise<AuthStatus> {
  const settings = await ctx.settings();
  const { baseUrl, token } = requireLogin(settings);
  const origin = { source: settings.sources.baseUrl ?? 'profile', profile: settings.profileName } as const;
  const verified = await verifyToken(await ctx.client(), settings.workspace, baseUrl, () => wrongBaseUrl(probeWith(ctx), baseUrl, origin));
  return {
    profile: settings.profileName,
    base_url: baseUrl,
    workspace: settings.workspace ?? null,
    user: describeVerified(verified),
    token: maskToken(token),
    token_source: sourceLabel(settings.sources.token),
  };
}

export async function render(ctx: Context, status: AuthStatus): Promise<void> {
  await ctx.output.record(status, { columns, idKey: 'profile' });
}

function sourceLabel(source: string | undefined): string {
  if (source === 'flag') return '--token';
  if (source === 'env') return 'WSM_TOKEN';
  return 'profile';
}
