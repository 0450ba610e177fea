// `wsm mcp`'s server: the MCP SDK (loaded only here) on stdio (or HTTP: http.ts), the selected tools
// (listed by listing.ts from their zod schemas, their arguments checked here), and two resources (the workspace file and
// the OpenAPI document). Each call gets a world of its own (call.ts); a failure becomes a tool
// error in the CLI's words (errors.ts). Stdout carries the protocol alone: it is written through
// ctx.io, and everything the CLI code prints goes to the call's memory instead.
import { Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { extension } from '../api/resources/base.js';
import { sentence } from '../api/schemas/validation.js';
import type { Context } from '../cli/context.js';
import { ExitCode } from '../cli/errors.js';
import { didYouMean } from '../cli/similar.js';
import { packageVersion } from '../cli/version.js';
import * as z from 'zod';
import { toolListing } from './listing.js';
import { INSTRUCTIONS } from './texts.js';
import { callWorld, type ProgressSink } from './call.js';
import { exitNote, refusal, toolError } from './errors.js';
import type { ToolSpec } from './tool.js';
import { pulledText } from './workspace-file-tools.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const ANY_ARGUMENTS = z.looseObject({});

/** At most this long between two progress notifications of a long call. */
const KEEP_ALIVE_MS = 5_000;

/**
 * A long call's progress notifications: each poll's, and between them one every KEEP_ALIVE_MS
 * saying it still waits, so that a client resetting its time-out on progress never loses the call.
 * MCP wants each value above the one before: a poll that counted nothing new moves it by 0.001.
 */
function progressSink(extra: Extra): { sink: ProgressSink; stop(): void } | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  const started = Date.now();
  let last = -1;
  let total: number | undefined;
  let said = 'started';
  let sentAt = 0;
  const send = (progress: number, message: string) => {
    last = Math.round(Math.max(progress, last + 0.001, 0) * 1000) / 1000;
    sentAt = Date.now();
    const params = { progressToken: token, progress: last, ...(total !== undefined && total >= last ? { total } : {}), message };
    void extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
  };
  const timer = setInterval(() => {
    // Checked five times per period: the gap stays under KEEP_ALIVE_MS even when a tick is late.
    if (Date.now() - sentAt >= KEEP_ALIVE_MS - KEEP_ALIVE_MS / 5)
      send(last, `${said} (still working, ${Math.round((Date.now() - started) / 1000)} s)`);
  }, KEEP_ALIVE_MS / 5);
  timer.unref();
  return {
    sink(progress, newTotal, message) {
      total = newTotal;
      said = message;
      send(progress, message);
    },
    stop: () => clearInterval(timer),
  };
}

/** The argument names a schema knows at `path` (an object's keys, under optional, nullable, default and array). */
function knownAt(schema: z.ZodType | undefined, path: readonly PropertyKey[]): string[] {
  let inner = schema;
  for (const key of [...path, undefined]) {
    while (inner !== undefined && ['optional', 'nullable', 'default', 'array'].includes(inner.def.type))
      inner =
        (inner.def as unknown as { innerType?: z.ZodType; element?: z.ZodType }).innerType ??
        (inner.def as { element?: z.ZodType }).element;
    const shape = (inner as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
    if (key === undefined) return Object.keys(shape ?? {});
    inner = typeof key === 'string' ? shape?.[key] : inner;
  }
  return [];
}

/** Arguments the tool's schema refuses: exit 2 like any bad input, each argument at fault named. */
function invalidArguments(tool: ToolSpec, issues: readonly z.core.$ZodIssue[], given: Record<string, unknown>): CallToolResult {
  const at = (path: readonly PropertyKey[]) => (path.length > 0 ? path.join('.') : '(arguments)');
  // In the API's words, as its 422 says them: a blank or invisible name is "The name field is required.".
  // An unknown argument gets the closest known one, as the CLI's unknown flag does.
  const lines = issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map(
          (key) =>
            `  ${at([...issue.path, key])}: "${key}" is not an argument of ${tool.name}${didYouMean(key, knownAt(tool.input, issue.path))}.`,
        )
      : [`  ${at(issue.path)}: ${sentence(issue, given)}`],
  );
  return refusal(`error: invalid arguments for ${tool.name}:\n${lines.join('\n')}\n${exitNote(ExitCode.usage)}`);
}

async function callTool(ctx: Context, tool: ToolSpec, given: Record<string, unknown>, extra: Extra): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(given);
  if (!parsed.success) return invalidArguments(tool, parsed.error.issues, given);
  const args = parsed.data as Record<string, unknown>;
  const stdin = tool.stdinArgument === undefined ? undefined : args[tool.stdinArgument];
  const progress = tool.long ? progressSink(extra) : undefined;
  const { call } = callWorld(ctx, extra.signal, progress?.sink, typeof stdin === 'string' ? stdin : undefined);
  try {
    const unconfirmed = tool.confirm && args.confirm !== true ? await tool.confirm(args, call) : undefined;
    if (unconfirmed !== undefined) return refusal(`${unconfirmed}: call again with "confirm": true to do it; nothing was done`);
    const ran = await tool.run(args, call);
    const value = tool.output === undefined ? ran : tool.output.parse(ran);
    return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
  } catch (error) {
    return toolError(error, ctx, call.messages());
  } finally {
    progress?.stop();
  }
}

/** A resource read that failed: the CLI's sentence as the JSON-RPC error's message. */
async function readOrExplain<T>(ctx: Context, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const text = toolError(error, ctx)
      .content.map((part) => (part.type === 'text' ? part.text : ''))
      .join('\n');
    throw new Error(text);
  }
}

/**
 * One MCP server with the tools and resources (a session's: stdio has one, HTTP one per session).
 * Each call in flight is in `running` until answered, so closing can wait for them.
 */
export async function buildMcpServer(ctx: Context, tools: readonly ToolSpec[], running: Set<Promise<unknown>>): Promise<McpServer> {
  const [{ McpServer }, { ListToolsRequestSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const server = new McpServer(
    { name: 'wsm', title: 'wsm: Workspace Messaging administration', version: packageVersion() },
    { instructions: INSTRUCTIONS },
  );
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      // The arguments are checked in callTool (an error with its exit code) and listed by
      // toolListing: the SDK sees any object.
      { title: tool.title, description: tool.description, inputSchema: ANY_ARGUMENTS },
      (args: Record<string, unknown>, extra: Extra) => {
        const result = callTool(ctx, tool, args, extra);
        running.add(result);
        void result.finally(() => running.delete(result));
        return result;
      },
    );
  }
  const listing = toolListing(tools);
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  server.registerResource(
    'workspace-file',
    'wsm://workspace-file',
    {
      title: 'Workspace file',
      description: 'The workspace as `wsm pull` prints it (YAML): fields, groups, labels, roles, templates.',
      mimeType: 'application/yaml',
    },
    async (uri, extra) =>
      readOrExplain(ctx, async () => {
        const { call } = callWorld(ctx, extra.signal, undefined);
        return { contents: [{ uri: uri.href, mimeType: 'application/yaml', text: await pulledText(call, 'yaml') }] };
      }),
  );
  server.registerResource(
    'openapi',
    'wsm://openapi.json',
    {
      title: 'OpenAPI document',
      description: "The server's OpenAPI 3.1 document (GET /openapi.json, an extension of wsm serve).",
      mimeType: 'application/json',
    },
    async (uri) =>
      readOrExplain(ctx, async () => {
        const client = await ctx.client();
        const document = await extension('the OpenAPI document', () => client.request('GET', '/openapi.json'));
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(document) }] };
      }),
  );
  return server;
}

/** Runs until the client closes stdin; calls still running then are answered first. */
export async function serveMcp(ctx: Context, tools: readonly ToolSpec[]): Promise<void> {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const running = new Set<Promise<unknown>>();
  const server = await buildMcpServer(ctx, tools, running);
  const stdout = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      ctx.io.out(chunk.toString());
      callback();
    },
  });
  const ended = new Promise<void>((resolve) => ctx.io.stdin.once('end', resolve));
  await server.connect(new StdioServerTransport(ctx.io.stdin as NodeJS.ReadStream, stdout));
  await ended;
  // `echo '…' | wsm mcp` ends stdin at once: the calls it made are answered before closing.
  await Promise.allSettled([...running]);
  await server.close();
  await closeClient(ctx);
}

/** The API client's keep-alive connections would hold the process open after the session. */
export async function closeClient(ctx: Context): Promise<void> {
  await ctx
    .client()
    .then((client) => client.close())
    .catch(() => undefined);
}
