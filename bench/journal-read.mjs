// The memory of reading a change back: `wsm history show <change> -o json` of a planted record file
// of tiny lines (the shortest line the journal's schema takes as a record), its meta naming them all,
// against the same command on a change of 10 such records (the baseline: the process itself), in
// the same run: peak RSS and its ratio to the baseline, and the exit code; the same lines under a
// meta that never ended and names none (the lines themselves counted). Also a change of as many
// records as a change keeps, which is read. `--before bin/wsm.js` runs an older build alongside.
//   node bench/journal-read.mjs [lines=1000000] [--before /path/to/old/bin/wsm.js]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, benchEnv, fmt, runWsm, tempDir } from './lib.mjs';

const args = process.argv.slice(2);
const beforeAt = args.indexOf('--before');
const before = beforeAt === -1 ? undefined : args.splice(beforeAt, 2)[1];
const lines = Number(args[0] ?? 1_000_000);
const { MAX_RECORDS } = await import('../dist/journal/journal-files.js');

const TINY = '{"kind":"contact","op":"create","id":1,"before":null,"after":null}\n';

/** A config folder whose journal holds one change of `count` tiny records: ended and counted, or never ended (its meta naming none). */
function journalOf(count, ended = true) {
  const dir = tempDir('wsm-bench-journal-read-');
  const history = join(dir, 'config', 'history');
  mkdirSync(history, { recursive: true, mode: 0o700 });
  const id = '20261128-120000-000';
  writeFileSync(join(history, `${id}.jsonl`), TINY.repeat(count), { mode: 0o600 });
  const meta = {
    when: '2026-11-28T12:00:00.000Z',
    profile: 'bench',
    base_url: 'http://127.0.0.1:9/api/v3',
    workspace: 'w',
    command: 'wsm bench',
    summary: `${count} planted records`,
    records: ended ? count : 0,
    notes: [],
    ...(ended ? { ended: '2026-11-28T12:00:01.000Z' } : {}),
  };
  writeFileSync(join(history, `${id}.json`), JSON.stringify(meta), { mode: 0o600 });
  return benchEnv(dir);
}

const cases = [
  ['baseline: 10 records', journalOf(10)],
  [`${fmt(lines, 0)} tiny lines`, journalOf(lines)],
  [`${fmt(lines, 0)} tiny lines, a change never ended (its meta naming none)`, journalOf(lines, false)],
  [`${fmt(MAX_RECORDS, 0)} tiny lines (the most a change keeps)`, journalOf(MAX_RECORDS)],
];
const builds = [['this build', BIN], ...(before ? [['before', before]] : [])];
for (const [build, bin] of builds) {
  let baseline;
  for (const [what, env] of cases) {
    const result = await runWsm(['history', 'show', 'last', '-o', 'json'], env, { bin });
    baseline ??= result.peakMb;
    const said = result.code === 0 ? '' : `: ${result.err.trim().slice(0, 160)}`;
    console.log(
      `${build}, ${what}: peak RSS ${fmt(result.peakMb, 0)} MB (${fmt(result.peakMb / baseline, 2)}x the baseline), exit ${result.code}, ${fmt(result.ms / 1000, 1)} s${said}`,
    );
  }
}
