/**
 * `wsm mcp --http`: the real binary serving MCP over Streamable HTTP against a real `wsm serve`.
 * The official conformance suite (@modelcontextprotocol/conformance, pinned) runs its server
 * scenarios against it; the SDK's own HTTP client calls a tool; Host, Origin and the bearer
 * token are checked with raw requests, as an attacker's page or a stranger would send them.
 */
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttp, type McpHttpServer } from './mcp-helpers.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup } from './processes.js';

const CONFORMANCE = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];
const TOKEN = 'an-agent-platform-token-0123456789';

let server: Backend;
let open: McpHttpServer;
let guarded: McpHttpServer;
beforeAll(async () => {
  server = await serveBackend();
  [open, guarded] = await Promise.all([startMcpHttp(server.env), startMcpHttp(server.env, ['--auth-token', TOKEN])]);
});
afterAll(async () => {
  for (const mcp of [open, guarded]) expect(await mcp?.stop()).toBe(0);
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

/** A raw initialize POST with the headers given (fetch cannot set Host). */
function initialize(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const target = new URL(url);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the official conformance suite', () => {
  it.each(SCENARIOS)('%s passes', async (scenario) => {
    const { stdout } = await promisify(execFile)(process.execPath, [CONFORMANCE, 'server', '--url', open.url, '--scenario', scenario]);
    expect(stdout).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
  });
});

describe('an MCP client over HTTP', () => {
  it('lists the tools and calls one, through the SDK client', async () => {
    const client = new Client({ name: 'wsm-e2e-http', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(open.url)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('contacts.list');
      const result = await client.callTool({ name: 'labels.create', arguments: { name: 'over-http', color: '#123456' } });
      expect(result.isError).toBeFalsy();
      const listed = await client.callTool({ name: 'labels.list', arguments: {} });
      expect(JSON.stringify(listed.structuredContent)).toContain('over-http');
    } finally {
      await client.close();
    }
  });

  it('with --auth-token: the token is required, and the SDK client sends it', async () => {
    const refused = await initialize(guarded.url, { host: new URL(guarded.url).host });
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="wsm mcp"');
    const wrong = await initialize(guarded.url, { host: new URL(guarded.url).host, authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    const client = new Client({ name: 'wsm-e2e-http', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(guarded.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }),
    );
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});

describe('what it refuses', () => {
  it('a Host or an Origin that is not this server (DNS rebinding), with 403', async () => {
    const host = new URL(open.url).host;
    const evilHost = await initialize(open.url, { host: 'evil.example.com' });
    expect(evilHost.status).toBe(403);
    expect(JSON.parse(evilHost.body).error.message).toBe('Forbidden: Host "evil.example.com" is not this server');
    const evilOrigin = await initialize(open.url, { host, origin: 'http://evil.example.com' });
    expect(evilOrigin.status).toBe(403);
    for (const name of ['localhost', '127.0.0.1']) {
      const port = new URL(open.url).port;
      const ok = await initialize(open.url, { host: `${name}:${port}`, origin: `http://${name}:${port}` });
      expect(ok.status, name).toBe(200);
    }
  });

  it('another path (404), a request outside a session (400), an unknown session (404)', async () => {
    const host = new URL(open.url).host;
    const other = await initialize(open.url.replace('/mcp', '/other'), { host });
    expect(other.status).toBe(404);
    const target = new URL(open.url);
    const listWithout = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(listWithout.status).toBe(400);
    const unknown = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'no-such-session' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    });
    expect(unknown.status).toBe(404);
    const notJson = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc": "2.0",',
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: unknown }).error).toEqual({ code: -32700, message: 'Parse error: the body is not JSON' });
  });
});

describe('what an HTTP client cannot reach', () => {
  it('a file of the machine wsm mcp runs on: `file` is refused, the text is asked for instead', async () => {
    const client = new Client({ name: 'wsm-e2e-http', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(open.url)));
    try {
      for (const [name, args, text] of [
        ['contacts.import', { file: '/etc/hostname', confirm: true }, 'csv'],
        ['workspace_file.diff', { file: '/etc/hostname' }, 'content'],
      ] as const) {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError, name).toBe(true);
        const said = JSON.stringify(result.content);
        expect(said, name).toContain('over HTTP, `file` is refused');
        expect(said, name).toContain(`give the file's text as \`${text}\``);
      }
    } finally {
      await client.close();
    }
  });
});

describe('a server on another loopback address', () => {
  it('answers its own Host, and holds at most 64 sessions (503 past that)', async () => {
    const other = await startMcpHttp(server.env, ['--host', '127.0.0.2']);
    try {
      expect(other.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/mcp$/);
      const host = new URL(other.url).host;
      const answers: number[] = [];
      for (let i = 0; i < 65; i++) answers.push((await initialize(other.url, { host })).status);
      expect(answers.slice(0, 64).every((status) => status === 200)).toBe(true);
      const past = await initialize(other.url, { host });
      expect(past.status).toBe(503);
      expect(past.headers['retry-after']).toBe('60');
      expect(JSON.parse(past.body).error.message).toContain('Too many sessions (64)');
    } finally {
      expect(await other.stop()).toBe(0);
    }
  });
});

describe('arguments a tool does not take', () => {
  it('an unknown argument gets the closest known one; a media header is refused in words', async () => {
    const client = new Client({ name: 'wsm-e2e-http', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(open.url)));
    try {
      const typo = await client.callTool({ name: 'contacts.list', arguments: { serch: 'Ann' } });
      expect(typo.isError).toBe(true);
      expect(JSON.stringify(typo.content)).toContain(
        'serch: \\"serch\\" is not an argument of contacts.list (did you mean \\"search\\"?).',
      );
      const media = await client.callTool({
        name: 'templates.create',
        arguments: {
          name: 'hello',
          language: 'en',
          category: 'UTILITY',
          header: { type: 'media', media: { type: 'image' } },
          body: { text: 'Hi' },
        },
      });
      expect(media.isError).toBe(true);
      expect(JSON.stringify(media.content)).toContain(
        'a media header needs a file upload, which a tool call cannot carry: give a text header or none',
      );
    } finally {
      await client.close();
    }
  });
});
