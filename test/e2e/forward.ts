import { type IncomingMessage, request, type ServerResponse } from 'node:http';

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
