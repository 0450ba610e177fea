// The CLI's peak RSS when it checks a large CSV: `wsm contacts import FILE --dry-run` (text and
// -o json) and a real run under --strict (the whole file checked and planned before the upload),
// against the real default run (checked while the server works), each on a fresh `wsm serve` with
// an empty workspace. WSM_BENCH_BEFORE=<an older build's bin/wsm.js> runs its CLI on the same
// files in the same run, so the figures compare as ratios. WSM_BENCH_HEAP=<MB> runs every CLI
// under --max-old-space-size=<MB>: whether the check still finishes in a small heap.
// The file's rows are `valid` (each a new contact), `invalid` (each refused for its e-mail: the
// row report holds a problem a row) or `twice` (each number named again in the file's second half,
// so that every contact is followed until its last row) or `damaged` (each name in scientific
// notation, a cell the plan holds as a spreadsheet's damage).
//   node bench/dry-run-memory.mjs [rows=1000000] [cases=dry,dry-json,strict,real] [rows kind=valid]
import { join } from 'node:path';
import { contactRow, fmt, runWsm, startServe, tempDir, writeLines } from './lib.mjs';

const count = Number(process.argv[2] ?? 1_000_000);
const cases = (process.argv[3] ?? 'dry,dry-json,strict,real').split(',');
const kind = process.argv[4] ?? 'valid';
const before = process.env.WSM_BENCH_BEFORE;
const heap = process.env.WSM_BENCH_HEAP;
const dir = tempDir();

const FLAGS = {
  dry: ['--dry-run'],
  'dry-json': ['--dry-run', '-o', 'json'],
  strict: ['--strict', '--wait', '--interval', '100ms'],
  real: ['--wait', '--interval', '100ms'],
};

function writeCsv(path) {
  return writeLines(path, 'number,name,email\n', count, (i) => {
    const row = contactRow(kind === 'twice' ? i % Math.ceil(count / 2) : i);
    return `${row.number},${kind === 'damaged' ? '3.51E+12' : row.name},${kind === 'invalid' ? 'not-an-address' : row.email}\n`;
  });
}

/** One case of one build, on its own empty workspace: exit code, peak RSS (MB), seconds, bytes written. */
async function measure(csv, name, bin) {
  const serveDir = join(dir, `serve-${name}-${bin === undefined ? 'after' : 'before'}`);
  const server = await startServe(serveDir, ['--db', join(serveDir, 'wsm.db'), '--approval-delay', '0'], bin === undefined ? {} : { bin });
  try {
    const env = {
      ...server.env,
      WSM_BASE_URL: server.url,
      WSM_TOKEN: server.token,
      WSM_WORKSPACE: server.workspace,
      ...(heap !== undefined ? { NODE_OPTIONS: `--max-old-space-size=${heap}` } : {}),
    };
    const result = await runWsm(['contacts', 'import', csv, ...FLAGS[name]], env, bin === undefined ? {} : { bin });
    const failed = result.code === 0 ? '' : ` (exit ${result.code}: ${result.err.trim().split('\n')[0].slice(0, 120)})`;
    return { code: result.code, mb: result.peakMb, s: result.ms / 1000, bytes: result.bytes, failed };
  } finally {
    await server.stop();
  }
}

const csv = await writeCsv(join(dir, 'contacts.csv'));
console.log(
  `contacts import of ${count.toLocaleString('en-US')} rows (${kind}): the CLI's peak RSS${heap !== undefined ? ` (heap ${heap} MB)` : ''}`,
);
for (const name of cases) {
  const after = await measure(csv, name, undefined);
  const line = `  ${name.padEnd(8)} after ${fmt(after.mb, 0)} MB, ${fmt(after.s)} s, ${fmt(after.bytes / 1e6)} MB out${after.failed}`;
  if (before === undefined) {
    console.log(line);
    continue;
  }
  const old = await measure(csv, name, before);
  console.log(`${line}; before ${fmt(old.mb, 0)} MB, ${fmt(old.s)} s${old.failed}; after/before ${fmt(after.mb / old.mb, 2)}x`);
}
