import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';

/**
 * The part of a test's proxy that changes nothing: `req` goes on to `upstream` (at `path`, its
 * own by default) with its method, headers and body, and the answer comes back through `res`.
 */
export function forward(upstream: URL, req: IncomingMessage, res: ServerResponse, path = req.url!): void {
  const onward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode!, answer.headers);
    answer.pipe(res);
  });
  req.pipe(onward);
}

/** Makes a record through the API with the token of `req` (someone else, while wsm runs), at `path` of `upstream`. */
async function postMeanwhile(upstream: URL, req: IncomingMessage, path: string, body: object): Promise<void> {
  const made = await fetch(new URL(path, upstream), {
    method: 'POST',
    headers: { authorization: req.headers.authorization!, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  expect(made.status).toBe(201);
}

/**
 * A proxy to `wsm serve` that, as an import is sent, first makes a contact with one of the file's
 * numbers through the API (someone else, while the import runs), then passes the import on.
 */
export async function makesContactFirst(upstream: URL, contact: { number: string; name: string }): Promise<Server> {
  const proxy = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url!.endsWith('/contact-imports'))
      await postMeanwhile(upstream, req, req.url!.replace(/\/contact-imports$/, '/contacts'), contact);
    forward(upstream, req, res);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return proxy;
}

/**
 * A proxy to `wsm serve` that, once armed, first makes a contact group named `name` through the
 * API as the next group create is sent (someone else taking the name meanwhile), then passes it on.
 */
export async function makesGroupFirst(upstream: URL, name: string): Promise<{ proxy: Server; arm(): void }> {
  let armed = false;
  const proxy = createServer(async (req, res) => {
    if (armed && req.method === 'POST' && req.url!.endsWith('/contact-groups')) {
      armed = false;
      await postMeanwhile(upstream, req, req.url!, { name });
    }
    forward(upstream, req, res);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return { proxy, arm: () => (armed = true) };
}

/** A proxy to `upstream` that passes every request on, keeping the body of each import sent (`bodies`, as text) as it goes by. */
export async function keepsImportBodies(upstream: URL): Promise<{ proxy: Server; bodies: string[] }> {
  const bodies: string[] = [];
  const proxy = createServer((req, res) => {
    if (req.method === 'POST' && req.url!.endsWith('/contact-imports')) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => bodies.push(Buffer.concat(chunks).toString('utf8')));
    }
    forward(upstream, req, res);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return { proxy, bodies };
}

/** `env` with wsm sent through `proxy` (the API under /api/v3, as wsm serve serves it), logged in with `login`'s token and workspace. */
export function throughProxy(env: NodeJS.ProcessEnv, proxy: Server, login: { token: string; workspace: string }): NodeJS.ProcessEnv {
  return {
    ...env,
    WSM_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v3`,
    WSM_TOKEN: login.token,
    WSM_WORKSPACE: login.workspace,
  };
}
