import { z } from 'zod';
import type { Context } from '../../cli/context.js';
import type { VerbInput } from '../../cli/action.js';
import { LocalValidationError } from '../../cli/errors.js';
import { check } from '../../api/schemas/index.js';
import { parseDuration } from '../../cli/duration.js';
import { saveLocalProfile } from '../../cli/config.js';

const serveFlags = z.object({
  host: z.string().min(1),
  port: z.coerce.number().int().min(0).max(65535),
  db: z.string().min(1).optional(),
  adminToken: z.string().min(8).optional(),
  approvalDelay: z.string().transform((text, ctx) => {
    const ms = parseDuration(text);
    if (ms === undefined) ctx.addIssue({ code: 'custom', message: 'The approval delay must be a duration such as 0, 500ms, 5s or 2m.' });
    return ms ?? 0;
  }),
  providerFault: z.enum(['unavailable', 'credentials', 'timeout']).optional(),
  log: z.boolean().optional(),
  apiOnly: z.boolean().optional(),
});

export async function run(ctx: Context, { opts }: VerbInput): Promise<void> {
  const parsed = check(serveFlags, opts);
  // -w/--workspace is a global flag: serve reads it from there for the seeded workspace id.
  const workspace = ctx.globals.workspace;
  if (workspace !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(workspace)) {
    throw new LocalValidationError('invalid serve options', { workspace: ['The workspace must be a UUID.'] });
  }
  if (!parsed.ok) throw new LocalValidationError('invalid serve options', parsed.errors);
  const flags = parsed.value;
  const config = await ctx.config();
  const previousToken = config.getProfile('local')?.token;

  const { startServer } = await import('../../server/serve.js');
  const server = await startServer({
    host: flags.host,
    port: flags.port,
    db: flags.db,
    adminToken: flags.adminToken,
    workspace,
    approvalDelayMs: flags.approvalDelay,
    providerFault: flags.providerFault,
    previousToken,
    logger: flags.log,
    onWarning: (message) => ctx.output.warn(message),
    apiOnly: flags.apiOnly,
  });

  // SIGINT/SIGTERM: stop accepting, finish in-flight requests, close the database, exit 0.
  // Listened for before "Listening on" is printed: a script that stops the server as soon as it
  // reads that line would otherwise find no handler, and the signal's default kills the process.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close().then(resolve, resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

  await saveLocalProfile({ baseUrl: server.url, token: server.token, workspace: server.workspaceId }, { config });
  ctx.io.out(`Listening on ${server.url}\n`);
  ctx.io.err(`Workspace ${server.workspaceId}; profile "local" saved${server.newToken ? `; admin token: ${server.token}` : ''}\n`);
  if (flags.apiOnly) ctx.io.err('Published API only: every extension answers 404\n');
  await stopped;
}
