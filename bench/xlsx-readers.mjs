// The .xlsx reader and writer before and after the move onto yauzl, yazl and saxes, in one run:
// writing and reading export-shaped rows (11 text columns) with today's code (dist/: `npm run
// build` first) and with the code of the commit before the move, built from git into a temporary
// folder (esbuild; WSM_XLSX_BASELINE names another commit). Each task is a process of its own:
// time and peak RSS (sampled every 20 ms). Old and new take turns, `rounds` times, and each one's
// fastest round is compared (the least disturbed by other load on the machine). The new reader is
// also run on twice the rows, to show its memory flat in the row count. Both readers read the
// same file (written by today's writer).
//   node bench/xlsx-readers.mjs [rows=100000] [rounds=3]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { fmt, ROOT, tempDir } from './lib.mjs';

const rows = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 3);
const work = tempDir('wsm-xlsx-readers-');
const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
const baseline = process.env.WSM_XLSX_BASELINE ?? `${git('log', '--format=%H', '--grep', 'on yauzl, yazl and saxes', '-n', '1')}^`;

// The old reader and writer: their sources at the baseline commit, bundled into one module each.
const oldSrc = join(work, 'old');
mkdirSync(oldSrc, { recursive: true });
execFileSync('sh', ['-c', `git archive ${git('rev-parse', baseline)} src/formats/xlsx | tar -x -C ${oldSrc}`], { cwd: ROOT });
for (const name of ['sheet-reader', 'sheet-writer'])
  await build({
    entryPoints: [join(oldSrc, 'src/formats/xlsx', `${name}.ts`)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: join(oldSrc, `${name}.mjs`),
    logLevel: 'error',
  });

const TASK = `
const [task, file, count, modules, root] = process.argv.slice(1);
const { writeRows } = await import(root + '/bench/xlsx-rows.mjs');
let peak = 0;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const t0 = performance.now();
let read = 0;
if (task === 'write') {
  const { writeXlsx } = await import(modules + '/sheet-writer' + (modules.endsWith('xlsx') ? '.js' : '.mjs'));
  await writeRows(writeXlsx, file, Number(count));
} else {
  const { openWorkbook } = await import(modules + '/sheet-reader' + (modules.endsWith('xlsx') ? '.js' : '.mjs'));
  const wb = await openWorkbook(file);
  for await (const r of wb.rows()) read += r.cells.length > 0 ? 1 : 0;
  await wb.close();
}
clearInterval(sample);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(JSON.stringify({ ms: performance.now() - t0, peakMb: peak / 1e6, read }));
`;

function task(name, modules, file, count = rows) {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', TASK, name, file, String(count), modules, ROOT], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${name}: ${result.stderr.slice(0, 2000)}`);
  return JSON.parse(result.stdout.trim().split('\n').pop());
}

const NEW = join(ROOT, 'dist/formats/xlsx');
const file = join(work, 'new.xlsx');
const oldFile = join(work, 'old.xlsx');
/** Each task's fastest round and its largest peak. */
const best = (runs) => ({ ms: Math.min(...runs.map((r) => r.ms)), peakMb: Math.max(...runs.map((r) => r.peakMb)), read: runs[0].read });
const runs = { newWrite: [], oldWrite: [], newRead: [], oldRead: [] };
for (let round = 0; round < rounds; round++) {
  runs.newWrite.push(task('write', NEW, file));
  runs.oldWrite.push(task('write', oldSrc, oldFile));
  runs.newRead.push(task('read', NEW, file));
  runs.oldRead.push(task('read', oldSrc, file));
}
const [newWrite, oldWrite, newRead, oldRead] = [runs.newWrite, runs.oldWrite, runs.newRead, runs.oldRead].map(best);
if (newRead.read !== rows + 1 || oldRead.read !== rows + 1)
  throw new Error(`rows read: new ${newRead.read}, old ${oldRead.read}, not ${rows + 1}`);
const double = join(work, 'double.xlsx');
task('write', NEW, double, rows * 2);
const doubleRead = best(Array.from({ length: rounds }, () => task('read', NEW, double, rows * 2)));
rmSync(double);

const line = (what, now, before) =>
  `${what}: ${fmt(now.ms / 1000)} s, peak RSS ${fmt(now.peakMb, 0)} MB; before ${fmt(before.ms / 1000)} s, ${fmt(before.peakMb, 0)} MB: ` +
  `time ${fmt(now.ms / before.ms)}x, peak RSS ${fmt(now.peakMb / before.peakMb)}x`;
console.log(
  `baseline: ${baseline} (${git('rev-parse', '--short', baseline)}); ${rows.toLocaleString('en-US')} rows of 11 text columns; the fastest of ${rounds} rounds`,
);
console.log(line('write (yazl)', newWrite, oldWrite));
console.log(line('read (yauzl + saxes)', newRead, oldRead));
console.log(
  `read ${(rows * 2).toLocaleString('en-US')} rows: ${fmt(doubleRead.ms / 1000)} s, peak RSS ${fmt(doubleRead.peakMb, 0)} MB (${fmt(doubleRead.peakMb / newRead.peakMb)}x the peak at ${rows.toLocaleString('en-US')})`,
);
