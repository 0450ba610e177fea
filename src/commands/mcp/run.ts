// `wsm mcp [--read-only] [--tools …] [--toolsets …] [--list-tools] [--http [--host h] [--port n] [--auth-token t]]`:
// an MCP server on stdio (or Streamable HTTP) whose
// tools are the API's operations and the CLI's workflows (src/mcp). Nothing is asked of the
// server at start: the first tool call resolves the settings, as any command does. As a verb:
// parse selects the tools, run serves them until the session ends (or, --list-tools, returns
// them as rows for render); `live` says where the HTTP server listens once it does.
import { UsageError } from '../../cli/errors.js';
import { listenAddress } from '../../cli/values.js';
import type { Column } from '../../cli/columns.js';
import type { Context } from '../../cli/context.js';
import type { HttpOptions, McpListening } from '../../mcp/http.js';
import type { CommandLine, FlagOptions } from '../declare.js';
import type { ToolSpec } from '../../mcp/tool.js';
import type { MCP_FLAGS } from '../mcp.js';

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

export interface McpOptions {
  /** The tools the selection flags leave. */
  tools: ToolSpec[];
  /** --http, with its address and token; stdio otherwise. */
  http?: HttpOptions;
  listTools: boolean;
}

/** --list-tools: the selection as rows; otherwise the transport that served until the session ended. */
export type McpResult = { listed: ToolRow[] } | { served: 'stdio' | 'http' };

/** What a person sees once the HTTP server listens, while run goes on serving. */
export interface McpLive {
  listening(address: McpListening): void;
}

export async function parse({ opts }: CommandLine<typeof MCP_FLAGS>): Promise<McpOptions> {
  const [{ allTools }, { selectTools, splitList }] = await Promise.all([import('../../mcp/catalog.js'), import('../../mcp/selection.js')]);
  const { tools, toolsets } = opts;
  const selected = selectTools(await allTools(), {
    readOnly: opts.readOnly === true,
    ...(tools !== undefined ? { tools: splitList(tools, '--tools') } : {}),
    ...(toolsets !== undefined ? { toolsets: splitList(toolsets, '--toolsets') } : {}),
  });
  const http = httpOptions(opts);
  return { tools: selected, ...(http !== undefined ? { http } : {}), listTools: opts.listTools === true };
}

export async function run(ctx: Context, { tools, http, listTools }: McpOptions, live?: McpLive): Promise<McpResult> {
  if (listTools) return { listed: tools.map(rowOf) };
  if (http !== undefined) {
    const { serveMcpHttp } = await import('../../mcp/http.js');
    await serveMcpHttp(ctx, tools, http, live?.listening);
    return { served: 'http' };
  }
  const { serveMcp } = await import('../../mcp/server.js');
  await serveMcp(ctx, tools);
  return { served: 'stdio' };
}

/** "Listening on" on stdout (scripts wait for it), then the token clients send. */
export function live(ctx: Context): McpLive {
  return {
    listening({ url, tokenRequired, generatedToken }) {
      ctx.output.text(`Listening on ${url}\n`);
      if (generatedToken !== undefined)
        ctx.io.err(`Bearer token (generated; clients send "Authorization: Bearer <token>"): ${generatedToken}\n`);
      else if (tokenRequired) ctx.io.err('Clients send the --auth-token given as "Authorization: Bearer <token>"\n');
    },
  };
}

/** The tools --list-tools selected; after a session, nothing more to say. */
export async function render(ctx: Context, result: McpResult): Promise<void> {
  if ('listed' in result) await ctx.output.list(result.listed, { columns });
}

const DEFAULT_PORT = 8765;

/** `--http` with its address and token; those flags without `--http` are a usage error. */
function httpOptions(opts: FlagOptions<typeof MCP_FLAGS>): HttpOptions | undefined {
  if (opts.http !== true) {
    const stray = (['host', 'port', 'authToken'] as const).find((flag) => opts[flag] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${stray === 'authToken' ? 'auth-token' : stray} goes with --http`);
    return undefined;
  }
  const address = listenAddress(opts.port ?? String(DEFAULT_PORT), opts.host ?? '127.0.0.1');
  if (opts.authToken !== undefined && opts.authToken.length < 16) throw new UsageError('--auth-token must be at least 16 characters long');
  return { ...address, ...(opts.authToken !== undefined ? { authToken: opts.authToken } : {}) };
}
