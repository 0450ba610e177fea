// A proxy on 127.0.0.1 that holds every answer of its target for a fixed delay, as a distant
// server would, and optionally throttles like a rate-limited API (a token bucket of N requests a
// second; beyond it, 429 "Too Many Attempts." with Retry-After: 1). Prints its port, then serves
// until SIGTERM; on exit it prints how many requests it passed and refused.
//   node bench/delay-proxy.mjs <target origin> <delay ms> [requests per second]
import http from 'node:http';

const [target, delayArg = '50', rateArg] = process.argv.slice(2);
if (!target) {
  console.error('usage: node bench/delay-proxy.mjs <target origin> <delay ms> [requests per second]');
  process.exit(2);
}
const delayMs = Number(delayArg);
const rate = rateArg === undefined ? undefined : Number(rateArg);
const upstream = new URL(target);
const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
let tokens = rate ?? 0;
let refilledAt = Date.now();
let passed = 0;
let refused = 0;

function admit() {
  if (rate === undefined) return true;
  const now = Date.now();
  tokens = Math.min(rate, tokens + ((now - refilledAt) / 1000) * rate);
  refilledAt = now;
  if (tokens < 1) return false;
  tokens -= 1;
  return true;
}

const later = (fn) => setTimeout(fn, delayMs);

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (!admit()) {
      refused += 1;
      return later(() => {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end('{"message":"Too Many Attempts."}');
      });
    }
    passed += 1;
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: upstream.host },
        agent,
      },
      (answer) => {
        const body = [];
        answer.on('data', (c) => body.push(c));
        answer.on('end', () =>
          later(() => {
            const headers = { ...answer.headers };
            delete headers['transfer-encoding'];
            headers['content-length'] = String(Buffer.concat(body).length);
            res.writeHead(answer.statusCode ?? 502, headers);
            res.end(Buffer.concat(body));
          }),
        );
      },
    );
    forward.on('error', () => later(() => (res.writeHead(502), res.end())));
    forward.end(Buffer.concat(chunks));
  });
});

server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => {
  console.log(JSON.stringify({ passed, refused }));
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
