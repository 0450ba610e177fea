/**
 * Slow and stalled clients, with raw sockets against a listening server:
 * a client that stops sending mid-body is dropped after the request time limit; an error
 * answered while the body is still coming (no token, a workspace it cannot see, a body too
 * large) reaches the client, and then the connection is closed instead of being kept alive
 * waiting for the rest. The limits are shortened here; `wsm serve` uses the defaults.
 */
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
let port: number;
beforeEach(async () => {
  h = await createHarness({ timeouts: { requestMs: 1500, idleMs: 1500, keepAliveMs: 1000, lingerMs: 500 } });
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  port = (h.app.server.address() as net.AddressInfo).port;
});
afterEach(async () => {
  await h?.close();
});

interface Exchange {
  /** What the server sent before the connection ended. */
  received: string;
  /** How the connection ended: closed by the server, or still open when the test gave up. */
  outcome: 'closed' | 'open';
}

/** Sends `head` and a first part of the body, then nothing more; waits at most `waitMs`. */
function stall(head: string, firstPart: string, waitMs = 8000): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ received, outcome: 'open' });
    }, waitMs);
    socket.on('data', (chunk) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, outcome: 'closed' });
    });
    socket.write(head + firstPart);
  });
}

const BOUNDARY = 'stalledBoundary';
const avatarUpload = (path: string, token: string | null) =>
  [
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${token ? `Authorization: Bearer ${token}\r\n` : ''}`,
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: 1000000\r\n\r\n`,
  ].join('');
const firstPart = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${'x'.repeat(2000)}`;

describe('a client that stalls mid-body', () => {
  it('is dropped after the request time limit (it was kept for ever)', async () => {
    const { outcome } = await stall(avatarUpload(`/api/v3/workspaces/${h.ws}/contacts`, h.token), firstPart);
    expect(outcome).toBe('closed');
  });
});

describe('an error answered before the body is in', () => {
  const cases: Array<[string, () => string, number]> = [
    ['no token (401)', () => avatarUpload(`/api/v3/workspaces/${h.ws}/contacts`, null), 401],
    [
      'a workspace it cannot see (404)',
      () => avatarUpload('/api/v3/workspaces/00000000-0000-4000-8000-000000000000/contacts', h.token),
      404,
    ],
    [
      'a JSON body over the limit (413)',
      () =>
        `POST /api/v3/workspaces/${h.ws}/labels HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${h.token}\r\nContent-Type: application/json\r\nContent-Length: 3000000\r\n\r\n`,
      413,
    ],
  ];
  for (const [name, head, status] of cases) {
    it(`${name}: the answer arrives, then the connection is closed, not kept alive for the rest`, async () => {
      const body = status === 413 ? `{"name":"${'a'.repeat(1_100_000)}` : firstPart;
      const { received, outcome } = await stall(head(), body);
      expect(received).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(received).not.toMatch(/\r\nConnection: keep-alive\r\n/i);
      expect(outcome).toBe('closed');
    });
  }
});
