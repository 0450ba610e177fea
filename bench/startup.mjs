// Start-up cost of the CLI against bare node, in the same run (ratios, not absolute numbers,
// are what to compare across machines). Needs `npm run build` first.
// `wsm --help` is measured into a pipe and on a terminal (through `script`, util-linux).
// `wsm contacts list` against a running `wsm serve` is compared with a bare node fetch of the same URL,
// by wall time and by CPU time (user + system, read in each process at exit by bench/cpu-at-exit.cjs).
//   node bench/startup.mjs [runs]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 20);
const bin = fileURLToPath(new URL('../bin/wsm.js', import.meta.url));
const cpuAtExit = fileURLToPath(new URL('./cpu-at-exit.cjs', import.meta.url));
// A throw-away config directory so the benchmark never reads or writes the user's profiles.
const configDir = mkdtempSync(join(tmpdir(), 'wsm-bench-'));
const env = { ...process.env, WSM_CONFIG_DIR: configDir, NO_COLOR: '1' };
for (const key of ['WSM_TOKEN', 'WSM_BASE_URL', 'WSM_WORKSPACE', 'WSM_PROFILE']) delete env[key];

const cases = [
  ['node -e 0', ['-e', '0']],
  ['wsm --version', [bin, '--version']],
  ['wsm --help', [bin, '--help']],
];
const { startServe, tempDir } = await import('./lib.mjs');
const serveDir = tempDir();
const server = await startServe(serveDir, ['--db', join(serveDir, 'wsm.db'), '--approval-delay', '0']);
await fetch(`${server.url}/workspaces/${server.workspace}/contacts`, {
  method: 'POST',
  headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ number: '14155550123', name: 'Ann Lee' }),
});
const listUrl = `${server.url}/workspaces/${server.workspace}/contacts?page=1`;
const fetchCode = `fetch(${JSON.stringify(listUrl)}, { headers: { authorization: 'Bearer ' + process.env.T } }).then((r) => r.text()).then((t) => process.stdout.write(t))`;
const listCases = [
  ['node fetch of GET contacts', ['-e', fetchCode]],
  ['wsm contacts list', [bin, 'contacts', 'list']],
];

function timeOnce(args, runEnv = env) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env: runEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

try {
  // Warm-up: fill the OS file cache so the first measured run is not an outlier.
  for (const [, args] of cases) for (let i = 0; i < 3; i++) timeOnce(args);
  // Interleave the cases so that machine noise spreads evenly over all of them.
  const samples = new Map(cases.map(([name]) => [name, []]));
  for (let i = 0; i < runs; i++) for (const [name, args] of cases) samples.get(name).push(timeOnce(args));

  const baseline = median(samples.get('node -e 0'));
  for (const [name] of cases) {
    const ms = median(samples.get(name));
    if (name === 'node -e 0') console.log(`${name}: ${ms.toFixed(1)} ms (baseline, median of ${runs})`);
    else console.log(`${name}: ${ms.toFixed(1)} ms (${(ms / baseline).toFixed(2)}x node -e 0 at ${baseline.toFixed(1)} ms)`);
  }
  // On a terminal (commander sizes help to its width). `script` gives the command a terminal of
  // 100 columns; its own cost (script, a shell, stty) is measured alone and taken off both sides.
  const onTerminal = (command) => ['script', ['-qec', `stty cols 100; ${command}`, '/dev/null']];
  const sh = (word) => `'${word.replaceAll("'", "'\\''")}'`;
  const terminalCases = [
    ['terminal alone', onTerminal('true')],
    ['node -e 0', onTerminal(`${sh(process.execPath)} -e 0`)],
    ['wsm --help', onTerminal(`${sh(process.execPath)} ${sh(bin)} --help`)],
  ];
  const timeTerminal = ([file, args]) => {
    const start = process.hrtime.bigint();
    const result = spawnSync(file, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  for (const [, command] of terminalCases) for (let i = 0; i < 3; i++) timeTerminal(command);
  const terminalSamples = new Map(terminalCases.map(([name]) => [name, []]));
  for (let i = 0; i < runs; i++) for (const [name, command] of terminalCases) terminalSamples.get(name).push(timeTerminal(command));
  const wrapper = median(terminalSamples.get('terminal alone'));
  const nodeOnTerminal = median(terminalSamples.get('node -e 0')) - wrapper;
  const helpOnTerminal = median(terminalSamples.get('wsm --help')) - wrapper;
  console.log(
    `wsm --help on a 100-column terminal: ${helpOnTerminal.toFixed(1)} ms (${(helpOnTerminal / nodeOnTerminal).toFixed(2)}x node -e 0 at ${nodeOnTerminal.toFixed(1)} ms; ` +
      `both net of the terminal wrapper's ${wrapper.toFixed(1)} ms)`,
  );

  // The serve's saved `local` profile is what `wsm contacts list` uses.
  const serveEnv = { ...server.env, T: server.token };
  for (const [, args] of listCases) for (let i = 0; i < 3; i++) timeOnce(args, serveEnv);
  const listSamples = new Map(listCases.map(([name]) => [name, []]));
  const cpuSamples = new Map(listCases.map(([name]) => [name, []]));
  const cpuFile = join(configDir, 'cpu');
  const cpuEnv = { ...serveEnv, WSM_BENCH_CPU: cpuFile };
  for (let i = 0; i < runs; i++) {
    for (const [name, args] of listCases) {
      rmSync(cpuFile, { force: true });
      listSamples.get(name).push(timeOnce(['-r', cpuAtExit, ...args], cpuEnv));
      cpuSamples.get(name).push(Number(readFileSync(cpuFile, 'utf8')));
    }
  }
  const bare = median(listSamples.get('node fetch of GET contacts'));
  const list = median(listSamples.get('wsm contacts list'));
  console.log(
    `wsm contacts list: ${list.toFixed(1)} ms (${(list / bare).toFixed(2)}x a bare node fetch of the same URL at ${bare.toFixed(1)} ms)`,
  );
  const bareCpu = median(cpuSamples.get('node fetch of GET contacts'));
  const listCpu = median(cpuSamples.get('wsm contacts list'));
  console.log(
    `wsm contacts list, CPU time: ${listCpu.toFixed(1)} ms (${(listCpu / bareCpu).toFixed(2)}x the bare node fetch's ${bareCpu.toFixed(1)} ms)`,
  );
} finally {
  await server.stop();
  rmSync(configDir, { recursive: true, force: true });
}
