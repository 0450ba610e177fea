// List and get throughput of `wsm serve` at 1M contacts against bare node:http answering a
// same-size JSON body, in the same run.
//   node bench/server.mjs [contacts=1000000] [seconds=10] [rounds=3] [only: targets whose name holds it]
import { join } from 'node:path';
import { autocannon, buildDataset, fmt, median, startBareHttp, startServe, tempDir } from './lib.mjs';

const count = Number(process.argv[2] ?? 1_000_000);
const seconds = Number(process.argv[3] ?? 10);
const rounds = Number(process.argv[4] ?? 3);
const only = process.argv[5] ?? '';
const dir = tempDir();
const dbPath = join(dir, 'bench.db');

const t = Date.now();
await buildDataset(dbPath, count);
console.log(`dataset: ${count.toLocaleString('en-US')} contacts in ${fmt((Date.now() - t) / 1000)} s`);

const server = await startServe(dir, ['--db', dbPath, '--approval-delay', '0']);
const headers = { authorization: `Bearer ${server.token}` };
const base = `${server.url}/workspaces/${server.workspace}`;
const made = await fetch(`${base}/templates`, {
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify({
    name: 'bench_welcome',
    language: 'en',
    category: 'UTILITY',
    body: { text: 'Hello {{1}}, welcome.', variables: ['Ana'] },
  }),
}).then((r) => r.json());

const lastPage = Math.ceil(count / 10);
const deepPage = Math.min(50_000, lastPage);
const targets = [
  ['list contacts page 1', `${base}/contacts?page=1`],
  [`list contacts page ${deepPage.toLocaleString('en-US')}`, `${base}/contacts?page=${deepPage}`],
  ['get one template', `${base}/templates/${made.data.id}`],
  // Every request another page, so none is answered from the pages kept in memory.
  [`list contacts, a new page each request (1 to ${lastPage.toLocaleString('en-US')})`, `${base}/contacts?page=1`, lastPage],
];

// Rounds of baseline and measured in turn, medians reported: other work on the machine moves
// requests/s from one run to the next, the CPU time each process spends per request much less.
for (const [name, url, pages] of targets.filter(([name]) => name.includes(only))) {
  const body = await fetch(url, { headers }).then((r) => r.text());
  const bare = await startBareHttp(body);
  // Not counted: the server's first seconds under load run slower (V8 still compiling its paths).
  await autocannon(url, { headers, seconds: Math.min(5, seconds), pages });
  const runs = [];
  for (let round = 0; round < rounds; round++) {
    const baseline = await autocannon(bare.url, { seconds, pid: bare.pid });
    const measured = await autocannon(url, { headers, seconds, pid: server.pid, pages });
    runs.push({ baseline, measured, ratio: measured.rps / baseline.rps, cpuRatio: baseline.cpuPerRequestUs / measured.cpuPerRequestUs });
  }
  bare.stop();
  const mid = (get) => median(runs.map(get));
  console.log(
    `${name}: ${fmt(
      mid((r) => r.measured.rps),
      0,
    )} req/s, p99 ${mid((r) => r.measured.p99)} ms ` +
      `(${fmt(
        mid((r) => r.ratio),
        2,
      )}x bare node:http at ${fmt(
        mid((r) => r.baseline.rps),
        0,
      )} req/s, same ${body.length}-byte body; ` +
      `ratios ${runs.map((r) => fmt(r.ratio, 2)).join(', ')}); ` +
      `CPU per request ${fmt(
        mid((r) => r.measured.cpuPerRequestUs),
        0,
      )} µs vs bare ${fmt(
        mid((r) => r.baseline.cpuPerRequestUs),
        0,
      )} µs (${fmt(
        mid((r) => r.cpuRatio),
        2,
      )}x)`,
  );
}
await server.stop();
