// `wsm serve`: declarations only; the server (fastify, SQLite) loads only when this verb runs.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, verbSpec } from './declare.js';

export const SERVE_FLAGS = {
  host: { flags: '--host <host>', description: 'address to listen on', default: '127.0.0.1' },
  port: { flags: '--port <port>', description: 'port to listen on (0 picks a free one)', default: '8080' },
  db: {
    flags: '--db <file>',
    description:
      'SQLite file, or :memory: (default: wsm.db in your data directory); a file that is not a usable wsm database is refused, left untouched (exit 1)',
  },
  adminToken: {
    flags: '--admin-token <token>',
    description: 'bearer token for the seeded owner (default: reuse the local profile or mint one)',
  },
  approvalDelay: {
    flags: '--approval-delay <duration>',
    description: 'how long the simulated provider takes to review a template',
    default: '5s',
  },
  providerFault: {
    flags: '--provider-fault <kind>',
    description: 'make the simulated provider fail: unavailable | credentials | timeout',
  },
  log: { flags: '--log', description: 'log every request to stderr' },
  cors: {
    flags: '--cors <origin>',
    description:
      'let pages from this origin call the API (CORS), e.g. http://localhost:5173; repeat for more (WSM_CORS: comma-separated); * allows any, with a warning',
    repeatable: true,
  },
  apiOnly: {
    flags: '--api-only',
    description: 'only the published API: every extension answers 404 as on a server without it, to check that scripts need nothing more',
  },
} as const;

export const serve = verbSpec({
  name: 'serve',
  description: SUMMARIES.serve,
  flags: SERVE_FLAGS,
  // Lines under 60 columns: commander does not wrap this text, and help must fit a 60-column terminal.
  configure: (c) =>
    c.addHelpText(
      'after',
      '\nThe global --profile <name> names the profile saved for\nthis server (default: local), made current if none is\n(else `wsm profile use <name>`); with --db :memory:,\nnone is saved unless --profile names one. -w <uuid> is\nthe id of the workspace seeded in an empty database.',
    ),
  examples: [
    'wsm serve',
    'wsm serve --port 9090 -w 0b8e4c52-6f0e-4c4e-9a51-3a2f4f1d9c11 --db ./dev.db --approval-delay 0',
    'wsm serve --db :memory: --provider-fault unavailable',
    'wsm serve --cors http://localhost:5173    # a browser app served from localhost:5173 may call the API',
    'wsm serve --api-only --db ./check.db --port 9090 --profile check    # beside another wsm serve: its own profile',
  ],
  load: () => import('./serve/run.js'),
});

export function registerServe(program: Command): void {
  addVerb(program, serve);
}
