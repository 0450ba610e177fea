// `wsm contacts export` (the real binary) of every contact of a real `wsm serve` holding N
// contacts: rows/s and the CLI's peak RSS (flat memory: it must not grow with N).
//   node bench/export.mjs [contacts=1000000]
import { join } from 'node:path';
import { buildDataset, fmt, runWsm, startServe, tempDir } from './lib.mjs';

const count = Number(process.argv[2] ?? 1_000_000);
const dir = tempDir();
const dbPath = join(dir, 'bench.db');
await buildDataset(dbPath, count);
const server = await startServe(dir, ['--db', dbPath, '--approval-delay', '0']);
try {
  const result = await runWsm(['contacts', 'export'], server.env);
  if (result.code !== 0) throw new Error(`wsm contacts export exited ${result.code}: ${result.err.slice(0, 2000)}`);
  // Lines = header + one per contact (no value of the generated data holds a newline).
  const lines = result.out.length < 1_000_000 ? result.out.split('\n').filter(Boolean).length : undefined;
  console.log(
    `export ${count.toLocaleString('en-US')} contacts (wsm contacts export, real binary): ${fmt((count / result.ms) * 1000, 0)} rows/s in ${fmt(result.ms / 1000)} s, ` +
      `${fmt(result.bytes / 1e6)} MB of CSV, CLI peak RSS ${fmt(result.peakMb, 0)} MB${lines !== undefined ? `, ${lines - 1} rows` : ''} (goal >= 50,000 rows/s)`,
  );
} finally {
  await server.stop();
}
