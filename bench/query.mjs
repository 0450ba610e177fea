// What `--json <fields>` and `--jq <expr>` cost on top of a plain `-o json` of the same list, in
// the same run: time and the CLI's peak RSS, medians of [runs] interleaved runs. jq (jq-wasm)
// loads only when --jq is given; this is its price. Needs `npm run build` first.
//   node bench/query.mjs [runs] [contacts]
import { join } from 'node:path';
import { fmt, median, runWsm, startServe, tempDir } from './lib.mjs';

const runs = Number(process.argv[2] ?? 15);
const contacts = Number(process.argv[3] ?? 100);
const dir = tempDir();
const server = await startServe(dir, ['--db', join(dir, 'wsm.db'), '--approval-delay', '0']);
try {
  for (let i = 0; i < contacts; i++) {
    await fetch(`${server.url}/workspaces/${server.workspace}/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ number: `1415550${String(i).padStart(4, '0')}`, name: `Contact ${i}` }),
    });
  }
  const cases = [
    ['-o json (baseline)', ['contacts', 'list', '--per-page', '100', '-o', 'json']],
    ['--json id,name', ['contacts', 'list', '--per-page', '100', '--json', 'id,name']],
    ['--jq .[].name', ['contacts', 'list', '--per-page', '100', '--jq', '.[].name']],
  ];
  for (const [, args] of cases) for (let i = 0; i < 2; i++) await runWsm(args, server.env);
  const samples = new Map(cases.map(([name]) => [name, { ms: [], mb: [] }]));
  for (let i = 0; i < runs; i++) {
    for (const [name, args] of cases) {
      const result = await runWsm(args, server.env);
      if (result.code !== 0) throw new Error(`${args.join(' ')} exited ${result.code}: ${result.err}`);
      samples.get(name).ms.push(result.ms);
      samples.get(name).mb.push(result.peakMb);
    }
  }
  const base = samples.get(cases[0][0]);
  const [baseMs, baseMb] = [median(base.ms), median(base.mb)];
  for (const [name] of cases) {
    const ms = median(samples.get(name).ms);
    const mb = median(samples.get(name).mb);
    const ratio = name === cases[0][0] ? '' : ` (${(ms / baseMs).toFixed(2)}x, +${fmt(ms - baseMs)} ms, +${fmt(mb - baseMb)} MB)`;
    console.log(`wsm contacts list ${name}: ${fmt(ms)} ms, peak RSS ${fmt(mb)} MB${ratio}; median of ${runs}`);
  }
} finally {
  await server.stop();
}
