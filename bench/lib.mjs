// Shared pieces of the benchmarks: datasets, a real `wsm serve` process, autocannon runs.
// Everything runs on this machine and on 127.0.0.1 only; every process started is stopped.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(ROOT, 'bin/wsm.js');
const dist = (path) => import(join(ROOT, 'dist', path));

export function tempDir(prefix = 'wsm-bench-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function benchEnv(dir) {
  const env = { ...process.env, WSM_CONFIG_DIR: join(dir, 'config'), WSM_DATA_DIR: join(dir, 'data'), NO_COLOR: '1' };
  for (const key of ['WSM_TOKEN', 'WSM_BASE_URL', 'WSM_WORKSPACE', 'WSM_PROFILE']) delete env[key];
  return env;
}

/** Deterministic pseudo-random contact `i`: searchable names, numbers and emails. */
const FIRST = [
  'Ana',
  'Bruno',
  'Carla',
  'Diego',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kemal',
  'Lucia',
  'Mateo',
  'Nadia',
  'Omar',
  'Priya',
];
const LAST = ['Silva', 'Okafor', 'Schmidt', 'Tanaka', 'Rossi', 'Novak', 'Haddad', 'Kowalski', 'Moreau', 'Larsen', 'Costa', 'Ibrahim'];
export function contactRow(i) {
  const name = `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]} ${i}`;
  const number = String(3510000000000 + i * 7919);
  const email = i % 3 === 0 ? '' : `user${i}@mail${i % 50}.example`;
  return { name, number, email };
}

/**
 * A seeded database with `count` contacts, built with the server's own migrations. With
 * WSM_BENCH_DATA=<dir>, the database is built once into that directory and copied from there
 * by later runs (a million contacts take minutes to build on a shared machine); a copy made
 * under older migrations is brought up to date when the server opens it.
 */
export async function buildDataset(dbPath, count) {
  const cacheDir = process.env.WSM_BENCH_DATA;
  if (!cacheDir) return buildFresh(dbPath, count);
  const cached = join(cacheDir, `contacts-${count}.db`);
  if (!existsSync(cached)) {
    mkdirSync(cacheDir, { recursive: true });
    const building = `${cached}.building-${process.pid}`;
    await buildFresh(building, count);
    const { openDatabase } = await dist('server/db.js');
    const db = openDatabase(building);
    db.pragma('wal_checkpoint(TRUNCATE)'); // one file to copy
    db.close();
    for (const suffix of ['-wal', '-shm']) rmSync(`${building}${suffix}`, { force: true });
    renameSync(building, cached);
  }
  copyFileSync(cached, dbPath);
  const { openDatabase } = await dist('server/db.js');
  const { seed } = await dist('server/seed.js');
  const db = openDatabase(dbPath);
  const seeded = await seed(db);
  db.close();
  return seeded;
}

async function buildFresh(dbPath, count) {
  const { openDatabase } = await dist('server/db.js');
  const { seed } = await dist('server/seed.js');
  const { searchKey } = await dist('server/repositories/search-key.js');
  const db = openDatabase(dbPath);
  const seeded = await seed(db);
  // The search keys beside each contact, folded as the server folds them (migration 009).
  const insert = db.prepare(
    'INSERT INTO contacts (workspace_id, number, name, name_key, email, email_key, gender, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, NULL, 1, ?, ?)',
  );
  const now = new Date().toISOString();
  const batch = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const row = contactRow(i);
      insert.run(
        seeded.workspaceId,
        row.number,
        row.name,
        searchKey(row.name),
        row.email || null,
        row.email ? searchKey(row.email) : null,
        now,
        now,
      );
    }
  });
  for (let i = 0; i < count; i += 10_000) batch(i, Math.min(count, i + 10_000));
  // The search index catches up behind the rows (migration 011): all of them in one slice.
  const { createSearchIndex } = await dist('server/repositories/search-index.js');
  createSearchIndex(db).catchUp(Number.MAX_SAFE_INTEGER);
  db.close();
  return seeded;
}

/** Starts the real `wsm serve` (or `bin`: another build's bin/wsm.js) and reads its URL and the saved local profile. */
export async function startServe(dir, args = [], { bin = BIN } = {}) {
  const env = benchEnv(dir);
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (c) => {
      out += c;
      const m = /Listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`wsm serve exited ${code}: ${err}`)));
  });
  const config = JSON.parse(readFileSync(join(env.WSM_CONFIG_DIR, 'config.json'), 'utf8'));
  const { token, workspace } = config.profiles.local;
  const stopped = new Promise((resolve) => child.on('exit', resolve));
  const killAtExit = () => child.kill('SIGKILL');
  process.on('exit', killAtExit);
  return {
    url,
    token,
    workspace,
    env,
    pid: child.pid,
    async stop() {
      process.off('exit', killAtExit);
      child.kill('SIGTERM');
      await stopped;
    },
  };
}

/**
 * bench/delay-proxy.mjs in its own process (so that its timers do not share a thread with what is
 * measured), in front of the API at `apiUrl`: `url` is the API's URL through the proxy; `stop()`
 * gives the proxy's counts of requests passed and refused.
 */
export async function startDelayProxy(apiUrl, delayMs, rate) {
  const api = new URL(apiUrl);
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bench/delay-proxy.mjs'), api.origin, String(delayMs), ...(rate ? [String(rate)] : [])],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = [];
  child.stdout.on('data', (c) => lines.push(...String(c).trim().split('\n')));
  while (lines.length === 0) await new Promise((r) => setTimeout(r, 20));
  process.on('exit', () => child.kill('SIGKILL'));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    url: `http://127.0.0.1:${lines[0]}${api.pathname}`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      return JSON.parse(lines.at(-1));
    },
  };
}

/**
 * Runs the real `wsm` binary with `env` (a serve's profile); resolves with code, stdout, stderr, ms, peak RSS MB.
 * `bin`: another build's bin/wsm.js (a before in the same run as its after).
 */
export function runWsm(args, env, { stdout = 'pipe', bin = BIN } = {}) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', stdout, 'pipe'] });
    let out = '';
    let err = '';
    let bytes = 0;
    let peak = 0;
    // VmHWM is gone once the process exits: sample it while it runs.
    const sampler = setInterval(() => (peak = Math.max(peak, peakRssMb(child.pid) || 0)), 20);
    if (child.stdout) {
      child.stdout.on('data', (c) => {
        bytes += c.length;
        if (out.length < 1_000_000) out += c;
      });
    }
    child.stderr.on('data', (c) => {
      if (err.length < 1_000_000) err += c;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(sampler);
      resolve({ code, out, err, bytes, peakMb: peak, ms: Number(process.hrtime.bigint() - start) / 1e6 });
    });
  });
}

/** Peak RSS of a process so far (Linux: VmHWM), in MB. */
export function peakRssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

/**
 * autocannon in its own process (10 connections, `seconds`), resolving with requests/s (average).
 * Awaited, not run with spawnSync: a blocked event loop cannot see a kept-alive connection of
 * this process closed by the server meanwhile, and the next fetch would be written onto it
 * (`fetch failed: other side closed`, what stopped bench/server.mjs after its first figure).
 */
export async function autocannon(url, { headers = {}, seconds = 10, connections = 10, pid, pages } = {}) {
  const cpuBefore = pid === undefined ? 0 : cpuMs(pid);
  const args = [join(ROOT, 'node_modules/autocannon/autocannon.js'), '-c', String(connections), '-d', String(seconds), '-j'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  args.push(url);
  const child =
    pages === undefined
      ? spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
      : cyclingPages(url, { headers, seconds, connections, pages });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`autocannon failed: ${err}`);
  const json = JSON.parse(out);
  if (json.non2xx > 0 || json.errors > 0) throw new Error(`${url}: ${json.non2xx} non-2xx answers, ${json.errors} errors`);
  const cpuPerRequestUs = pid === undefined ? NaN : ((cpuMs(pid) - cpuBefore) * 1000) / json.requests.total;
  return { rps: json.requests.average, p99: json.latency.p99, cpuPerRequestUs };
}

/**
 * autocannon asking `url` with its `page` parameter going 1, 2, ... `pages` and round again, each
 * request the next page (through autocannon's API, which the command line does not offer).
 */
function cyclingPages(url, { headers, seconds, connections, pages }) {
  const code = `
    const autocannon = require(${JSON.stringify(join(ROOT, 'node_modules/autocannon'))});
    const url = new URL(${JSON.stringify(url)});
    let next = 0;
    const path = () => { url.searchParams.set('page', String((next++ % ${pages}) + 1)); return url.pathname + url.search; };
    autocannon({ url: url.origin, connections: ${connections}, duration: ${seconds}, headers: ${JSON.stringify(headers)},
      requests: [{ setupRequest: (request) => ({ ...request, path: path() }) }] }, (error, result) => {
      if (error) throw error;
      console.log(JSON.stringify(result));
    });`;
  return spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * CPU time a process has used (Linux: utime + stime of /proc/<pid>/stat), in ms. Per request,
 * it is steadier than requests/s on a machine whose other work takes the CPU from both sides.
 */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // fields 14 and 15; USER_HZ is 100 on Linux
}

/** A bare node:http server in its own process answering every request with `body`. */
export async function startBareHttp(body) {
  const code = `
    const http = require('node:http');
    const body = Buffer.from(process.env.BODY);
    const server = http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }); res.end(body); });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['-e', code], { env: { ...process.env, BODY: body }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => child.stdout.once('data', (c) => resolve(Number(String(c).trim()))));
  process.on('exit', () => child.kill('SIGKILL'));
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const fmt = (n, digits = 1) => Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** A `wsm serve` in `dir` on a seeded database of `count` contacts, and the environment of a `wsm` run against it. */
export async function serveContacts(dir, count, { bin = BIN } = {}) {
  const db = join(dir, 'wsm.db');
  await buildDataset(db, count);
  const server = await startServe(join(dir, 'serve'), ['--db', db, '--approval-delay', '0'], { bin });
  return { server, env: { ...server.env, WSM_BASE_URL: server.url, WSM_TOKEN: server.token, WSM_WORKSPACE: server.workspace } };
}

const CPU_AT_EXIT = fileURLToPath(new URL('./cpu-at-exit.cjs', import.meta.url));

/**
 * `wsm <args>` as runWsm runs it, which must exit 0; with the CLI's own CPU time (user + system,
 * read at its exit into `cpuFile`): steadier than wall time on a shared machine.
 */
export async function runWsmCpu(args, env, cpuFile) {
  const result = await runWsm(args, { ...env, NODE_OPTIONS: `-r ${CPU_AT_EXIT}`, WSM_BENCH_CPU: cpuFile });
  if (result.code !== 0) throw new Error(`wsm ${args[0]} ${args[1]} exited ${result.code}: ${result.err.slice(0, 500)}`);
  return { ms: result.ms, cpu: Number(readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1)) };
}

/** Writes `header` then `count` lines, line i given by `lineOf(i)` (with its line end), 1 MiB at a time; resolves to `path`. */
export async function writeLines(path, header, count, lineOf) {
  const out = createWriteStream(path);
  out.write(header);
  let chunk = '';
  for (let i = 0; i < count; i++) {
    chunk += lineOf(i);
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return path;
}
