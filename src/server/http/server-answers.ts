/**
 * Answers given before any route runs, by Node's HTTP server or by fastify itself: a request
 * that is not valid HTTP, a URL or headers too long to read, a request that did not arrive in
 * time, an `Expect` the server does not meet, a CONNECT, a request without Host, and requests
 * arriving while the server shuts down. Each is JSON in decisions.md §1's shape
 * (`{message, status}`), like every other error, never Node's empty body or fastify's own shape.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

const SERVER_ANSWERS = {
  400: 'Bad request: this is not a valid HTTP/1.1 request.',
  408: 'Request timeout: the request did not arrive in time.',
  414: 'URI too long: the request line is longer than the server reads.',
  417: 'Expectation failed: the only expectation this server meets is Expect: 100-continue.',
  431: 'Request header fields too large.',
  noHost: 'Bad request: an HTTP/1.1 request needs a Host header.',
  connect: 'Method not allowed.',
  closing: 'The server is shutting down: try again in a moment.',
} as const;

/** How long a refused connection keeps reading (and dropping) what the client still sends, so that it reads the answer. */
const LINGER_MS = 2000;

const answerText = (status: number, message: string) => JSON.stringify({ message, status });

/** A whole HTTP/1.1 answer, written on a raw socket (no ServerResponse exists yet). */
function rawAnswer(status: number, message: string, extra: Record<string, string> = {}): string {
  const body = answerText(status, message);
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
    ...extra,
  };
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n${body}`;
}

/** Ends the socket after the answer, then drops what the client still sends for a moment: closing at once would reset it before it reads the answer. */
function answerAndClose(socket: Duplex, answer: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(answer);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.on('data', () => undefined);
  socket.resume();
}

/**
 * Node counts the request line within its header limit (16 KB): when the line that overflowed it
 * is the request line itself (a method, a space, and no line end within half the limit), the URL
 * was too long (414), not the headers (431).
 */
function requestLineTooLong(raw: unknown): boolean {
  if (!Buffer.isBuffer(raw) || !/^[A-Z]+ /.test(raw.subarray(0, 16).toString('latin1'))) return false;
  const end = raw.indexOf('\n');
  return (end === -1 ? raw.length : end) > 8 * 1024;
}

/** fastify's `clientErrorHandler`: what Node's parser refuses. */
export function clientErrorHandler(error: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Duplex): void {
  // A connection the client already reset has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let status: 400 | 408 | 414 | 431 = 400;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') status = 408;
  else if (error.code === 'HPE_HEADER_OVERFLOW') status = requestLineTooLong(error.rawPacket) ? 414 : 431;
  answerAndClose(socket, rawAnswer(status, SERVER_ANSWERS[status]));
}

/** Node's own answers on the server: Expect, CONNECT; and the shutting-down and Host checks as hooks. */
export function registerServerAnswers(app: FastifyInstance): void {
  app.server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const body = answerText(417, SERVER_ANSWERS[417]);
    response.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-content-type-options': 'nosniff',
    });
    response.end(body);
  });
  // A connection silent past its time limit: a request whose body stopped coming is answered 408;
  // anything else (a kept-alive connection between requests, a download the client stopped
  // reading) is closed without a word, as Node closes it: an answer nobody asked for could be
  // taken for the answer to the client's next request. (`parser` and `_httpMessage` are Node's.)
  app.server.on('timeout', (socket: Socket) => {
    const { parser, _httpMessage: response } = socket as Socket & {
      parser?: { incoming?: IncomingMessage | null } | null;
      _httpMessage?: ServerResponse;
    };
    const incoming = parser?.incoming;
    const stalled = incoming != null && !incoming.complete;
    if (stalled && !response?.headersSent) answerAndClose(socket, rawAnswer(408, SERVER_ANSWERS[408]));
    else socket.destroy();
  });
  // CONNECT asks for a tunnel: this is no proxy.
  app.server.on('connect', (_request: IncomingMessage, socket: Duplex) =>
    answerAndClose(socket, rawAnswer(405, SERVER_ANSWERS.connect, { Allow: 'GET, POST, PUT, PATCH, DELETE' })),
  );

  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      reply.header('connection', 'close');
      return done(new HttpError(503, { message: SERVER_ANSWERS.closing, status: 503 }, { 'retry-after': '1' }));
    }
    // Node refuses a Host-less HTTP/1.1 request itself with an empty 400 unless told not to (app.ts); the refusal is made here instead.
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined)
      return done(new HttpError(400, { message: SERVER_ANSWERS.noHost, status: 400 }));
    done();
  });
}
