/**
 * Connections that must not outlive their use: time limits for a request and an idle
 * socket, so that a client sending its body slowly or not at all is dropped; and a closing
 * answer to any error given while the body is still coming, so that the connection is not kept
 * alive waiting for the rest of an upload nobody reads.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface ServerTimeouts {
  /** A whole request, headers and body (Node's requestTimeout; a 100 MB upload fits). */
  requestMs: number;
  /** A socket with no traffic at all. */
  idleMs: number;
  /** An idle kept-alive connection between requests. */
  keepAliveMs: number;
  /** How long an error answer keeps reading (and dropping) the rest of a body before closing. */
  lingerMs: number;
}

export const SERVER_TIMEOUTS: ServerTimeouts = { requestMs: 300_000, idleMs: 60_000, keepAliveMs: 10_000, lingerMs: 5_000 };

/** The fastify options for these limits. Node checks request time limits on an interval: a fraction of the limit. */
export function timeoutOptions(timeouts: ServerTimeouts) {
  return {
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: { connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(timeouts.requestMs / 4))) },
  };
}

/** At most this much more of a refused body is read (and dropped) so that the client sees the answer. */
const LINGER_MAX_BYTES = 8 * 1024 * 1024;

/**
 * A lingering close: the answer goes out with `Connection: close` and a FIN, then the rest of
 * the body is read and dropped until the client stops sending, up to a bound in bytes and
 * time, and only then the socket is destroyed. Closing at once would reset the connection
 * while the client still sends, and clients then report the reset (EPIPE) instead of the answer.
 */
function closeAfterAnswer(request: FastifyRequest, reply: FastifyReply, lingerMs: number): void {
  const raw = request.raw;
  const socket = raw.socket as Socket | null;
  if (raw.complete || raw.destroyed || !socket) return;
  reply.header('connection', 'close');
  // With `Connection: close`, Node ends the socket through destroySoon() once the answer is out.
  socket.destroySoon = () => {
    socket.end();
    let left = LINGER_MAX_BYTES;
    const close = () => socket.destroy();
    const timer = setTimeout(close, lingerMs);
    socket.once('close', () => clearTimeout(timer));
    raw.on('data', (chunk: Buffer) => {
      left -= chunk.length;
      if (left < 0) close();
    });
    raw.once('end', close);
    raw.resume();
  };
}

/**
 * One onSend hook for what every answer needs (a hook per request is the cost, not its body):
 * no answer is ever to be sniffed into another type (an avatar into HTML, say), and an error
 * answered mid-upload closes the connection.
 */
export function registerAnswerHeaders(app: FastifyInstance, timeouts: ServerTimeouts): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    if (reply.statusCode >= 400) closeAfterAnswer(request, reply, timeouts.lingerMs);
    done(null, payload);
  });
}
