// `wsm serve`: declarations only; the server (fastify, SQLite) loads only when this verb runs.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { lazy, withExamples } from '../cli/action.js';

export function registerServe(program: Command): void {
  withExamples(
    program
      .command('serve')
      .description(SUMMARIES.serve)
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option('--port <port>', 'port to listen on (0 picks a free one)', '8080')
      .option('--db <file>', 'SQLite file, or :memory: (default: wsm.db in your data directory); a file that is not a usable wsm database is refused, left untouched (exit 1)')
      .option('--admin-token <token>', 'bearer token for the seeded owner (default: reuse the local profile or mint one)')
      .option('--approval-delay <duration>', 'how long the simulated provider takes to review a template', '5s')
      .option('--provider-fault <kind>', 'make the simulated provider fail: unavailable | credentials | timeout')
      .option('--log', 'log every request to stderr')
      .option('--api-only', "only the published API: every extension answers 404 as on a server without it, to check that scripts need nothing more")
      // Lines under 60 columns: commander does not wrap this text, and help must fit a 60-column terminal.
      .addHelpText('after', '\nThe global --profile <name> names the profile saved for\nthis server (default: local); -w <uuid> is the id of the\nworkspace seeded in an empty database.')
      .action(lazy(() => import('./serve/run.js'))),
    [
      'wsm serve',
      'wsm serve --port 9090 -w 0b8e4c52-6f0e-4c4e-9a51-3a2f4f1d9c11 --db ./dev.db --approval-delay 0',
      'wsm serve --db :memory: --provider-fault unavailable',
      'wsm serve --api-only --db ./check.db --port 9090 --profile check    # beside another wsm serve: its own profile',
    ],
  );
}
