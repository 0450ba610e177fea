// What the journal of an import into a workspace too large to read whole costs: its before-images
// are the contacts found by searching each of the file's numbers (src/journal/import-lookup.ts;
// nothing is searched after --wait: what it created is predicted from its rows). Against a real `wsm serve`
// holding M (100,000) contacts, `wsm contacts import FILE --wait` of N numbers (1,000 and 10,000:
// half of them held by a contact, half new), with the journal and with WSM_HISTORY=off, alternating
// in the same rounds: the medians' ratio of wall time, and of the CLI's CPU time. Each run names new
// numbers for its creates and new names for its updates, so every run changes N contacts.
// WSM_BENCH_BEFORE=<an older build's bin/wsm.js> starts that build's server too, on its own copy of
// the dataset, taken in turn with this build's in every round (the CLI is this build's for both):
// the ratio of the imports with the journal, after against before, shares the machine's load.
//   WSM_BENCH_DATA=/tmp/data node bench/journal-lookups.mjs [contacts=100000] [rounds=3] [numbers=1000,10000]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, contactRow, fmt, median, runWsmCpu, serveContacts, tempDir } from './lib.mjs';

const [count = 100_000, rounds = 3] = process.argv.slice(2, 4).map(Number);
const sizes = (process.argv[4] ?? '1000,10000').split(',').map(Number);
const dir = tempDir('wsm-bench-lookups-');
const builds = [['this build', BIN], ...(process.env.WSM_BENCH_BEFORE ? [['before', process.env.WSM_BENCH_BEFORE]] : [])];
const servers = [];
for (const [name, bin] of builds) {
  const own = join(dir, `serve-${servers.length}`);
  mkdirSync(own);
  servers.push({ name, ...(await serveContacts(own, count, { bin })) });
}

let run = 0;
/** One import of `numbers` rows: the first half updates contacts spread over the workspace, the second half creates. */
async function importRun(env, numbers, extraEnv) {
  run += 1;
  const rows = [];
  const step = Math.max(1, Math.floor(count / numbers));
  for (let i = 0; i < numbers; i++) {
    const number = i % 2 === 0 ? contactRow(1 + ((i * step) % count)).number : String(4_420_000_000_000 + run * 100_000 + i);
    rows.push(`${number},Run ${run} row ${i}`);
  }
  const file = join(dir, `import-${run}.csv`);
  writeFileSync(file, `number,name\n${rows.join('\n')}\n`);
  return runWsmCpu(['contacts', 'import', file, '--wait', '-q'], { ...env, ...extraEnv }, join(dir, `cpu-${run}.txt`));
}

for (const { env } of servers) await importRun(env, 100, { WSM_HISTORY: 'off' }); // warm-up: the server's caches, the file system
for (const numbers of sizes) {
  const journaled = { WSM_IMPORT_LOOKUP_LIMIT: String(numbers) };
  const runs = servers.map(() => ({ on: [], off: [] }));
  for (let r = 0; r < rounds; r++)
    for (const [s, { env }] of r % 2 ? [...servers.entries()].reverse() : [...servers.entries()]) {
      runs[s].off.push(await importRun(env, numbers, { WSM_HISTORY: 'off' }));
      runs[s].on.push(await importRun(env, numbers, journaled));
    }
  const withJournal = [];
  for (const [s, { on, off }] of runs.entries()) {
    const [onMs, offMs] = [median(on.map((r) => r.ms)), median(off.map((r) => r.ms))];
    const [onCpu, offCpu] = [median(on.map((r) => r.cpu)), median(off.map((r) => r.cpu))];
    withJournal.push(onMs);
    console.log(
      `${servers[s].name}: import of ${numbers.toLocaleString('en-US')} numbers into ${count.toLocaleString('en-US')} contacts, --wait, median of ${rounds}: ` +
        `${fmt(onMs / 1000, 2)} s with the journal's lookups, ${fmt(offMs / 1000, 2)} s without the journal: ${fmt(onMs / offMs, 2)}x; ` +
        `the CLI's CPU ${fmt(onCpu / 1000, 2)} s against ${fmt(offCpu / 1000, 2)} s: ${fmt(onCpu / offCpu, 2)}x`,
    );
  }
  if (withJournal.length === 2)
    console.log(`  with the journal, this build against before: ${fmt(withJournal[0] / withJournal[1], 2)}x the wall time`);
}
for (const { server } of servers) await server.stop();
