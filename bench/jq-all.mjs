// `--all --jq` against `--all -o json` of the same contacts in the same run (it was once
// quadratic in the size of the list): time and the CLI's peak RSS, medians of [runs] interleaved
// runs, against a real `wsm serve` holding [contacts] contacts. A filter starting `.[] |` runs on
// parts of the list as they come, `map(...)` takes the elements one by one (and what it collects is
// counted as it comes), `length` too, and `sort_by(.name)` and its kind are ordered from the
// contacts' keys, with the rest of the program run on the ordered list (jq-whole.ts).
// Needs `npm run build` first. WSM_BENCH_BEFORE=<an older build's bin/wsm.js> runs each --jq
// case with that build too, interleaved, for a before and after in the same conditions (its
// output must be the same). WSM_BENCH_ONLY=<text> keeps the cases whose expression holds it.
//   node bench/jq-all.mjs [contacts=2000] [runs=3]
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { buildDataset, fmt, median, runWsm, startServe, tempDir } from './lib.mjs';

const count = Number(process.argv[2] ?? 2000);
const runs = Number(process.argv[3] ?? 3);
console.log(
  `load average at the start: ${loadavg()
    .map((n) => n.toFixed(1))
    .join(', ')}`,
);
const dir = tempDir();
const dbPath = join(dir, 'bench.db');
await buildDataset(dbPath, count);
const server = await startServe(dir, ['--db', dbPath, '--approval-delay', '0']);
try {
  const list = ['contacts', 'list', '--all'];
  const cases = [
    ['--all -o json (baseline)', [...list, '-o', 'json']],
    // output.md's first example: little output, the whole list in.
    ["--all --jq '.[] | select(.status == false) | .number'", [...list, '--jq', '.[] | select(.status == false) | .number']],
    // A line out for every contact in.
    ["--all --jq '.[].number'", [...list, '--jq', '.[].number']],
    // Collects what each element gives: jq takes the elements one by one as inputs.
    ["--all --jq 'map(select(.status == false)) | length'", [...list, '--jq', 'map(select(.status == false)) | length']],
    // Over the whole list: jq counts the elements as they come (jq-whole.ts).
    ["--all --jq 'length'", [...list, '--jq', 'length']],
    ["--all --jq 'map(.name)'", [...list, '--jq', 'map(.name)']],
    ["--all --jq '[.[] | select(.status)] | length'", [...list, '--jq', '[.[] | select(.status)] | length']],
    // Over the whole list, which comes out whole, grouped or chosen from.
    ["--all --jq 'sort_by(.name)'", [...list, '--jq', 'sort_by(.name)']],
    ["--all --jq 'group_by(.gender)'", [...list, '--jq', 'group_by(.gender)']],
    ["--all --jq 'unique_by(.gender)'", [...list, '--jq', 'unique_by(.gender)']],
    ["--all --jq 'min_by(.name)'", [...list, '--jq', 'min_by(.name)']],
    ["--all --jq 'max_by(.name)'", [...list, '--jq', 'max_by(.name)']],
    // A sort followed by more of the program.
    ["--all --jq 'sort_by(.name) | .[0].name'", [...list, '--jq', 'sort_by(.name) | .[0].name']],
    ["--all --jq 'sort_by(.name) | .[:10]'", [...list, '--jq', 'sort_by(.name) | .[:10]']],
  ];
  // WSM_BENCH_ONLY=<text>: the baseline and the cases whose expression holds the text.
  const only = process.env.WSM_BENCH_ONLY;
  if (only) cases.splice(1, cases.length, ...cases.slice(1).filter(([name]) => name.includes(only)));
  const before = process.env.WSM_BENCH_BEFORE;
  if (before) {
    for (const [name, args] of cases.slice(1))
      cases.splice(
        cases.findIndex(([n]) => n === name),
        0,
        [`${name} [before]`, args, before],
      );
  }
  const samples = new Map(cases.map(([name]) => [name, { ms: [], mb: [], lines: 0 }]));
  for (let i = 0; i < runs; i++) {
    for (const [name, args, bin] of cases) {
      const result = await runWsm(args, server.env, { bin });
      if (result.code !== 0) throw new Error(`${args.join(' ')} exited ${result.code}: ${result.err.slice(0, 2000)}`);
      const sample = samples.get(name);
      sample.ms.push(result.ms);
      sample.mb.push(result.peakMb);
      sample.bytes = result.bytes;
      sample.out = result.out;
    }
  }
  for (const [name] of cases.filter(([n]) => n.endsWith(' [before]'))) {
    const [was, is] = [samples.get(name), samples.get(name.replace(/ \[before\]$/, ''))];
    // runWsm keeps the first megabyte of stdout.
    if (was.bytes !== is.bytes || was.out.slice(0, 1_000_000) !== is.out.slice(0, 1_000_000)) {
      throw new Error(`${name}: not the same output before and after`);
    }
  }
  const base = samples.get(cases[0][0]);
  const baseMs = median(base.ms);
  for (const [name] of cases) {
    const { ms, mb, bytes } = samples.get(name);
    const ratio = name === cases[0][0] ? '' : `, ${(median(ms) / baseMs).toFixed(2)}x the baseline`;
    console.log(
      `${count.toLocaleString('en-US')} contacts, wsm contacts list ${name}: ${fmt(median(ms))} ms, peak RSS ${fmt(median(mb), 0)} MB, ` +
        `${fmt(bytes / 1e6, 2)} MB out${ratio} (median of ${runs}; goal <= 2x)`,
    );
  }
} finally {
  await server.stop();
  console.log(
    `load average at the end: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(', ')}`,
  );
}
