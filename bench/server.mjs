// List and get throughput of `wsm serve` at 1M contacts against bare node:http answering a
// same-size JSON body, in the same run.
//   node bench/server.mjs [contacts=1000000] [seconds=10]
import { join } from 'node:path';
import { autocannon, buildDataset, fmt, startBareHttp, startServe, tempDir } from './lib.mjs';

const count = Number(process.argv[2] ?? 1_000_000);
const seconds = Number(process.argv[3] ?? 10);
const dir = tempDir();
const dbPath = join(dir, 'bench.db');

let t = Date.now();
await buildDataset(dbPath, count);
console.log(`dataset: ${count.toLocaleString('en-US')} contacts in ${fmt((Date.now() - t) / 1000)} s`);

const server = await startServe(dir, ['--db', dbPath, '--approval-delay', '0']);
const headers = { authorization: `Bearer ${server.token}` };
const base = `${server.url}/workspaces/${server.workspace}`;
const made = await fetch(`${base}/templates`, {
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'bench_welcome', language: 'en', category: 'UTILITY', body: { text: 'Hello {{1}}, welcome.', variables: ['Ana'] } }),
}).then((r) => r.json());

const lastPage = Math.ceil(count / 10);
const deepPage = Math.min(50_000, lastPage);
const targets = [
  ['list contacts page 1', `${base}/contacts?page=1`],
  [`list contacts page ${deepPage.toLocaleString('en-US')}`, `${base}/contacts?page=${deepPage}`],
  ['get one template', `${base}/templates/${made.data.id}`],
];

for (const [name, url] of targets) {
  const body = await fetch(url, { headers }).then((r) => r.text());
  const bare = await startBareHttp(body);
  const baseline = await autocannon(bare.url, { seconds });
  bare.stop();
  const measured = await autocannon(url, { headers, seconds });
  console.log(
    `${name}: ${fmt(measured.rps, 0)} req/s, p99 ${measured.p99} ms ` +
      `(${fmt(measured.rps / baseline.rps, 2)}x bare node:http at ${fmt(baseline.rps, 0)} req/s, same ${body.length}-byte body)`,
  );
}
await server.stop();
