/**
 * Every answer the server gives before a route runs, over a real socket: the
 * statuses Node's HTTP parser and fastify produce on their own (bad JSON, 400 for what is not
 * HTTP, 404, 405, 408, 413, 414, 415, 417, 431, a CONNECT, a request without Host, 503 while
 * shutting down) come as JSON in decisions.md §1's shape: `{message, status}` (a 422 with
 * `errors` for a body that cannot be read), never an empty body or fastify's own
 * `{error, message, statusCode}`.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../server/harness.js';

let h: Harness;
let port: number;
beforeAll(async () => {
  // Short limits, so that a request that stops coming is answered within the test.
  h = await createHarness({ timeouts: { requestMs: 1_000, idleMs: 1_500, keepAliveMs: 300, lingerMs: 200 } });
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  port = (h.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await h?.close();
});

interface Answer {
  status: number;
  contentType: string | undefined;
  body: unknown;
}

/** Writes raw bytes (in pieces, with pauses between them when asked) and reads the first answer on the socket. */
function exchange(pieces: Array<string | Buffer>, pauseMs = 0): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const finish = () => {
      const text = received.toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      if (!status) return reject(new Error(`no answer: ${JSON.stringify(text.slice(0, 200))}`));
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? -1);
      const raw = rest.join('\r\n\r\n');
      const body = length >= 0 ? Buffer.from(raw).subarray(0, length).toString('utf8') : raw;
      resolve({ status, contentType: /\r\ncontent-type: ([^\r]+)/i.exec(head)?.[1], body: body ? JSON.parse(body) : body });
      socket.destroy();
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end))?.[1];
      if (end >= 0 && length !== undefined && received.length >= end + 4 + Number(length)) finish();
    });
    socket.on('close', () => (received.length ? finish() : reject(new Error('closed without an answer'))));
    socket.on('error', () => undefined);
    (async () => {
      for (const piece of pieces) {
        if (socket.destroyed) return;
        socket.write(piece);
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
    })();
  });
}

const JSON_TYPE = 'application/json; charset=utf-8';
const shape = (status: number, message: string): Answer => ({ status, contentType: JSON_TYPE, body: { message, status } });
const unreadable = (text: string): Answer => ({
  status: 422,
  contentType: JSON_TYPE,
  body: { message: 'Validation error', errors: { body: [text] } },
});

describe('answers given before any route runs', () => {
  it('come as JSON in the shape of decisions.md, whatever produced them', async () => {
    const auth = `Authorization: Bearer ${h.token}\r\n`;
    const labels = `/api/v3/workspaces/${h.ws}/labels`;
    const cases: Array<[string, Array<string | Buffer>, Answer]> = [
      [
        '400 bad JSON',
        [`POST ${labels} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 7\r\n\r\n{"name"`],
        unreadable('The request body is malformed.'),
      ],
      ['404 unknown route', ['GET /api/v3/nowhere HTTP/1.1\r\nHost: x\r\n\r\n'], shape(404, 'Resource not found.')],
      ['404 path not valid percent-encoding', ['GET /api/v3/%zz HTTP/1.1\r\nHost: x\r\n\r\n'], shape(404, 'Resource not found.')],
      ['405 known path, other method', [`PATCH ${labels} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`], shape(405, 'Method not allowed.')],
      ['405 a method the router does not know', [`PROPFIND ${labels} HTTP/1.1\r\nHost: x\r\n\r\n`], shape(405, 'Method not allowed.')],
      ['405 CONNECT', ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'], shape(405, 'Method not allowed.')],
      ['400 not a method', [`FOO ${labels} HTTP/1.1\r\nHost: x\r\n\r\n`], shape(400, 'Bad request: this is not a valid HTTP/1.1 request.')],
      [
        '400 header name with a space',
        ['GET / HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n'],
        shape(400, 'Bad request: this is not a valid HTTP/1.1 request.'),
      ],
      [
        '400 Content-Length and Transfer-Encoding',
        [`POST ${labels} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
        shape(400, 'Bad request: this is not a valid HTTP/1.1 request.'),
      ],
      [
        '400 broken chunk',
        [`POST ${labels} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`],
        shape(400, 'Bad request: this is not a valid HTTP/1.1 request.'),
      ],
      ['400 no Host', ['GET /api/v3/me HTTP/1.1\r\n\r\n'], shape(400, 'Bad request: an HTTP/1.1 request needs a Host header.')],
      [
        '408 headers that stop coming',
        ['GET /api/v3/me HTTP/1.1\r\nHost: x\r\n'],
        shape(408, 'Request timeout: the request did not arrive in time.'),
      ],
      [
        '408 a body that stops coming',
        [`POST ${labels} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{"na`],
        shape(408, 'Request timeout: the request did not arrive in time.'),
      ],
      [
        '413 body over 1 MB',
        [
          `POST ${labels} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 2000000\r\n\r\n`,
          'x'.repeat(64 * 1024),
        ],
        shape(413, 'Payload too large.'),
      ],
      [
        '414 URL over the limit',
        [`GET /api/v3/me?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
        shape(414, 'URI too long: the request line is longer than the server reads.'),
      ],
      [
        '415 a body neither JSON nor a form',
        [`POST ${labels} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: text/xml\r\nContent-Length: 4\r\n\r\n<a/>`],
        unreadable('The request body must be JSON or a multipart form.'),
      ],
      [
        '417 an expectation not met',
        [`POST ${labels} HTTP/1.1\r\nHost: x\r\n${auth}Expect: telepathy\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`],
        shape(417, 'Expectation failed: the only expectation this server meets is Expect: 100-continue.'),
      ],
      [
        '431 headers over the limit',
        [`GET /api/v3/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
        shape(431, 'Request header fields too large.'),
      ],
    ];
    const seen = await Promise.all(
      cases.map(async ([name, pieces, expected]) => ({ name, answer: await exchange(pieces, name.startsWith('413') ? 50 : 0), expected })),
    );
    expect(seen.map(({ name, answer }) => ({ name, ...answer }))).toEqual(seen.map(({ name, expected }) => ({ name, ...expected })));
  });

  it('a kept-alive connection idle past its limit is closed without an answer nobody asked for', async () => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('error', () => undefined);
    const closed = new Promise((r) => socket.once('close', r));
    socket.write('GET /api/v3/nowhere HTTP/1.1\r\nHost: x\r\n\r\n');
    await closed;
    expect(received.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 404']);
  });

  it('503 while shutting down: a request arriving on a connection still open is answered in the same shape', async () => {
    const labels = `/api/v3/workspaces/${h.ws}/labels`;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('error', () => undefined);
    await new Promise((r) => socket.once('connect', r));
    // A request in flight keeps the connection open while the server starts closing ...
    socket.write(
      `POST ${labels} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.token}\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{"name":`,
    );
    await new Promise((r) => setTimeout(r, 100));
    const closing = h.app.close();
    await new Promise((r) => setTimeout(r, 50));
    // ... and a second one follows it on that connection.
    socket.write(`"late"}GET ${labels} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.token}\r\n\r\n`);
    await closing;
    await new Promise((r) => socket.once('close', r));
    const answers = received.split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((answer) => answer.split('\r\n')[0])).toEqual(['HTTP/1.1 201 Created', 'HTTP/1.1 503 Service Unavailable']);
    expect(answers[1]).toMatch(/\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
    expect(JSON.parse(answers[1].split('\r\n\r\n')[1])).toEqual({
      message: 'The server is shutting down: try again in a moment.',
      status: 503,
    });
  });
});
