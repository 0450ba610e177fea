// `wsm contacts export` (the real binary) of every contact of a real `wsm serve` holding N
// contacts: rows/s and the CLI's peak RSS (flat memory: it must not grow with N). Then the same
// export as an .xlsx workbook (`-o xlsx`), against the CSV export measured in the same run: its
// time as a ratio of the CSV's (goal: within 2x) and its peak RSS.
//   node bench/export.mjs [contacts=1000000] [rounds=1]
import { join } from 'node:path';
import { buildDataset, fmt, median, runWsm, startServe, tempDir } from './lib.mjs';

const count = Number(process.argv[2] ?? 1_000_000);
const rounds = Number(process.argv[3] ?? 1);
const dir = tempDir();
const dbPath = join(dir, 'bench.db');
await buildDataset(dbPath, count);
const server = await startServe(dir, ['--db', dbPath, '--approval-delay', '0']);
try {
  const csv = [];
  const xlsx = [];
  for (let round = 0; round < rounds; round++) {
    const result = await runWsm(['contacts', 'export'], server.env);
    if (result.code !== 0) throw new Error(`wsm contacts export exited ${result.code}: ${result.err.slice(0, 2000)}`);
    csv.push(result);
    const workbook = await runWsm(['contacts', 'export', '-o', 'xlsx'], server.env);
    if (workbook.code !== 0) throw new Error(`wsm contacts export -o xlsx exited ${workbook.code}: ${workbook.err.slice(0, 2000)}`);
    if (!workbook.out.startsWith('PK')) throw new Error('wsm contacts export -o xlsx wrote no ZIP archive');
    xlsx.push(workbook);
  }
  const result = csv[0];
  // Lines = header + one per contact (no value of the generated data holds a newline).
  const lines = result.out.length < 1_000_000 ? result.out.split('\n').filter(Boolean).length : undefined;
  const csvMs = median(csv.map((r) => r.ms));
  const xlsxMs = median(xlsx.map((r) => r.ms));
  console.log(
    `export ${count.toLocaleString('en-US')} contacts (wsm contacts export, real binary): ${fmt((count / csvMs) * 1000, 0)} rows/s in ${fmt(csvMs / 1000)} s, ` +
      `${fmt(result.bytes / 1e6)} MB of CSV, CLI peak RSS ${fmt(Math.max(...csv.map((r) => r.peakMb)), 0)} MB${lines !== undefined ? `, ${lines - 1} rows` : ''} (goal >= 50,000 rows/s)`,
  );
  console.log(
    `export -o xlsx: ${fmt(xlsxMs / 1000)} s, ${fmt(xlsxMs / csvMs)}x the CSV export's time (goal <= 2x), ${fmt(xlsx[0].bytes / 1e6)} MB of .xlsx, ` +
      `CLI peak RSS ${fmt(Math.max(...xlsx.map((r) => r.peakMb)), 0)} MB (CSV ${fmt(Math.max(...csv.map((r) => r.peakMb)), 0)} MB)${rounds > 1 ? `, median of ${rounds}` : ''}`,
  );
} finally {
  await server.stop();
}
