// `wsm contacts update --from ids --inactive` at a distance: the API needs the name on every update,
// so a line without one makes wsm read the contact's name first (src/commands/contacts/bulk-names.ts).
// Two real `wsm serve` on the same N contacts, each behind a proxy adding D ms to every answer
// (bench/delay-proxy.mjs): one with its extensions (GET one contact, used when the ids are fewer
// than the list's pages), one `--api-only` (the published API: the list is walked). For K ids,
// medians of R rounds, against the baseline of the same update with `--name` given (no reads).
// Where the update reads the workspace for its plan (at most 10,000 contacts, and no more pages
// than ids: `node bench/bulk-names.mjs 5000 3 20 50,100`), the names come from that read.
// WSM_BENCH_BEFORE=<an older build's bin/wsm.js> runs its CLI too, in the same rounds.
//   node bench/bulk-names.mjs [contacts=20000] [rounds=3] [delay-ms=50] [ids=50,2000]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDataset, fmt, median, runWsm, startDelayProxy, startServe, tempDir } from './lib.mjs';

const [count = 20_000, rounds = 3, delayMs = 50] = process.argv.slice(2, 5).map(Number);
const sizes = (process.argv[5] ?? '50,2000').split(',').map(Number);
const dir = tempDir('wsm-bench-names-');

async function backend(name, extra) {
  const db = join(dir, `${name}.db`);
  await buildDataset(db, count);
  const server = await startServe(join(dir, name), ['--db', db, '--approval-delay', '0', ...extra]);
  const proxy = await startDelayProxy(server.url, delayMs);
  return { server, proxy, env: { ...server.env, WSM_BASE_URL: proxy.url, WSM_TOKEN: server.token, WSM_WORKSPACE: server.workspace } };
}

const served = await backend('serve', []);
const published = await backend('api-only', ['--api-only']);

const builds = [['this build', undefined], ...(process.env.WSM_BENCH_BEFORE ? [['before', process.env.WSM_BENCH_BEFORE]] : [])];

async function timed(target, args, bin) {
  const result = await runWsm(args, target.env, bin === undefined ? {} : { bin });
  if (result.code !== 0) throw new Error(`wsm ${args.join(' ')} exited ${result.code}: ${result.err.slice(0, 500)}`);
  return result.ms;
}

for (const k of sizes) {
  // Ids spread over the whole list, so that a walk cannot stop early.
  const ids = Array.from({ length: k }, (_, i) => 1 + Math.floor(((i + 0.5) * count) / k));
  const file = join(dir, `ids-${k}.txt`);
  writeFileSync(file, ids.join('\n') + '\n');
  for (const [label, target] of [
    ['wsm serve (GET one contact where the ids are fewer than the pages)', served],
    ['wsm serve --api-only (the list walked)', published],
  ]) {
    const baseline = new Map(builds.map(([name]) => [name, []]));
    const reading = new Map(builds.map(([name]) => [name, []]));
    for (let r = 0; r < rounds; r++) {
      for (const [name, bin] of builds) {
        // Active again first, so that every round's update changes each contact (an unchanged one is not sent).
        await timed(target, ['contacts', 'update', '--from', file, '--active', '--name', 'Same name', '-q'], bin);
        baseline
          .get(name)
          .push(await timed(target, ['contacts', 'update', '--from', file, '--inactive', '--name', 'Same name', '-q'], bin));
        await timed(target, ['contacts', 'update', '--from', file, '--active', '-q'], bin);
        reading.get(name).push(await timed(target, ['contacts', 'update', '--from', file, '--inactive', '-q'], bin));
      }
    }
    for (const [name] of builds) {
      const [read, base] = [median(reading.get(name)), median(baseline.get(name))];
      console.log(
        `${name}: ${k} ids of ${count.toLocaleString('en-US')} contacts, ${delayMs} ms away, ${label}: ${fmt(read / 1000, 2)} s ` +
          `(${fmt(read / base, 2)}x the same update with --name, ${fmt(base / 1000, 2)} s)`,
      );
    }
  }
}
await served.proxy.stop();
await published.proxy.stop();
await served.server.stop();
await published.server.stop();
