// `wsm` against a distant service: a real `wsm serve` holding N contacts behind a proxy that
// delays every answer by 50 ms (bench/delay-proxy.mjs). In the same run, medians of R rounds:
// - `wsm contacts export` and `wsm contacts list --all -o ndjson` (the real binary, default
//   concurrency) against plain scripts reading the same list with fetch (bench/bare-walker.mjs),
//   one page at a time and 8 in flight, each a process of its own like wsm (start-up included on
//   both sides); the export's bytes are compared with `wsm contacts export --concurrency 1`;
// - a 429 case: the proxy lets T requests a second through, the export's -v trace shows the
//   window adapting, and its bytes are compared with the sequential export (nothing lost or doubled);
// - `wsm contacts delete --from` of D ids against a bare loop deleting one id after another.
// A deletes or throttle-rps of 0 leaves that part out.
//   node bench/remote.mjs [contacts=20000] [deletes=2000] [rounds=3] [delay-ms=50] [throttle-rps=40]
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, buildDataset, fmt, median, ROOT, startDelayProxy, startServe, tempDir } from './lib.mjs';

const [count = 20_000, deletes = 2_000, rounds = 3, delayMs = 50, throttleRps = 40] = process.argv.slice(2).map(Number);
const dir = tempDir('wsm-bench-remote-');
const dbPath = join(dir, 'bench.db');
await buildDataset(dbPath, count);
const server = await startServe(dir, ['--db', dbPath, '--approval-delay', '0']);

const startProxy = (rate) => startDelayProxy(server.url, delayMs, rate);

const auth = { authorization: `Bearer ${server.token}`, accept: 'application/json' };

/** A plain script walking the list (bench/bare-walker.mjs) with `inFlight` requests out; returns ms and rows. */
async function bareWalk(base, inFlight) {
  const listUrl = `${base}/workspaces/${server.workspace}/contacts`;
  const result = await run([join(ROOT, 'bench/bare-walker.mjs'), listUrl, String(inFlight)], base);
  if (result.code !== 0) throw new Error(`the bare walker exited ${result.code}: ${result.err.slice(-2000)}`);
  return { ms: result.ms, rows: result.lines };
}

/** The real `wsm` against `base`, stdout into a file; returns ms, exit code, stderr and the output's sha256 and lines. */
const wsm = (base, args, options) => run([BIN, ...args], base, options);

/** A node process with the serve's profile pointed at `base`, stdout into a file. */
function run(nodeArgs, base, { input } = {}) {
  const file = join(dir, `out-${Math.random().toString(36).slice(2)}`);
  const fd = openSync(file, 'w');
  const env = { ...server.env, WSM_BASE_URL: base, WSM_TOKEN: server.token, WSM_WORKSPACE: server.workspace };
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, nodeArgs, { env, stdio: ['pipe', fd, 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.stdin.end(input ?? '');
    child.on('exit', (code) => {
      const ms = performance.now() - start;
      closeSync(fd);
      const out = readFileSync(file);
      resolve({
        ms,
        code,
        err,
        sha: createHash('sha256').update(out).digest('hex'),
        lines: out.toString('utf8').split('\n').filter(Boolean).length,
      });
    });
  });
}

const must = (result, what) => {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}: ${result.err.slice(-2000)}`);
  return result;
};

const times = { sequential: [], eight: [], exportDefault: [], allDefault: [], export6: [], export12: [] };
let reference;
const proxy = await startProxy();
try {
  // The sequential export, once: the bytes every other export must match.
  reference = must(await wsm(proxy.url, ['contacts', 'export', '--concurrency', '1']), 'sequential export');
  for (let round = 1; round <= rounds; round++) {
    const seq = await bareWalk(proxy.url, 1);
    const eight = await bareWalk(proxy.url, 8);
    if (seq.rows !== count || eight.rows !== count) throw new Error(`walkers read ${seq.rows} and ${eight.rows} rows, not ${count}`);
    const exported = must(await wsm(proxy.url, ['contacts', 'export']), 'export');
    if (exported.sha !== reference.sha) throw new Error('the export differs from the sequential export');
    const all = must(await wsm(proxy.url, ['contacts', 'list', '--all', '-o', 'ndjson']), 'list --all');
    if (all.lines !== count) throw new Error(`list --all wrote ${all.lines} rows, not ${count}`);
    const export6 = must(await wsm(proxy.url, ['contacts', 'export', '--concurrency', '6']), 'export --concurrency 6');
    const export12 = must(await wsm(proxy.url, ['contacts', 'export', '--concurrency', '12']), 'export --concurrency 12');
    if (export6.sha !== reference.sha || export12.sha !== reference.sha) throw new Error('an export differs from the sequential export');
    times.sequential.push(seq.ms);
    times.eight.push(eight.ms);
    times.exportDefault.push(exported.ms);
    times.allDefault.push(all.ms);
    times.export6.push(export6.ms);
    times.export12.push(export12.ms);
    console.error(
      `round ${round}: sequential ${fmt(seq.ms / 1000, 2)} s, 8 in flight ${fmt(eight.ms / 1000, 2)} s, export ${fmt(exported.ms / 1000, 2)} s, --all ${fmt(all.ms / 1000, 2)} s, export -c 6 ${fmt(export6.ms / 1000, 2)} s, -c 12 ${fmt(export12.ms / 1000, 2)} s`,
    );
  }
} finally {
  await proxy.stop();
}

const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
const s = (ms) => `${fmt(ms / 1000, 2)} s`;
console.log(`${count.toLocaleString('en-US')} contacts, ${delayMs} ms added to every answer, medians of ${rounds}:`);
console.log(`  baseline: plain scripts (start-up included, as for wsm): sequential ${s(m.sequential)}, 8 in flight ${s(m.eight)}`);
for (const [label, key] of [
  ['wsm contacts export (default, 8 in flight)', 'exportDefault'],
  ['wsm contacts list --all -o ndjson', 'allDefault'],
  ['wsm contacts export --concurrency 6', 'export6'],
  ['wsm contacts export --concurrency 12', 'export12'],
]) {
  console.log(
    `  ${label}: ${s(m[key])} = ${fmt(m[key] / m.eight, 2)}x the time of the 8-in-flight script, ${fmt(m.sequential / m[key], 1)}x as fast as the sequential one`,
  );
}
console.log(`  every export byte-identical to \`wsm contacts export --concurrency 1\` (${reference.lines.toLocaleString('en-US')} lines)`);

// 429: the proxy lets `throttleRps` requests a second through.
if (throttleRps > 0) {
  const throttled = await startProxy(throttleRps);
  let stats;
  let slow;
  try {
    slow = must(await wsm(throttled.url, ['contacts', 'export', '-v']), 'throttled export');
  } finally {
    stats = await throttled.stop();
  }
  const windowLines = slow.err.split('\n').filter((line) => /^\* (4\d\d on |window )/.test(line));
  const halvings = windowLines.filter((line) => / on /.test(line)).length;
  console.log(
    `429 case (${throttleRps} requests/s let through): export in ${s(slow.ms)}, ${stats.refused} answers 429, window halved ${halvings}x and grew back ${windowLines.length - halvings}x; ` +
      `${slow.sha === reference.sha ? 'byte-identical to the sequential export (nothing lost, nothing doubled)' : 'DIFFERENT from the sequential export'}`,
  );
  console.log(`  window trace (first lines): ${windowLines.slice(0, 4).join(' | ')}`);
}

// Bulk delete: fresh ids each time (the dataset's ids 1..count), wsm and the bare loop in turn.
if (deletes > 0) {
  const bulk = { wsm: [], loop: [] };
  const deleteProxy = await startProxy();
  try {
    let nextId = 1;
    const take = () => Array.from({ length: deletes }, () => nextId++);
    for (let round = 1; round <= rounds; round++) {
      const ids = take();
      const listFile = join(dir, `ids-${round}.txt`);
      writeFileSync(listFile, ids.join('\n') + '\n');
      const deleted = must(await wsm(deleteProxy.url, ['contacts', 'delete', '--from', listFile, '--yes', '-o', 'ndjson']), 'bulk delete');
      if (deleted.lines !== deletes) throw new Error(`bulk delete reported ${deleted.lines} items, not ${deletes}`);
      bulk.wsm.push(deleted.ms);
      const loopIds = take();
      const start = performance.now();
      for (const id of loopIds) {
        const res = await fetch(`${deleteProxy.url}/workspaces/${server.workspace}/contacts/${id}`, { method: 'DELETE', headers: auth });
        if (res.status !== 200) throw new Error(`DELETE ${id}: ${res.status}`);
        await res.arrayBuffer();
      }
      bulk.loop.push(performance.now() - start);
      console.error(`bulk round ${round}: wsm ${fmt(deleted.ms / 1000, 2)} s, sequential loop ${fmt(bulk.loop.at(-1) / 1000, 2)} s`);
    }
  } finally {
    await deleteProxy.stop();
  }
  const bw = median(bulk.wsm);
  const bl = median(bulk.loop);
  console.log(
    `bulk delete of ${deletes.toLocaleString('en-US')} ids: wsm contacts delete --from ${s(bw)} = ${fmt(bl / bw, 1)}x the sequential loop (${s(bl)})`,
  );
}
await server.stop();
