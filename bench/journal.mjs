// What the change journal costs. (1) `wsm contacts update --from` of every contact of a workspace
// of N (10,000) contacts against a real `wsm serve`, with the journal and with WSM_HISTORY=off,
// alternating in the same rounds: the medians' ratio (the issue's bound: at most 1.10). Each round
// gives every contact a new name, so each run sends N updates, and the journal keeps N records
// with their before- and after-images. (2) The journal's size on disk for a change of M (100,000)
// contacts, each kept with both images, written through the store the CLI uses (src/journal).
//   node bench/journal.mjs [contacts=10000] [rounds=3] [records=100000]
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, contactRow, fmt, median, runWsmCpu, serveContacts, tempDir } from './lib.mjs';

const [count = 10_000, rounds = 3, records = 100_000] = process.argv.slice(2, 5).map(Number);
const dir = tempDir('wsm-bench-journal-');
const { server, env } = await serveContacts(dir, count);

let run = 0;
/** One bulk update of every contact to a name of its own for this run. */
async function update(extraEnv) {
  run += 1;
  const file = join(dir, `names-${run}.csv`);
  const rows = Array.from({ length: count }, (_, i) => `${i + 1},Run ${run} ${contactRow(i + 1).name}`.slice(0, 50));
  writeFileSync(file, `id,name\n${rows.join('\n')}\n`);
  return runWsmCpu(['contacts', 'update', '--from', file, '-q'], { ...env, ...extraEnv }, join(dir, `cpu-${run}.txt`));
}

await update({ WSM_HISTORY: 'off' }); // warm-up: the server's caches, the file system
const withJournal = [];
const without = [];
for (let r = 0; r < rounds; r++) {
  without.push(await update({ WSM_HISTORY: 'off' }));
  withJournal.push(await update({}));
}
const history = join(env.WSM_CONFIG_DIR, 'history');
const kept = readdirSync(history).reduce((bytes, name) => bytes + statSync(join(history, name)).size, 0);
const [on, off] = [median(withJournal.map((r) => r.ms)), median(without.map((r) => r.ms))];
const [onCpu, offCpu] = [median(withJournal.map((r) => r.cpu)), median(without.map((r) => r.cpu))];
console.log(
  `bulk update of ${count.toLocaleString('en-US')} contacts, median of ${rounds}: ${fmt(on / 1000, 2)} s with the journal, ` +
    `${fmt(off / 1000, 2)} s without: ${fmt(on / off, 3)}x; the CLI's CPU ${fmt(onCpu / 1000, 2)} s against ${fmt(offCpu / 1000, 2)} s: ` +
    `${fmt(onCpu / offCpu, 3)}x; ${rounds} changes kept in ${fmt(kept / 1024 / 1024, 2)} MB`,
);
await server.stop();

// The store alone: a change of `records` contacts, before- and after-images as the CLI keeps them.
const { JournalStore } = await import(pathToFileURL(join(ROOT, 'dist/journal/store.js')).href);
const store = new JournalStore(join(dir, 'store'));
const image = (i, name) => {
  const row = contactRow(i);
  return {
    id: i,
    number: row.number,
    name,
    email: row.email || null,
    gender: null,
    status: true,
    fields: { city: 'Lisbon' },
    contact_groups: [],
  };
};
const started = process.hrtime.bigint();
const change = store.begin(
  { profile: 'bench', base_url: server.url, workspace: server.workspace, command: 'wsm bench', summary: 'bench' },
  records,
);
for (let from = 1; from <= records; from += 1000) {
  const batch = [];
  for (let i = from; i < Math.min(from + 1000, records + 1); i++)
    batch.push({ kind: 'contact', op: 'update', id: i, before: image(i, contactRow(i).name), after: image(i, `Renamed ${i}`) });
  change.add(batch);
}
change.finish([]);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
const size = readdirSync(store.dir).reduce((bytes, name) => bytes + statSync(join(store.dir, name)).size, 0);
console.log(
  `a change of ${records.toLocaleString('en-US')} contacts: ${fmt(size / 1024 / 1024, 2)} MB on disk, written in ${fmt(ms, 0)} ms`,
);
