// End-to-end contact import: a generated CSV through the real `wsm contacts import <file> --wait`
// against a real `wsm serve`, against a bare better-sqlite3 script inserting the same rows in
// one transaction into the same schema (table, indexes, search index), in the same run.
// Right after the import, a search through the API while the search index still catches up
// behind it (migration 011), checked against the generated rows; then how long the index takes
// to catch up, and the server's peak RSS over the import and the catch-up.
// Then the 1%-bad-rows variant: every bad row counted, the first 100 reported, no good row lost.
// Last, the same clean file without --apply-flagged (planned, to hold the changes a spreadsheet may
// have made: imports/import-plan.ts) against with it (sent at once, checked while the server
// works), taken in turn for `rounds` rounds (medians): the cost of the plan. The file is clean, so
// the plan is made while the server works (imports/hold-scan.ts); then the same with one cell in
// scientific notation, which the plan holds: found by one pass before the upload (imports/hold-pass.ts).
// WSM_BENCH_BEFORE=<an older build's bin/wsm.js> runs its CLI and its server too, in the same rounds.
// `sections` (all by default) names the parts to run, comma-separated: import (the clean and the 1%-bad
// imports), clean, held and quoted (the plan's cost of each file; quoted: every name quoted), sheet-held (the held
// file's rows as an .xlsx, written by wsm's own writer: at most a sheet's 1,048,575 rows); the bare insert is always first.
//   node bench/import.mjs [rows=1000000] [rounds=3] [sections=import,clean,held,quoted,sheet-held]
import { createWriteStream, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { contactRow, fmt, median, peakRssMb, ROOT, runWsm, startServe, tempDir, writeLines } from './lib.mjs';

const count = Number(process.argv[2] ?? 1_000_000);
const rounds = Number(process.argv[3] ?? 3);
const sections = new Set((process.argv[4] ?? 'import,clean,held,quoted,sheet-held').split(','));
const before = process.env.WSM_BENCH_BEFORE;
const dir = tempDir();
const dist = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);
const isBad = (i) => i % 100 === 50;

/** `bad`: 1% of the numbers invalid; `held`: row 2's name in scientific notation (a cell the plan holds); `quoted`: every name quoted, a comma in it. */
function writeCsv(path, bad, held = false, quoted = false) {
  return writeLines(path, 'number,name,email\n', count, (i) => {
    const row = contactRow(i);
    const name = held && i === 0 ? '3.51E+12' : quoted ? `"${row.name.replace(' ', ', ')}"` : row.name;
    return `${bad && isBad(i) ? `bad-${i}` : row.number},${name},${row.email}\n`;
  });
}

/** The held file's rows as an .xlsx of text cells, written as `contacts export -o xlsx` writes one. */
async function writeSheet(path) {
  const { writeXlsx } = await dist('formats/xlsx/sheet-writer.js');
  const out = createWriteStream(path);
  const sink = { write: (bytes) => new Promise((resolve) => (out.write(bytes) ? resolve() : out.once('drain', resolve))) };
  async function* pages() {
    for (let i = 0; i < count; i += 1000) {
      const page = [];
      for (let j = i; j < Math.min(count, i + 1000); j++) {
        const row = contactRow(j);
        page.push([row.number, j === 0 ? '3.51E+12' : row.name, row.email]);
      }
      yield page;
    }
  }
  await writeXlsx(sink, { sheetName: 'Contacts', header: ['number', 'name', 'email'], rows: pages(), sample: [] });
  await new Promise((resolve) => out.end(resolve));
}

/**
 * The baseline: the same rows, one transaction, then the search index in bulk (what an import
 * did inline before the index caught up behind it, migration 011); the search keys (migration 009) are SQLite's own lower(), the least a key can cost.
 */
async function bareInsert() {
  const { openDatabase } = await dist('server/db.js');
  const { seed } = await dist('server/seed.js');
  const db = openDatabase(join(dir, `bare-${Date.now()}.db`));
  const { workspaceId } = await seed(db);
  const insert = db.prepare(
    'INSERT INTO contacts (workspace_id, number, name, name_key, email, email_key, gender, status, created_at, updated_at) VALUES (?, ?, ?, lower(?), ?, lower(?), NULL, 1, ?, ?)',
  );
  const start = performance.now();
  db.transaction(() => {
    const now = new Date().toISOString();
    for (let i = 0; i < count; i++) {
      const row = contactRow(i);
      insert.run(workspaceId, row.number, row.name, row.name, row.email || null, row.email || null, now, now);
    }
    db.exec(
      "INSERT INTO contacts_fts (rowid, name_key, number, email_key) SELECT id, name_key, number, coalesce(email_key, '') FROM contacts",
    );
    db.exec('UPDATE search_index_state SET indexed_upto = (SELECT max(id) FROM contacts)');
  })();
  const ms = performance.now() - start;
  db.close();
  return (count / ms) * 1000;
}

/** Searched right after the import: the contacts whose keys hold it, counted from the generated rows. */
const SEARCHED = 'mail7.';
const expectedSearched = (bad) => {
  let n = 0;
  for (let i = 0; i < count; i++) {
    if (bad && isBad(i)) continue;
    const row = contactRow(i);
    if ([row.name, row.number, row.email].some((value) => value.toLowerCase().includes(SEARCHED))) n += 1;
  }
  return n;
};

/** Waits for the search index to hold every contact (read from the database file); ms waited. */
async function indexCaughtUp(dbPath) {
  const Database = (await import(pathToFileURL(join(ROOT, 'node_modules/better-sqlite3/lib/index.js')).href)).default;
  const db = new Database(dbPath, { readonly: true });
  const state = db.prepare(
    'SELECT (SELECT indexed_upto FROM search_index_state) AS line, (SELECT coalesce(max(id), 0) FROM contacts) AS last',
  );
  const start = performance.now();
  try {
    for (let s = state.get(); s.line < s.last; s = state.get()) await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    db.close();
  }
  return performance.now() - start;
}

const cpuAtExit = fileURLToPath(new URL('./cpu-at-exit.cjs', import.meta.url));

/** A process's CPU time so far (user + system), ms: /proc's clock ticks, 100 a second. */
function serverCpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `expectedCode`: 0 for a clean file; 8 (done, but some rows failed) for the file with bad rows; `cliEnv`: more of the CLI's environment. */
async function importThroughCli(csv, expectedCode = 0, flags = [], bin = undefined, cliEnv = {}) {
  const serveDir = join(dir, `serve-${Date.now()}`);
  // Each build's CLI against its own server: the server's peak RSS is each build's too.
  const server = await startServe(serveDir, ['--db', join(serveDir, 'wsm.db'), '--approval-delay', '0'], bin === undefined ? {} : { bin });
  try {
    const args = ['contacts', 'import', csv, '--wait', '--interval', '100ms', '-o', 'json', ...flags];
    const cpuFile = join(serveDir, 'cli-cpu');
    const env = { ...server.env, NODE_OPTIONS: `-r ${cpuAtExit}`, WSM_BENCH_CPU: cpuFile, ...cliEnv };
    const result = await runWsm(args, env, bin === undefined ? {} : { bin });
    // CPU time, steadier than wall time on a shared machine: the CLI's (read at its exit) and the server's so far.
    const cpuMs = Number(readFileSync(cpuFile, 'utf8').trim()) + serverCpuMs(server.pid);
    if (result.code !== expectedCode) throw new Error(`wsm contacts import exited ${result.code}: ${result.err.slice(0, 2000)}`);
    const rss = peakRssMb(server.pid);
    const headers = { authorization: `Bearer ${server.token}` };
    const base = `${server.url}/workspaces/${server.workspace}`;
    const searchStart = performance.now();
    const searched = (await fetch(`${base}/contacts?search=${encodeURIComponent(SEARCHED)}`, { headers }).then((r) => r.json())).meta.total;
    const searchMs = performance.now() - searchStart;
    const list = await fetch(`${base}/contact-imports?per_page=100`, { headers }).then((r) => r.json());
    const record = list.data.at(-1);
    const total = (await fetch(`${base}/contacts?per_page=1`, { headers }).then((r) => r.json())).meta.total;
    const catchUpMs = await indexCaughtUp(join(serveDir, 'wsm.db'));
    return {
      rowsPerSec: (count / result.ms) * 1000,
      cliRss: result.peakMb,
      ms: result.ms,
      cpuMs,
      rss,
      rssAfterIndex: peakRssMb(server.pid),
      record,
      total,
      searched,
      searchMs,
      catchUpMs,
    };
  } finally {
    await server.stop();
  }
}

const goodCsv = join(dir, 'contacts.csv');
if (sections.has('import') || sections.has('clean')) await writeCsv(goodCsv, false);
const baseline = await bareInsert();
console.log(`bare better-sqlite3 one-transaction insert of ${count.toLocaleString('en-US')} rows: ${fmt(baseline, 0)} rows/s`);

/** The clean file imported, then the file with 1% bad rows: rows/s against the bare insert, RSS, search, every bad row counted. */
async function importSection() {
  const badCsv = join(dir, 'contacts-1pct-bad.csv');
  await writeCsv(badCsv, true);
  const run = await importThroughCli(goodCsv);
  if (run.record.status !== 'completed' || run.record.created_count !== count || run.total !== count || run.record.total_rows !== count) {
    throw new Error(
      `import incomplete: ${JSON.stringify({ ...run.record, errors: run.record.errors.slice(0, 3) })}, contacts ${run.total}`,
    );
  }
  console.log(
    `import ${count.toLocaleString('en-US')} rows (wsm contacts import --wait, real binary + wsm serve): ` +
      `${fmt(run.rowsPerSec, 0)} rows/s in ${fmt(run.ms / 1000)} s (${fmt(run.rowsPerSec / baseline, 2)}x bare better-sqlite3 one-transaction insert at ${fmt(baseline, 0)} rows/s)`,
  );
  console.log(
    `import server peak RSS (VmHWM): ${fmt(run.rss, 0)} MB during the import, ${fmt(run.rssAfterIndex, 0)} MB once the search index caught up (goal <= 200 MB)`,
  );
  const searchedOk = run.searched === expectedSearched(false);
  console.log(
    `search ${JSON.stringify(SEARCHED)} right after the import: ${run.searched} contacts (${searchedOk ? 'exact' : 'WRONG'}) in ${fmt(run.searchMs, 0)} ms; ` +
      `the search index caught up ${fmt(run.catchUpMs / 1000)} s after the import`,
  );
  if (!searchedOk) process.exitCode = 1;

  const bad = await importThroughCli(badCsv, 8);
  const expectedBad = [];
  for (let i = 0; i < count; i++) if (isBad(i)) expectedBad.push(i + 2); // 1-based line: header is line 1
  const reported = bad.record.errors.map((e) => e.row);
  const firstOk = JSON.stringify(reported) === JSON.stringify(expectedBad.slice(0, 100));
  const countOk = bad.record.failed_count === expectedBad.length;
  const goodOk = bad.record.created_count === count - expectedBad.length && bad.total === count - expectedBad.length;
  console.log(
    `import with 1% bad rows: ${fmt(bad.rowsPerSec, 0)} rows/s; failed_count ${bad.record.failed_count} (expected ${expectedBad.length}: ${countOk ? 'exact' : 'WRONG'}), ` +
      `first 100 reported lines ${firstOk ? 'match' : 'DIFFER'}, created ${bad.record.created_count} of ${count - expectedBad.length} good rows, ` +
      `${bad.total} contacts stored (${goodOk ? 'no good row lost' : 'ROWS LOST'})`,
  );
  if (!firstOk || !countOk || !goodOk) process.exitCode = 1;
}

if (sections.has('import')) await importSection();

/**
 * Medians over rounds taken in turn: each build's import without --apply-flagged (as run, with the
 * change journal, which lists the workspace again after --wait; and with WSM_HISTORY=off, the plan's
 * cost alone) and with it, of `csv`, by wall and CPU time, each also against the bare insert; and
 * the server's peak RSS over them all.
 */
async function planCost(csv) {
  const builds = [['this build', undefined], ...(before ? [['before', before]] : [])];
  const kinds = [
    ['planned', [], {}],
    ['planned, no journal', [], { WSM_HISTORY: 'off' }],
    ['at once', ['--apply-flagged'], {}],
  ];
  const runs = new Map(builds.flatMap(([name]) => kinds.map(([kind]) => [`${name} ${kind}`, []])));
  // An older build may not finish a large file (its plan held every row): said, and the others measured.
  const failed = new Map();
  for (let round = 0; round < rounds; round++)
    for (const [name, bin] of builds)
      for (const [kind, flags, env] of kinds)
        try {
          runs.get(`${name} ${kind}`).push(await importThroughCli(csv, 0, flags, bin, env));
        } catch (error) {
          failed.set(`${name} ${kind}`, error.message.split('\n')[0].slice(0, 300));
        }
  for (const [name] of builds) {
    const of = (kind, key) => median(runs.get(`${name} ${kind}`).map((run) => run[key]));
    const [atOnceWall, atOnceCpu] = [of('at once', 'ms'), of('at once', 'cpuMs')];
    for (const [kind] of kinds) {
      if (failed.has(`${name} ${kind}`)) {
        console.log(`  ${name}, ${kind}: FAILED: ${failed.get(`${name} ${kind}`)}`);
        continue;
      }
      const [wall, cpu] = [of(kind, 'ms'), of(kind, 'cpuMs')];
      const against =
        kind === 'at once'
          ? ''
          : `${fmt(wall / atOnceWall, 2)}x the wall time with --apply-flagged (goal <= 1.1x), ${fmt(cpu / atOnceCpu, 2)}x its CPU; `;
      console.log(
        `  ${name}, ${kind === 'at once' ? '--apply-flagged' : kind}: ${fmt(wall / 1000)} s, CPU of the CLI and the server ${fmt(cpu / 1000)} s; ` +
          `${against}${fmt(of(kind, 'rowsPerSec') / baseline, 2)}x the bare insert (goal >= 1.0x); the CLI's peak RSS ${fmt(of(kind, 'cliRss'), 0)} MB`,
      );
    }
  }
  for (const [name] of builds) {
    const rss = Math.max(0, ...kinds.flatMap(([kind]) => runs.get(`${name} ${kind}`).map((run) => run.rss)));
    console.log(`  ${name}: the server's peak RSS over these imports: ${fmt(rss, 0)} MB (goal < 200 MB)`);
  }
}

console.log(
  `the plan's cost, medians of ${rounds} rounds taken in turn (the workspace read first is empty; load average ${loadavg()[0].toFixed(1)}):`,
);
if (sections.has('clean')) {
  console.log(' a clean file (the plan holds nothing: made while the server works)');
  await planCost(goodCsv);
}
if (sections.has('held')) {
  console.log(' one name in scientific notation (the plan holds it: found by one pass before the upload)');
  await planCost(await writeCsv(join(dir, 'contacts-one-held.csv'), false, true));
}
if (sections.has('quoted')) {
  console.log(' every name quoted, a comma in it (the quotes followed as the file is decoded: imports/open-quote.ts)');
  await planCost(await writeCsv(join(dir, 'contacts-quoted.csv'), false, false, true));
}
if (sections.has('sheet-held')) {
  const heldXlsx = join(dir, 'contacts-one-held.xlsx');
  await writeSheet(heldXlsx);
  console.log(" the same rows as an .xlsx sheet, row 2's name in scientific notation (the plan holds it)");
  await planCost(heldXlsx);
}
console.log(
  `load average at the end: ${loadavg()
    .map((load) => load.toFixed(1))
    .join(', ')}`,
);
