import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIStatusError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  errorFromResponse,
} from '../../src/api/errors.js';
import { Transport, type TransportOptions } from '../../src/api/transport.js';
import { encodePath, toMultipartParts } from '../../src/api/request-parts.js';

const ORIGIN = 'http://api.test';
const BASE = `${ORIGIN}/api/v3`;
const TOKEN = 'tok_secret_5f2c9a';
const JSON_HEADERS = { 'content-type': 'application/json' };

let agents: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(agents.map((agent) => agent.close()));
  agents = [];
});

/** A transport over a MockAgent that refuses real network access and records every sleep. */
function setup(options: Partial<TransportOptions> = {}) {
  const mockAgent = new MockAgent();
  mockAgent.disableNetConnect();
  agents.push(mockAgent);
  const sleeps: number[] = [];
  const trace: string[] = [];
  const transport = new Transport({
    baseUrl: BASE,
    token: TOKEN,
    dispatcher: mockAgent,
    userAgent: 'wsm/9.9.9',
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0,
    trace: (line) => trace.push(line),
    ...options,
  });
  return { pool: mockAgent.get(ORIGIN), mockAgent, transport, sleeps, trace };
}

function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:80'), { code: 'ECONNREFUSED' });
}

describe('Transport success paths', () => {
  it('sends bearer, accept and user-agent headers and returns the parsed JSON body', async () => {
    const { pool, transport } = setup();
    let seen: Record<string, string> = {};
    pool.intercept({ path: '/api/v3/me', method: 'GET' }).reply((opts) => {
      seen = opts.headers as Record<string, string>;
      return { statusCode: 200, data: { data: { id: 7 } }, responseOptions: { headers: JSON_HEADERS } };
    });
    const body = await transport.request<{ data: { id: number } }>({ method: 'GET', path: '/me' });
    expect(body).toEqual({ data: { id: 7 } });
    expect(seen.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen.accept).toBe('application/json');
    expect(seen['user-agent']).toBe('wsm/9.9.9');
  });

  it('sends a JSON body with content-type application/json', async () => {
    const { pool, transport } = setup();
    let received: { body?: unknown; contentType?: string } = {};
    pool.intercept({ path: '/api/v3/labels', method: 'POST' }).reply((opts) => {
      received = { body: JSON.parse(String(opts.body)), contentType: (opts.headers as Record<string, string>)['content-type'] };
      return { statusCode: 201, data: { data: { id: 1, name: 'VIP' } } };
    });
    const body = await transport.request({ method: 'POST', path: '/labels', json: { name: 'VIP', color: '#fff' } });
    expect(received).toEqual({ body: { name: 'VIP', color: '#fff' }, contentType: 'application/json' });
    expect(body).toEqual({ data: { id: 1, name: 'VIP' } });
  });

  it('returns undefined for an empty body and tolerates a trailing slash in the base URL', async () => {
    const { pool, transport } = setup({ baseUrl: `${BASE}/` });
    pool.intercept({ path: '/api/v3/labels/4', method: 'DELETE' }).reply(204, '');
    await expect(transport.request({ method: 'DELETE', path: '/labels/4' })).resolves.toBeUndefined();
  });

  it('encodes query values, drops null/undefined and sends booleans as 1/0', async () => {
    const { pool, transport } = setup();
    let rawPath = '';
    pool.intercept({ path: (path) => ((rawPath = path), true), method: 'GET' }).reply(200, { data: [] });
    await transport.request({
      method: 'GET',
      path: '/contacts',
      query: { search: 'a b&c=d/é', page: 2, status: true, archived: false, email: undefined, name: null },
    });
    expect(rawPath).toBe('/api/v3/contacts?search=a%20b%26c%3Dd%2F%C3%A9&page=2&status=1&archived=0');
  });

  it('refuses paths that are not relative to the base URL', async () => {
    const { transport } = setup();
    await expect(transport.request({ method: 'GET', path: 'http://evil.test/x' })).rejects.toThrow(TypeError);
    await expect(transport.request({ method: 'GET', path: '//evil.test/x' })).rejects.toThrow(TypeError);
  });
});

describe('Transport errors by status', () => {
  const cases = [
    [401, AuthenticationError, { message: 'Unauthenticated.' }],
    [403, PermissionDeniedError, { message: 'This action is unauthorized.', status: 403 }],
    [404, NotFoundError, { message: 'Resource not found.', status: 404 }],
    [405, MethodNotAllowedError, { message: 'Method not allowed.', status: 405 }],
    [413, PayloadTooLargeError, { message: 'Payload too large.', status: 413 }],
    [500, InternalServerError, { message: 'Server error.', status: 500 }],
    [503, InternalServerError, { message: 'Down for maintenance.' }],
  ] as const;

  it.each(cases)('%i becomes %o with the server message', async (status, ErrorClass, body) => {
    const { pool, transport } = setup({ maxRetries: 0 });
    pool.intercept({ path: '/api/v3/things/1', method: 'GET' }).reply(status, body, { headers: JSON_HEADERS });
    const error = await transport.request({ method: 'GET', path: '/things/1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIStatusError);
    expect(error).toMatchObject({ status, body, message: body.message, method: 'GET', url: `${BASE}/things/1` });
  });

  it('422 carries the field errors', async () => {
    const { pool, transport } = setup();
    const body = {
      message: 'Validation error',
      errors: { number: ['The number has already been taken.'], 'contact_groups.0': ['Invalid group.'] },
    };
    pool.intercept({ path: '/api/v3/contacts', method: 'POST' }).reply(422, body);
    const error = await transport.request({ method: 'POST', path: '/contacts', json: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).errors).toEqual(body.errors);
    expect((error as UnprocessableEntityError).message).toBe('Validation error');
  });

  it('429 exposes retryAfterMs and headers', async () => {
    const { pool, transport } = setup();
    pool
      .intercept({ path: '/api/v3/contacts', method: 'POST' })
      .reply(429, { message: 'Too Many Attempts.' }, { headers: { 'retry-after': '7' } });
    const error = await transport.request({ method: 'POST', path: '/contacts', json: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(7000);
    expect((error as RateLimitError).headers['retry-after']).toBe('7');
  });

  it('a body without a message gives "HTTP <status>" and keeps the raw text', async () => {
    const { pool, transport } = setup({ maxRetries: 0 });
    pool.intercept({ path: '/api/v3/x', method: 'GET' }).reply(502, '<html>Bad gateway</html>');
    const error = await transport.request({ method: 'GET', path: '/x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ message: 'HTTP 502', status: 502, body: '<html>Bad gateway</html>' });
  });
});

describe('errorFromResponse', () => {
  const init = { body: {}, headers: {}, method: 'GET', url: `${BASE}/x` };

  it('covers the remaining statuses and falls back by range', () => {
    expect(errorFromResponse({ ...init, status: 400 })).toBeInstanceOf(BadRequestError);
    expect(errorFromResponse({ ...init, status: 409 })).toBeInstanceOf(ConflictError);
    expect(errorFromResponse({ ...init, status: 599 })).toBeInstanceOf(InternalServerError);
    const teapot = errorFromResponse({ ...init, status: 418 });
    expect(teapot.constructor).toBe(APIStatusError);
    expect(teapot.message).toBe('HTTP 418');
  });

  it('reads an HTTP-date Retry-After on a 429', () => {
    const error = errorFromResponse({ ...init, status: 429, headers: { 'retry-after': new Date(Date.now() + 30_000).toUTCString() } });
    expect((error as RateLimitError).retryAfterMs).toBeGreaterThan(28_000);
    expect((error as RateLimitError).retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('keeps errors.ts free of undici and zod (the CLI error handler loads it at start-up)', async () => {
    const source = await readFile(new URL('../../src/api/errors.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/from ['"](undici|zod)/);
    expect(source).not.toMatch(/^import /m);
  });
});

describe('Transport retries', () => {
  it('retries a GET on 503 then succeeds, backing off exponentially', async () => {
    const { pool, transport, sleeps } = setup();
    pool.intercept({ path: '/api/v3/contacts', method: 'GET' }).reply(503, { message: 'busy' }).times(2);
    pool.intercept({ path: '/api/v3/contacts', method: 'GET' }).reply(200, { data: [1] });
    await expect(transport.request({ method: 'GET', path: '/contacts' })).resolves.toEqual({ data: [1] });
    expect(sleeps).toEqual([500, 1000]);
  });

  it('applies jitter between 75% and 100% of the backoff', async () => {
    const { pool, transport, sleeps } = setup({ random: () => 1 });
    pool.intercept({ path: '/api/v3/contacts', method: 'GET' }).reply(504, {}).times(2);
    pool.intercept({ path: '/api/v3/contacts', method: 'GET' }).reply(200, {});
    await transport.request({ method: 'GET', path: '/contacts' });
    expect(sleeps).toEqual([375, 750]);
  });

  it('does not retry a POST on 503', async () => {
    const { pool, transport, sleeps } = setup();
    pool.intercept({ path: '/api/v3/contacts', method: 'POST' }).reply(503, { message: 'busy' });
    pool.intercept({ path: '/api/v3/contacts', method: 'POST' }).reply(201, { data: { id: 1 } });
    await expect(transport.request({ method: 'POST', path: '/contacts', json: {} })).rejects.toBeInstanceOf(InternalServerError);
    expect(sleeps).toEqual([]);
  });

  it('retrying until a deadline (a wait): any 5xx, on a POST too, more times than the default, each told', async () => {
    const { pool, transport, sleeps } = setup();
    pool.intercept({ path: '/api/v3/templates/sync', method: 'POST' }).reply(500, { message: 'Provider down.' }).times(4);
    pool.intercept({ path: '/api/v3/templates/sync', method: 'POST' }).reply(200, { success: true });
    const told: string[] = [];
    const retry = { until: Date.now() + 60_000, onRetry: (error: Error, ms: number) => told.push(`${error.message} ${ms}`) };
    await expect(transport.request({ method: 'POST', path: '/templates/sync', retry })).resolves.toEqual({ success: true });
    expect(sleeps).toEqual([500, 1000, 2000, 4000]);
    expect(told).toEqual(['Provider down. 500', 'Provider down. 1000', 'Provider down. 2000', 'Provider down. 4000']);
    // A request without the policy keeps the transport's rule: a POST is not retried.
    pool.intercept({ path: '/api/v3/templates/sync', method: 'POST' }).reply(500, { message: 'Provider down.' });
    await expect(transport.request({ method: 'POST', path: '/templates/sync' })).rejects.toBeInstanceOf(InternalServerError);
    expect(sleeps).toHaveLength(4);
  });

  it('retrying until a deadline: past it the failure stands, and a pause never outlasts it', async () => {
    const { pool, transport, sleeps } = setup();
    pool.intercept({ path: '/api/v3/contacts', method: 'GET' }).reply(503, { message: 'busy' }, { headers: { 'retry-after': '30' } });
    pool.intercept({ path: '/api/v3/contacts', method: 'GET' }).reply(200, { data: [] });
    await transport.request({ method: 'GET', path: '/contacts', retry: { until: Date.now() + 2_000 } });
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(1_000);
    expect(sleeps[0]).toBeLessThanOrEqual(2_000);
    pool.intercept({ path: '/api/v3/contacts', method: 'GET' }).reply(503, { message: 'busy' });
    await expect(transport.request({ method: 'GET', path: '/contacts', retry: { until: Date.now() - 1 } })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(sleeps).toHaveLength(1);
  });

  it('retries a POST marked idempotent', async () => {
    const { pool, transport, sleeps } = setup();
    pool.intercept({ path: '/api/v3/templates/sync', method: 'POST' }).reply(503, {});
    pool.intercept({ path: '/api/v3/templates/sync', method: 'POST' }).reply(200, { success: true });
    await expect(transport.request({ method: 'POST', path: '/templates/sync', idempotent: true })).resolves.toEqual({ success: true });
    expect(sleeps).toEqual([500]);
  });

  it('honours Retry-After in seconds and as an HTTP date, capped at 60 s', async () => {
    const { pool, transport, sleeps } = setup({ maxRetries: 3 });
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    pool.intercept({ path: '/api/v3/x', method: 'GET' }).reply(429, {}, { headers: { 'retry-after': '3' } });
    pool.intercept({ path: '/api/v3/x', method: 'GET' }).reply(503, {}, { headers: { 'retry-after': inTenSeconds } });
    pool.intercept({ path: '/api/v3/x', method: 'GET' }).reply(503, {}, { headers: { 'retry-after': '120' } });
    pool.intercept({ path: '/api/v3/x', method: 'GET' }).reply(200, { ok: true });
    await transport.request({ method: 'GET', path: '/x' });
    expect(sleeps[0]).toBe(3000);
    expect(sleeps[1]).toBeGreaterThan(8000);
    expect(sleeps[1]).toBeLessThanOrEqual(10_000);
    expect(sleeps[2]).toBe(60_000);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const { pool, transport, sleeps } = setup();
    pool.intercept({ path: '/api/v3/x', method: 'GET' }).reply(502, { message: 'still down' }).times(3);
    await expect(transport.request({ method: 'GET', path: '/x' })).rejects.toThrow('still down');
    expect(sleeps).toHaveLength(2);
  });

  it('turns a refused connection into APIConnectionError after the retries', async () => {
    const { pool, transport, sleeps, trace } = setup();
    pool.intercept({ path: '/api/v3/x', method: 'GET' }).replyWithError(refused()).times(3);
    const error = await transport.request({ method: 'GET', path: '/x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toBe(`Could not reach ${BASE}/x: ECONNREFUSED.`);
    expect(((error as Error).cause as { code: string }).code).toBe('ECONNREFUSED');
    expect(sleeps).toEqual([500, 1000]);
    expect(trace.filter((line) => line.startsWith('! '))).toHaveLength(3);
  });

  it('reports a real refused port as APIConnectionError', async () => {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const agent = new Agent();
    agents.push(agent);
    const transport = new Transport({ baseUrl: `http://127.0.0.1:${port}/api/v3`, dispatcher: agent, maxRetries: 0 });
    await expect(transport.request({ method: 'GET', path: '/me' })).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('times out a slow answer with APIConnectionTimeoutError, retrying only idempotent requests', async () => {
    const { pool, transport, sleeps } = setup({ timeoutMs: 20, maxRetries: 1 });
    pool.intercept({ path: '/api/v3/x', method: 'GET' }).reply(200, {}).delay(300).times(2);
    const error = await transport.request({ method: 'GET', path: '/x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toBe(`Request to ${BASE}/x timed out after 20 ms.`);
    expect(sleeps).toEqual([500]);

    pool.intercept({ path: '/api/v3/y', method: 'POST' }).reply(201, {}).delay(300);
    await expect(transport.request({ method: 'POST', path: '/y', json: {}, timeoutMs: 10 })).rejects.toBeInstanceOf(
      APIConnectionTimeoutError,
    );
    expect(sleeps).toEqual([500]);
  });

  it('lets an unmatched mock surface as itself, not as a retried connection error', async () => {
    const { transport, sleeps } = setup();
    const error = await transport.request({ method: 'GET', path: '/not-mocked' }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect((error as { code?: string }).code).toBe('UND_MOCK_ERR_MOCK_NOT_MATCHED');
    expect(sleeps).toEqual([]);
  });

  it('passes a caller abort through unwrapped and unretried', async () => {
    const { pool, transport, sleeps } = setup();
    pool.intercept({ path: '/api/v3/x', method: 'GET' }).reply(200, {}).delay(300);
    const controller = new AbortController();
    const pending = transport.request({ method: 'GET', path: '/x', signal: controller.signal });
    controller.abort(new Error('user pressed ctrl-c'));
    await expect(pending).rejects.toThrow('user pressed ctrl-c');
    expect(sleeps).toEqual([]);
  });
});

describe('Transport trace and token redaction', () => {
  it('traces request and response without ever showing the token', async () => {
    const { pool, transport, trace } = setup();
    pool.intercept({ path: '/api/v3/contacts?page=1', method: 'GET' }).reply(200, { data: [], echo: TOKEN }, { headers: JSON_HEADERS });
    pool.intercept({ path: '/api/v3/contacts', method: 'POST' }).reply(401, { message: `Token ${TOKEN} is invalid` });
    await transport.request({ method: 'GET', path: '/contacts', query: { page: 1 } });
    const error = await transport
      .request({ method: 'POST', path: '/contacts', json: { token: TOKEN, password: 'hunter22' } })
      .catch((e: unknown) => e);

    expect(trace[0]).toBe(`> GET ${BASE}/contacts?page=1`);
    expect(trace).toContain('> authorization: Bearer ***');
    expect(trace).toContain('> accept: application/json');
    expect(trace.some((line) => /^< 200 OK \(\d+ ms\)$/.test(line))).toBe(true);
    expect(trace).toContain('< {"data":[],"echo":"***"}');
    expect(trace).toContain('> {"token":"***","password":"***"}');
    expect(trace.join('\n')).not.toContain(TOKEN);
    expect(trace.join('\n')).not.toContain('hunter22');
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toBe('Token *** is invalid');
  });

  it('truncates a traced response body to 2 KB', async () => {
    const { pool, transport, trace } = setup();
    pool.intercept({ path: '/api/v3/big', method: 'GET' }).reply(200, 'x'.repeat(5000));
    await transport.request({ method: 'GET', path: '/big' });
    const bodyLine = trace.find((line) => line.startsWith('< xxx'));
    expect(bodyLine).toBe(`< ${'x'.repeat(2048)}... (2952 more characters)`);
  });
});

describe('Transport default dispatcher', () => {
  it('goes through HTTP_PROXY when no dispatcher is given', async () => {
    const api = createServer((req, res) => res.writeHead(200, JSON_HEADERS).end(JSON.stringify({ path: req.url })));
    // A proxy that sends everything to the local API server, whatever host was asked for. undici 8
    // forwards plain-http requests in absolute form and tunnels the rest with CONNECT: both are served.
    const proxied: string[] = [];
    const proxy = createServer((req, res) => {
      const target = new URL(req.url ?? '');
      proxied.push(target.host);
      const upstream = httpRequest(
        {
          host: '127.0.0.1',
          port: (api.address() as AddressInfo).port,
          method: req.method,
          path: target.pathname + target.search,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    proxy.on('connect', (req, client, head) => {
      proxied.push(req.url ?? '');
      const upstream = connect((api.address() as AddressInfo).port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
    });
    for (const server of [api, proxy]) server.listen(0, '127.0.0.1');
    await Promise.all([once(api, 'listening'), once(proxy, 'listening')]);
    const saved = { ...process.env };
    for (const name of ['http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY']) delete process.env[name];
    process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const transport = new Transport({ baseUrl: 'http://wsm-upstream.invalid:8080/api/v3', maxRetries: 0 });
    try {
      // .invalid never resolves: an answer proves the request went through the proxy.
      await expect(transport.request({ method: 'GET', path: '/me' })).resolves.toEqual({ path: '/api/v3/me' });
      expect(proxied).toEqual(['wsm-upstream.invalid:8080']);
    } finally {
      process.env = saved;
      await transport.close();
      for (const server of [api, proxy]) server.closeAllConnections();
      await Promise.all([api, proxy].map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });
});

describe('encodePath', () => {
  it('percent-encodes each interpolated value', () => {
    const ws = '0b6f6a5e-1c1d-4f7e-9a4b-6b1e2f3a4b5c';
    expect(encodePath`/workspaces/${ws}/contacts/${42}`).toBe(`/workspaces/${ws}/contacts/42`);
    expect(encodePath`/x/${'a/b?c#d e'}/y`).toBe('/x/a%2Fb%3Fc%23d%20e/y');
  });

  it('rejects values that would be resolved as path segments', () => {
    expect(() => encodePath`/contacts/${'..'}`).toThrow(TypeError);
    expect(() => encodePath`/contacts/${''}`).toThrow(TypeError);
  });
});

describe('multipart', () => {
  it('flattens nested objects to bracket names', () => {
    const avatar = Buffer.from('PNGDATA');
    expect(
      toMultipartParts({
        name: 'Ana',
        status: false,
        email: null,
        gender: undefined,
        contact_groups: [3, 4],
        header: { media: { type: 'image', file: { filePath: '/tmp/a.png', contentType: 'image/png' } } },
        buttons: [{ type: 'URL', text: 'Go' }],
        avatar,
      }),
    ).toEqual([
      { name: 'name', value: 'Ana' },
      { name: 'status', value: '0' },
      { name: 'contact_groups[0]', value: '3' },
      { name: 'contact_groups[1]', value: '4' },
      { name: 'header[media][type]', value: 'image' },
      { name: 'header[media][file]', filePath: '/tmp/a.png', contentType: 'image/png' },
      { name: 'buttons[0][type]', value: 'URL' },
      { name: 'buttons[0][text]', value: 'Go' },
      { name: 'avatar', filename: 'blob', data: avatar },
    ]);
  });

  it('sends a multipart body that a server can parse, files included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wsm-transport-'));
    const csvPath = join(dir, 'contacts.csv');
    await writeFile(csvPath, 'number,name\n5511999990000,Ana\n');
    const received: { headers?: IncomingHttpHeaders; body?: Buffer } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.headers = req.headers;
        received.body = Buffer.concat(chunks);
        res.writeHead(201, JSON_HEADERS).end('{"data":{"id":9}}');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const agent = new Agent();
    agents.push(agent);
    try {
      const { port } = server.address() as AddressInfo;
      const transport = new Transport({ baseUrl: `http://127.0.0.1:${port}/api/v3`, token: TOKEN, dispatcher: agent });
      const parts = toMultipartParts({
        name: 'March import',
        contact_groups: [3],
        file: { filePath: csvPath, contentType: 'text/csv' },
        avatar: { data: Buffer.from([0x89, 0x50, 0x4e, 0x47]), filename: 'a.png', contentType: 'image/png' },
      });
      const body = await transport.request({ method: 'POST', path: '/contact-imports', multipart: parts });
      expect(body).toEqual({ data: { id: 9 } });

      expect(received.headers?.['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(received.headers?.authorization).toBe(`Bearer ${TOKEN}`);
      // Parse what arrived on the wire with the platform's own multipart parser.
      const form = await new Response(received.body, { headers: { 'content-type': received.headers!['content-type']! } }).formData();
      expect(form.get('name')).toBe('March import');
      expect(form.get('contact_groups[0]')).toBe('3');
      const file = form.get('file') as File;
      expect(file.name).toBe('contacts.csv');
      expect(file.type).toBe('text/csv');
      expect(await file.text()).toBe('number,name\n5511999990000,Ana\n');
      const avatar = form.get('avatar') as File;
      expect(avatar.name).toBe('a.png');
      expect([...new Uint8Array(await avatar.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
