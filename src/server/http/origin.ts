/**
 * The origin that URLs in answers start with (pagination links, avatar_url). A client's Host
 * header is used only when it names this server: its listen address, a loopback name when it
 * listens on loopback, any address of this machine when it listens on all of them. Anything
 * else (a Host an attacker chose, which a cache or a script would then follow) gets the
 * configured listen address.
 */
import { networkInterfaces } from 'node:os';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLoopbackHost, LOOPBACK_NAMES, urlHost } from '../../api/loopback.js';

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/** The names by which clients may reach a server listening on `host`. */
function namesOf(host: string): string[] {
  const own = urlHost(host);
  if (WILDCARDS.has(own)) {
    const addresses = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .map((entry) => urlHost(entry.address.split('%')[0]));
    return [...LOOPBACK_NAMES, ...addresses];
  }
  return isLoopbackHost(host) ? [own, ...LOOPBACK_NAMES] : [own];
}

/**
 * `originOf(request)` for an app that listens (or will listen) on `listenHost`; before it
 * listens (app.inject in tests) the port is 80 and the host `localhost`.
 */
export function createOriginOf(app: FastifyInstance, listenHost = 'localhost'): (request: FastifyRequest) => string {
  let known: { port: number; listening: boolean; allowed: Set<string>; canonical: string } | undefined;
  const current = () => {
    // Once listening, the port is fixed: no address() system call per request.
    if (known?.listening) return known;
    const address = app.server.address();
    const listening = typeof address === 'object' && address !== null;
    const port = listening ? address.port : 80;
    if (known?.port !== port || known.listening !== listening) {
      const names = namesOf(listenHost);
      const allowed = new Set(names.map((name) => `${name}:${port}`));
      if (port === 80) for (const name of names) allowed.add(name);
      known = { port, listening, allowed, canonical: `http://${urlHost(listenHost)}:${port}` };
    }
    return known;
  };
  return (request) => {
    const { allowed, canonical } = current();
    const host = request.host.toLowerCase();
    return allowed.has(host) ? `http://${host}` : canonical;
  };
}
