// `wsm mcp --http`: the same tools over MCP's Streamable HTTP transport (the SDK's
// StreamableHTTPServerTransport) at `/mcp`, one MCP session per client (its Mcp-Session-Id).
// Loopback by default. Every request's Host (and Origin, when a browser sends one) must name this
// server, so a web page cannot reach it through DNS rebinding; off loopback a bearer token is
// required (given, or generated and printed), since anyone on the network could otherwise call.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isLoopbackHost, LOOPBACK_NAMES, urlHost } from '../api/loopback.js';
import type { Context } from '../cli/context.js';
import { hostFile, remoteInput } from '../cli/host-files.js';
import { buildMcpServer, closeClient } from './server.js';
import type { ToolSpec } from './tool.js';

export interface HttpOptions {
  host: string;
  port: number;
  /** Required of every request when set; generated when listening off loopback without one. */
  authToken?: string;
}

const MCP_PATH = '/mcp';
/** A JSON-RPC message larger than this is refused (413): the largest tool input is a CSV given as text. */
const BODY_LIMIT = 16 * 1024 * 1024;
/** Sessions held at once, and how long one may sit unused: each holds a server and its tools (about 350 KB). */
const MAX_SESSIONS = 64;
const SESSION_IDLE_MS = 30 * 60_000;

/** The token requests must carry: the one given; else none on loopback, and a new one off it (`generated`, to print). */
export function bearerToken(host: string, given: string | undefined): { token?: string; generated?: string } {
  if (given !== undefined) return { token: given };
  if (isLoopbackHost(host)) return {};
  const generated = randomBytes(24).toString('base64url');
  return { token: generated, generated };
}

/** The Host values a loopback server answers to: its port on every loopback name and on the address it listens on. */
function loopbackHosts(host: string, port: number): Set<string> {
  return new Set([...LOOPBACK_NAMES, urlHost(host)].map((name) => `${name}:${port}`));
}

/**
 * A tool as served over HTTP: a `file` argument would name a path on the machine wsm runs on, which
 * the client is not on; the gate refuses it (as it refuses any path the call's content names), in
 * words that point at the argument taking the text instead.
 */
function overHttp(tool: ToolSpec): ToolSpec {
  if (!('file' in tool.input.shape)) return tool;
  const text = Object.keys(tool.input.shape).find((key) => key === 'csv' || key === 'content') ?? 'the text';
  return {
    ...tool,
    run(args, call) {
      if (typeof args.file === 'string') hostFile(call.ctx, args.file, { named: '`file`', instead: `give the file's text as \`${text}\`` });
      return tool.run(args, call);
    },
  };
}

/** JSON-RPC's code for a body that is not JSON; every other refusal here is a server error (-32000). */
const PARSE_ERROR = -32700;

function jsonRpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readJson(
  req: IncomingMessage,
): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string; code?: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) return { ok: false, status: 413, message: `the message is larger than ${BODY_LIMIT / 1024 / 1024} MB` };
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, status: 400, message: 'Parse error: the body is not JSON', code: PARSE_ERROR };
  }
}

/** Where the server listens, once it does, and what clients must send. */
export interface McpListening {
  url: string;
  /** Clients must send a bearer token (the one given, or the generated one). */
  tokenRequired: boolean;
  /** The token generated for this run (off loopback without --auth-token), to be told to the user once. */
  generatedToken?: string;
}

/**
 * Serves until SIGINT or SIGTERM; calls in flight are answered first. Resolves once closed.
 * `listening` is told where, once the server listens.
 */
export async function serveMcpHttp(
  ctx: Context,
  tools: readonly ToolSpec[],
  options: HttpOptions,
  listening?: (address: McpListening) => void,
): Promise<void> {
  const [{ StreamableHTTPServerTransport }, { isInitializeRequest }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const loopback = isLoopbackHost(options.host);
  const { token, generated } = bearerToken(options.host, options.authToken);
  const running = new Set<Promise<unknown>>();
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const lastUsed = new Map<string, number>();
  const served = tools.map(overHttp);
  // A session nobody has used for SESSION_IDLE_MS is closed (clients that never send DELETE).
  const sweep = setInterval(() => {
    const stale = Date.now() - SESSION_IDLE_MS;
    for (const [id, used] of lastUsed) if (used < stale) void sessions.get(id)?.close();
  }, 60_000).unref();
  let allowedHosts: Set<string> | undefined;

  /** Host (loopback only) and Origin (always, when sent) must name this server; a token when one is set. */
  function refusal(req: IncomingMessage): { status: number; message: string; headers?: Record<string, string> } | undefined {
    const host = req.headers.host ?? '';
    if (allowedHosts !== undefined && !allowedHosts.has(host.toLowerCase()))
      return { status: 403, message: `Forbidden: Host "${host}" is not this server` };
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== 'null') {
      const named = allowedHosts ?? new Set([host.toLowerCase()]);
      let originHost: string | undefined;
      try {
        originHost = new URL(origin).host.toLowerCase();
      } catch {
        originHost = undefined;
      }
      if (originHost === undefined || !named.has(originHost))
        return { status: 403, message: `Forbidden: Origin "${origin}" is not this server` };
    }
    if (token !== undefined) {
      const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (bearer === undefined || !sameSecret(bearer, token))
        return {
          status: 401,
          message: 'Unauthorized: send the token wsm mcp --http printed as "Authorization: Bearer <token>"',
          headers: { 'www-authenticate': 'Bearer realm="wsm mcp"' },
        };
    }
    return undefined;
  }

  async function newSession(): Promise<StreamableHTTPServerTransport> {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        lastUsed.set(id, Date.now());
      },
    });
    transport.onclose = () => {
      if (transport.sessionId === undefined) return;
      sessions.delete(transport.sessionId);
      lastUsed.delete(transport.sessionId);
    };
    // Every call's input is a remote caller's: no file of this machine is read for it (host-files.ts).
    const server = await buildMcpServer({ ...ctx, hostFiles: remoteInput() }, served, running);
    await server.connect(transport);
    return transport;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) return jsonRpcError(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    const refused = refusal(req);
    if (refused) return jsonRpcError(res, refused.status, refused.message, refused.headers);
    if (!['GET', 'POST', 'DELETE'].includes(req.method ?? ''))
      return jsonRpcError(res, 405, 'Method not allowed', { allow: 'GET, POST, DELETE' });
    const sessionId = req.headers['mcp-session-id'];
    const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (typeof sessionId === 'string' && session === undefined) return jsonRpcError(res, 404, 'Session not found: initialize a new one');
    if (session !== undefined) lastUsed.set(sessionId as string, Date.now());
    if (req.method !== 'POST') {
      if (session === undefined) return jsonRpcError(res, 400, 'Bad request: no Mcp-Session-Id header');
      return session.handleRequest(req, res);
    }
    const body = await readJson(req);
    if (!body.ok) return jsonRpcError(res, body.status, body.message, {}, body.code);
    if (session !== undefined) return session.handleRequest(req, res, body.value);
    if (!isInitializeRequest(body.value)) return jsonRpcError(res, 400, 'Bad request: no Mcp-Session-Id header; send initialize first');
    if (sessions.size >= MAX_SESSIONS)
      return jsonRpcError(res, 503, `Too many sessions (${MAX_SESSIONS}): end one with DELETE, or wait for an unused one to expire`, {
        'retry-after': '60',
      });
    return (await newSession()).handleRequest(req, res, body.value);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) jsonRpcError(res, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  });
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  if (loopback) allowedHosts = loopbackHosts(options.host, port);
  listening?.({
    url: `http://${urlHost(options.host)}:${port}${MCP_PATH}`,
    tokenRequired: token !== undefined,
    ...(generated !== undefined ? { generatedToken: generated } : {}),
  });

  await stopped;
  clearInterval(sweep);
  // Stop taking requests, answer the calls in flight, then close every session.
  const closed = new Promise<void>((resolve) => http.close(() => resolve()));
  await Promise.allSettled([...running]);
  await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
  http.closeAllConnections();
  await closed;
  await closeClient(ctx);
}
