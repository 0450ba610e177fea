// `wsm mcp [--read-only] [--tools …] [--toolsets …] [--list-tools] [--http [--host h] [--port n] [--auth-token t]]`:
// an MCP server on stdio (or Streamable HTTP) whose
// tools are the API's operations and the CLI's workflows (src/mcp). Nothing is asked of the
// server at start: the first tool call resolves the settings, as any command does.
import { UsageError } from '../../cli/errors.js';
import type { Column } from '../../cli/columns.js';
import type { HttpOptions } from '../../mcp/http.js';
import type { OptionsOf } from '../declare.js';
import type { ToolSpec } from '../../mcp/tool.js';
import type { mcp } from '../mcp.js';
import { typedRun, type VerbRun } from '../shared/verb.js';

interface ToolRow {
  name: string;
  toolset: string;
  access: string;
  confirm: boolean;
  published: boolean;
  title: string;
}

const columns: Column<ToolRow>[] = [
  { key: 'name', header: 'TOOL' },
  { key: 'access', header: 'ACCESS' },
  { key: 'confirm', header: 'CONFIRM', get: (row) => (row.confirm ? 'yes' : 'no') },
  { key: 'published', header: 'SERVER', get: (row) => (row.published ? 'any' : 'wsm serve') },
  { key: 'title', header: 'DESCRIPTION' },
];

function rowOf(tool: ToolSpec): ToolRow {
  const access = tool.hints.readOnly ? 'read' : tool.hints.destructive ? 'write, destructive' : 'write';
  return {
    name: tool.name,
    toolset: tool.toolset,
    access,
    confirm: tool.confirm !== undefined,
    published: tool.published,
    title: tool.title,
  };
}

export const run: VerbRun = typedRun<typeof mcp>(async (ctx, { opts }) => {
  const [{ allTools }, { selectTools, splitList }] = await Promise.all([import('../../mcp/catalog.js'), import('../../mcp/selection.js')]);
  const { tools, toolsets } = opts;
  const selected = selectTools(await allTools(), {
    readOnly: opts.readOnly === true,
    ...(tools !== undefined ? { tools: splitList(tools, '--tools') } : {}),
    ...(toolsets !== undefined ? { toolsets: splitList(toolsets, '--toolsets') } : {}),
  });
  const http = httpOptions(opts);
  if (opts.listTools === true) {
    await ctx.output.list(selected.map(rowOf), { columns });
    return;
  }
  if (http !== undefined) {
    const { serveMcpHttp } = await import('../../mcp/http.js');
    await serveMcpHttp(ctx, selected, http);
    return;
  }
  const { serveMcp } = await import('../../mcp/server.js');
  await serveMcp(ctx, selected);
});

const DEFAULT_PORT = 8765;

/** `--http` with its address and token; those flags without `--http` are a usage error. */
function httpOptions(opts: OptionsOf<typeof mcp>): HttpOptions | undefined {
  if (opts.http !== true) {
    const stray = (['host', 'port', 'authToken'] as const).find((flag) => opts[flag] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray === 'authToken' ? 'auth-token' : stray} goes with --http`);
    return undefined;
  }
  const port = opts.port ?? String(DEFAULT_PORT);
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) throw new UsageError(`--port takes a whole number from 0 to 65535, got "${port}"`);
  const host = (opts.host ?? '127.0.0.1').trim();
  if (host === '') throw new UsageError('--host takes an address to listen on, such as 127.0.0.1, got ""');
  if (opts.authToken !== undefined && opts.authToken.length < 16) throw new UsageError('--auth-token must be at least 16 characters long');
  return { host, port: Number(port), ...(opts.authToken !== undefined ? { authToken: opts.authToken } : {}) };
}
