// `wsm auth`: declarations only; each verb lives in ./auth/<verb>.ts and loads when run.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, verbSpec } from './declare.js';

export const LOGIN_FLAGS = {
  withToken: { flags: '--with-token', description: 'read the token from standard input' },
  email: {
    flags: '--email <address>',
    description: 'log in as this user with a password instead of a token (needs a server offering POST /auth/tokens, such as wsm serve)',
  },
  passwordStdin: {
    flags: '--password-stdin',
    description: 'with --email: read the password from standard input (otherwise asked on a terminal)',
  },
} as const;

export const login = verbSpec({
  name: 'login',
  description: 'save a base URL and token in a profile (asks on a terminal), after checking them with the server',
  flags: LOGIN_FLAGS,
  examples: [
    'wsm auth login',
    'wsm auth login --base-url https://api.example.com/api/v3 --with-token < token.txt',
    'echo "$WSM_TOKEN" | wsm auth login --profile staging --base-url http://127.0.0.1:8080/api/v3 --with-token -w <uuid>',
    'wsm auth login --base-url http://127.0.0.1:8080/api/v3 --email dee@example.com          # asks for the password',
  ],
  load: () => import('./auth/login.js'),
});

export const status = verbSpec({
  name: 'status',
  description: 'show the profile, server, workspace and user in use (token masked)',
  examples: ['wsm auth status', 'wsm auth status --profile staging -o json', 'wsm auth status --jq .workspace'],
  load: () => import('./auth/status.js'),
  // Like every get: --json <fields> and --jq, over the fields the status has.
  selection: { fields: async () => (await import('./auth/status.js')).STATUS_FIELDS },
});

export const LOGOUT_FLAGS = {
  revoke: {
    flags: '--revoke',
    description: 'also revoke the token on the server: every profile, machine or job holding it is refused from then on',
  },
} as const;

export const logout = verbSpec({
  name: 'logout',
  description: "forget the profile's token (base URL and workspace are kept); --revoke also revokes it on the server",
  flags: LOGOUT_FLAGS,
  examples: ['wsm auth logout', 'wsm auth logout --profile staging --revoke'],
  load: () => import('./auth/logout.js'),
});

export const token = verbSpec({
  name: 'token',
  description: 'print the token in use (of --profile, or WSM_TOKEN when set), for scripts',
  examples: ['wsm auth token --profile local', 'curl -H "Authorization: Bearer $(wsm auth token)" http://127.0.0.1:8080/api/v3/me'],
  load: () => import('./auth/token.js'),
});

export function registerAuth(program: Command): void {
  const auth = program.command('auth').description(SUMMARIES.auth);
  addVerb(auth, login);
  addVerb(auth, status);
  addVerb(auth, logout);
  addVerb(auth, token);
}
