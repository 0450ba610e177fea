// Search latency through the HTTP API of a real `wsm serve` over N contacts: p50/p99 of 200
// random substring searches (names, numbers, e-mails), against the same queries as a bare
// better-sqlite3 LIKE scan, in the same run; every answer must equal the LIKE baseline
// (ids of page 1 and the total). The rule (docs/decisions.md, "Search: text and a number's digits"): the text in
// name, number or e-mail, or, for a query written as a phone number is, its digits in the number.
// Then 50 numbers written with separators (`+351 000 123-45`), the text and digits paths at once,
// timed and checked the same way. The page and its exact total come in one answer: the time of
// each is read from the answer's Server-Timing header, measured in the server around the page's
// query and around the count (the round trip is printed beside them).
// Before the queries, the bench waits for the server's copy of the workspace's search keys
// (repositories/key-scan.ts, made after the first dense search) and says how long that took
// and what it added to the server's memory.
// Then the cost of walking every page of a search that matches many contacts.
// WSM_BENCH_BEFORE=<an older build's bin/wsm.js> starts that build's server too, on its own copy of
// the database, and measures both in turn in each of [rounds] rounds (the order alternating), so
// that before and after share the machine's load; each figure is then the median of the rounds.
//   node bench/search.mjs [contacts=1000000] [queries=200] [rounds=1]
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDataset, contactRow, fmt, median, ROOT, startServe, tempDir } from './lib.mjs';

const count = Number(process.argv[2] ?? 1_000_000);
const queries = Number(process.argv[3] ?? 200);
const rounds = Number(process.argv[4] ?? 1);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');
console.log(`load average at the start: ${load()}`);
const dir = tempDir();
const dbPath = join(dir, 'bench.db');
await buildDataset(dbPath, count);

// Deterministic "random" substrings of 4 to 8 characters of a random contact's name, number or e-mail.
let seed = 12345;
const rand = (n) => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
const picks = [];
while (picks.length < queries) {
  const row = contactRow(rand(count));
  const value = [row.name, row.number, row.email][picks.length % 3];
  if (!value) continue;
  const length = Math.min(value.length, 4 + rand(5));
  const start = rand(value.length - length + 1);
  picks.push(value.slice(start, start + length));
}

// Digits of a contact's number written as people write numbers: `+351 000 1234`, `(000) 123-45`, `000.123.45`.
const numberPicks = [];
const FORMATS = [
  (d) => `+${d.slice(0, 3)} ${d.slice(3, 6)} ${d.slice(6)}`,
  (d) => `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`,
  (d) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`,
  (d) => `${d.slice(0, 4)}-${d.slice(4)}`,
];
while (numberPicks.length < 50) {
  const digits = contactRow(rand(count)).number;
  const length = 7 + rand(6);
  const start = rand(digits.length - length + 1);
  numberPicks.push(FORMATS[numberPicks.length % FORMATS.length](digits.slice(start, start + length)));
}

const pct = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];
const escape = (q) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The digits of a query written as a phone number is (digits, spaces, - . ( ) and a leading +), or none. */
const numberDigits = (q) => (/^\+?[\d\s\-.()]*\d[\d\s\-.()]*$/.test(q.trim()) ? q.replace(/\D/g, '') : undefined);

// Baseline: the LIKE scan, page 1 (10 ids) and the total.
const Database = (await import(pathToFileURL(join(ROOT, 'node_modules/better-sqlite3/lib/index.js')).href)).default;
const bare = new Database(dbPath, { readonly: true });
const ws = bare.prepare('SELECT id FROM workspaces LIMIT 1').pluck().get();
const where = `workspace_id = ? AND (name LIKE ? ESCAPE '\\' OR number LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' OR number LIKE ?)`;
const likeIds = bare.prepare(`SELECT id FROM contacts WHERE ${where} ORDER BY id LIMIT 10`).pluck();
const likeCount = bare.prepare(`SELECT count(*) FROM contacts WHERE ${where}`).pluck();
const baseline = (queries) => {
  const expected = [];
  const ms = [];
  for (const q of queries) {
    const p = escape(q);
    const digits = numberDigits(q);
    const d = digits === undefined ? p : `%${digits}%`;
    const t = performance.now();
    const ids = likeIds.all(ws, p, p, p, d);
    const total = likeCount.get(ws, p, p, p, d);
    ms.push(performance.now() - t);
    expected.push({ ids, total });
  }
  return { expected, ms };
};
const { expected, ms: likeMs } = baseline(picks);
const numbersBaseline = baseline(numberPicks);
bare.close();

/** One build's server, ready to measure: started on its own copy of the database, its key copy counting. */
async function ready(name, bin) {
  const own = join(dir, name);
  const db = join(own, 'bench.db');
  mkdirSync(own);
  copyFileSync(dbPath, db);
  const server = await startServe(own, ['--db', db, '--approval-delay', '0'], { bin });
  const headers = { authorization: `Bearer ${server.token}` };
  const base = `${server.url}/workspaces/${server.workspace}/contacts`;
  /** One search: its body and the server's own timing (Server-Timing: page;dur=…;desc="…", total;dur=…;desc="…"). */
  const search = async (q) => {
    const res = await fetch(`${base}?search=${encodeURIComponent(q)}`, { headers });
    const timing = res.headers.get('server-timing') ?? '';
    const dur = (field) => Number(new RegExp(`(?:^|, )${field};dur=([\\d.]+)`).exec(timing)?.[1] ?? NaN);
    return {
      body: await res.json(),
      page: dur('page'),
      total: dur('total'),
      source: /total;dur=[\d.]+;desc="(\w+)"/.exec(timing)?.[1] ?? 'none',
    };
  };
  const rssMb = () => {
    try {
      const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
      return ['VmRSS', 'VmHWM'].map((field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)[1]) / 1024);
    } catch {
      return [NaN, NaN];
    }
  };
  /** CPU time of the server's main thread (where SQLite runs), in ms: steadier than wall time on a loaded machine. */
  const serverCpuMs = () => {
    try {
      return Number(readFileSync(`/proc/${server.pid}/task/${server.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    } catch {
      return NaN;
    }
  };
  for (let i = 0; i < 20; i++) await search(`warm${i}`); // warm the connection and the JIT with other queries
  // Dense queries longer than any pick (`0.example`: one contact in 15), until the key copy counts
  // one. A total is kept until the database changes, so each round adds a contact field (no
  // contact changes) before asking again.
  const [rssBefore] = rssMb();
  const copyStart = performance.now();
  let copied = false;
  for (let n = 0; n < 1200 && !copied; n++) {
    const probe = await search(`${n % 10}.example`);
    copied = probe.source === 'keys';
    if (copied || probe.source === 'none') break; // counting, or a server that does not say
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (n % 10 === 9)
      await fetch(`${server.url}/workspaces/${server.workspace}/contact-fields`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `warm_${[...String(n)].map((d) => 'abcdefghij'[d]).join('')}` }),
      }); // lowercase letters only
  }
  const [rssAfter, rssPeak] = rssMb();
  console.log(
    `${name}: ` +
      (copied
        ? `key copy counting ${fmt((performance.now() - copyStart) / 1000, 1)} s after the first dense search; server RSS ${fmt(rssBefore, 0)} -> ${fmt(rssAfter, 0)} MB (peak so far ${fmt(rssPeak, 0)} MB)`
        : 'key copy: not counting (a workspace below its size threshold, or a server without one)'),
  );
  return { name, server, headers, base, search, rssMb, serverCpuMs };
}

/** Each query once, timed, its answer checked against the baseline's. */
const measure = async ({ search, serverCpuMs }, queries, expectedOf) => {
  const m = { apiMs: [], cpuMs: [], pageMs: [], totalMs: [], sources: {}, mismatches: 0, slowest: [] };
  for (const [i, q] of queries.entries()) {
    const cpu = serverCpuMs();
    const t = performance.now();
    const { body, page, total, source } = await search(q);
    m.apiMs.push(performance.now() - t);
    m.cpuMs.push(serverCpuMs() - cpu);
    m.pageMs.push(page);
    m.totalMs.push(total);
    m.slowest.push({ q, total, source });
    m.sources[source] = (m.sources[source] ?? 0) + 1;
    const got = { ids: body.data.map((c) => c.id), total: body.meta.total };
    if (JSON.stringify(got) !== JSON.stringify(expectedOf[i])) {
      m.mismatches += 1;
      if (m.mismatches <= 5)
        console.error(`mismatch for ${JSON.stringify(q)}: ${JSON.stringify(got)} vs LIKE ${JSON.stringify(expectedOf[i])}`);
    }
  }
  m.slowest = m.slowest.sort((a, b) => b.total - a.total).slice(0, 3);
  return m;
};

// Walking every page of a search that matches one contact in seven (`wsm contacts list --all
// --search`), against walking the same number of pages of the whole list: what each search page
// costs beyond a plain page once its total is known.
const walk = async ({ base, headers }, query, pages) => {
  const t = performance.now();
  const pageMs = [];
  for (let page = 1; page <= pages; page++) {
    const p = performance.now();
    const body = await fetch(`${base}?per_page=100&page=${page}${query ? `&search=${encodeURIComponent(query)}` : ''}`, { headers }).then(
      (r) => r.json(),
    );
    pageMs.push(performance.now() - p);
    if (page === 1) pages = Math.min(pages, body.meta.last_page);
  }
  return { ms: performance.now() - t, pages, pageMs };
};
const walkQuery = '@mail1'; // @mail1.example and @mail10..19.example: about one contact in seven

let fieldsMade = 0;
/** One round of one build: the random substrings, the numbers, then the walk against the plain list's. */
async function round(build) {
  // A write (a contact field: no contact changes) so that no total or page is kept from a round before.
  await fetch(`${build.server.url}/workspaces/${build.server.workspace}/contact-fields`, {
    method: 'POST',
    headers: { ...build.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `round_${[...String(fieldsMade++)].map((d) => 'abcdefghij'[d]).join('')}` }),
  });
  const all = await measure(build, picks, expected);
  const numbers = await measure(build, numberPicks, numbersBaseline.expected);
  const searched = await walk(build, walkQuery, 200);
  const plain = await walk(build, undefined, searched.pages);
  return { all, numbers, searched, plain, rss: build.rssMb(), load: load() };
}

const builds = [await ready('after', undefined)];
if (process.env.WSM_BENCH_BEFORE) builds.push(await ready('before', process.env.WSM_BENCH_BEFORE));
const results = new Map(builds.map((b) => [b.name, []]));
for (let r = 0; r < rounds; r++) {
  for (const build of r % 2 ? [...builds].reverse() : builds) results.get(build.name).push(await round(build));
}
for (const build of builds) await build.server.stop();

let failed = false;
const med = (rs, f) => median(rs.map(f));
for (const [name, rs] of results) {
  const each = (f, digits = 2) => `${fmt(med(rs, f), digits)}${rs.length > 1 ? ` (${rs.map((x) => fmt(f(x), digits)).join(', ')})` : ''}`;
  const sources = rs
    .map(({ all }) =>
      Object.entries(all.sources)
        .map(([n, k]) => `${n} ${k}`)
        .join(', '),
    )
    .join('; ');
  console.log(`${name}, ${rs.length} round(s), load average after each: ${rs.map((x) => x.load).join(' / ')}`);
  console.log(
    `  search ${queries} random substrings over ${count.toLocaleString('en-US')} contacts via HTTP: p50 ${each(({ all }) => pct(all.apiMs, 50))} ms, p99 ${each(({ all }) => pct(all.apiMs, 99))} ms ` +
      `(bare LIKE scan: p50 ${fmt(pct(likeMs, 50), 2)} ms, p99 ${fmt(pct(likeMs, 99), 2)} ms)`,
  );
  console.log(
    `  server CPU per search (main thread): p50 ${each(({ all }) => pct(all.cpuMs, 50))} ms, p99 ${each(({ all }) => pct(all.cpuMs, 99))} ms`,
  );
  console.log(
    `  in the server (Server-Timing): page p50 ${each(({ all }) => pct(all.pageMs, 50))} ms, p99 ${each(({ all }) => pct(all.pageMs, 99))} ms; ` +
      `exact total p50 ${each(({ all }) => pct(all.totalMs, 50))} ms, p99 ${each(({ all }) => pct(all.totalMs, 99))} ms; totals counted by ${sources}`,
  );
  console.log(
    `  slowest totals: ${rs.map(({ all }) => all.slowest.map((s) => `${JSON.stringify(s.q)} ${fmt(s.total, 1)} ms (${s.source})`).join(', ')).join('; ')}`,
  );
  console.log(
    `  walk ${rs[0].searched.pages} pages of 100 of search ${JSON.stringify(walkQuery)}: ${each(({ searched }) => searched.ms / searched.pages)} ms a page ` +
      `(the plain list: ${each(({ plain }) => plain.ms / plain.pages)} ms a page; ${each(({ searched, plain }) => searched.ms / plain.ms, 1)}x); ` +
      `pages after the first: p99 ${each(({ searched }) => pct(searched.pageMs.slice(1), 99))} ms`,
  );
  console.log(
    `  numbers written with separators, ${numberPicks.length} (e.g. ${JSON.stringify(numberPicks[0])}): p50 ${each(({ numbers }) => pct(numbers.apiMs, 50))} ms, p99 ${each(({ numbers }) => pct(numbers.apiMs, 99))} ms ` +
      `(bare LIKE scan: p50 ${fmt(pct(numbersBaseline.ms, 50), 2)} ms); page p99 ${each(({ numbers }) => pct(numbers.pageMs, 99))} ms, total p99 ${each(({ numbers }) => pct(numbers.totalMs, 99))} ms`,
  );
  console.log(`  server RSS at the end: ${each(({ rss }) => rss[0], 0)} MB, peak ${each(({ rss }) => rss[1], 0)} MB`);
  const mismatches = rs.reduce((sum, { all, numbers }) => sum + all.mismatches + numbers.mismatches, 0);
  console.log(`  search results identical to LIKE (page 1 ids + total): ${mismatches === 0 ? 'yes' : `NO, ${mismatches} differ`}`);
  failed ||= mismatches > 0;
}
if (failed) process.exitCode = 1;
