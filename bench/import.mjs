// End-to-end contact import: a generated CSV through the real `wsm contacts import <file> --wait`
// against a real `wsm serve`, against a bare better-sqlite3 script inserting the same rows in
// one transaction into the same schema (table, indexes, search index), in the same run.
// Then the 1%-bad-rows variant: every bad row counted, the first 100 reported, no good row lost.
//   node bench/import.mjs [rows=1000000]
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { contactRow, fmt, peakRssMb, ROOT, runWsm, startServe, tempDir } from './lib.mjs';

const count = Number(process.argv[2] ?? 1_000_000);
const dir = tempDir();
const dist = (path) => import(pathToFileURL(join(ROOT, 'dist', path)).href);
const isBad = (i) => i % 100 === 50;

async function writeCsv(path, bad) {
  const out = createWriteStream(path);
  out.write('number,name,email\n');
  let chunk = '';
  for (let i = 0; i < count; i++) {
    const row = contactRow(i);
    chunk += `${bad && isBad(i) ? `bad-${i}` : row.number},${row.name},${row.email}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

/**
 * The baseline: the same rows, one transaction, then the search index in bulk, as migration 002
 * keeps it; the search keys (migration 009) are SQLite's own lower(), the least a key can cost.
 */
async function bareInsert() {
  const { openDatabase } = await dist('server/db.js');
  const { seed } = await dist('server/seed.js');
  const db = openDatabase(join(dir, `bare-${Date.now()}.db`));
  const { workspaceId } = await seed(db);
  const insert = db.prepare(
    "INSERT INTO contacts (workspace_id, number, name, name_key, email, email_key, gender, status, created_at, updated_at) VALUES (?, ?, ?, lower(?), ?, lower(?), NULL, 1, ?, ?)",
  );
  const start = performance.now();
  db.transaction(() => {
    const now = new Date().toISOString();
    for (let i = 0; i < count; i++) {
      const row = contactRow(i);
      insert.run(workspaceId, row.number, row.name, row.name, row.email || null, row.email || null, now, now);
    }
    db.exec("INSERT INTO contacts_fts (rowid, name_key, number, email_key) SELECT id, name_key, number, coalesce(email_key, '') FROM contacts");
  })();
  const ms = performance.now() - start;
  db.close();
  return (count / ms) * 1000;
}

/** `expectedCode`: 0 for a clean file; 8 (done, but some rows failed) for the file with bad rows. */
async function importThroughCli(csv, expectedCode = 0) {
  const serveDir = join(dir, `serve-${Date.now()}`);
  const server = await startServe(serveDir, ['--db', join(serveDir, 'wsm.db'), '--approval-delay', '0']);
  try {
    const result = await runWsm(['contacts', 'import', csv, '--wait', '--interval', '100ms', '-o', 'json'], server.env);
    if (result.code !== expectedCode) throw new Error(`wsm contacts import exited ${result.code}: ${result.err.slice(0, 2000)}`);
    const rss = peakRssMb(server.pid);
    const headers = { authorization: `Bearer ${server.token}` };
    const base = `${server.url}/workspaces/${server.workspace}`;
    const list = await fetch(`${base}/contact-imports?per_page=100`, { headers }).then((r) => r.json());
    const record = list.data.at(-1);
    const total = (await fetch(`${base}/contacts?per_page=1`, { headers }).then((r) => r.json())).meta.total;
    return { rowsPerSec: (count / result.ms) * 1000, ms: result.ms, rss, record, total };
  } finally {
    await server.stop();
  }
}

const goodCsv = join(dir, 'contacts.csv');
const badCsv = join(dir, 'contacts-1pct-bad.csv');
await writeCsv(goodCsv, false);
await writeCsv(badCsv, true);

const baseline = await bareInsert();
const run = await importThroughCli(goodCsv);
if (run.record.status !== 'completed' || run.record.created_count !== count || run.total !== count || run.record.total_rows !== count) {
  throw new Error(`import incomplete: ${JSON.stringify({ ...run.record, errors: run.record.errors.slice(0, 3) })}, contacts ${run.total}`);
}
console.log(
  `import ${count.toLocaleString('en-US')} rows (wsm contacts import --wait, real binary + wsm serve): ` +
    `${fmt(run.rowsPerSec, 0)} rows/s in ${fmt(run.ms / 1000)} s (${fmt(run.rowsPerSec / baseline, 2)}x bare better-sqlite3 one-transaction insert at ${fmt(baseline, 0)} rows/s)`,
);
console.log(`import server peak RSS (VmHWM): ${fmt(run.rss, 0)} MB (goal <= 200 MB)`);

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
