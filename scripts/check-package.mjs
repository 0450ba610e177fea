// Packaging check, run by .ci/run: what a user gets from `npm install -g wsm` must install and run.
// 1. `npm pack` the project (prepare builds dist/), 2. install the tarball globally into an empty
// prefix with the Node.js on PATH, 3. fail on any EBADENGINE or deprecation warning of the install,
// 4. run the installed `wsm --help`, start `wsm serve` on 127.0.0.1 and run `wsm contacts list`
// against it, 5. stop the server with SIGTERM and expect exit 0 and no native assertion.
//   node scripts/check-package.mjs
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'wsm-package-'));
const fail = (message) => {
  console.error(`check-package: ${message}`);
  process.exitCode = 1;
};

function npm(args, cwd) {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} exited ${result.status}:\n${result.stderr}`);
  return result;
}

let server;
try {
  const packed = npm(['pack', '--pack-destination', work, '--silent'], root);
  const tarball = join(work, packed.stdout.trim().split('\n').pop());
  const prefix = join(work, 'prefix');
  const install = npm(['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', tarball], work);
  // `npm warn Unknown user config` is this machine's npmrc, not the package: everything else counts.
  const warnings = install.stderr.split('\n').filter((line) => /EBADENGINE|deprecated/i.test(line));
  if (warnings.length) fail(`the install warned:\n${warnings.join('\n')}`);

  const wsm = join(prefix, 'bin', 'wsm');
  const env = { ...process.env, WSM_CONFIG_DIR: join(work, 'config'), WSM_DATA_DIR: join(work, 'data'), NO_COLOR: '1' };
  for (const key of ['WSM_TOKEN', 'WSM_BASE_URL', 'WSM_WORKSPACE', 'WSM_PROFILE']) delete env[key];

  const help = execFileSync(wsm, ['--help'], { env, encoding: 'utf8' });
  if (!help.startsWith('Usage: wsm')) fail(`wsm --help printed:\n${help}`);

  server = spawn(wsm, ['serve', '--port', '0', '--approval-delay', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  server.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));
  await new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`wsm serve did not start:\n${stderr}`)), 20_000);
    server.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (/Listening on \S+/.test(stdout)) {
        clearTimeout(timer);
        resolve();
      }
    });
    server.on('exit', (code) => reject(new Error(`wsm serve exited ${code}:\n${stderr}`)));
  });

  const created = spawnSync(wsm, ['contacts', 'create', '--number', '+1 415 555 0100', '--name', 'Ann', '-q'], { env, encoding: 'utf8' });
  if (created.status !== 0) fail(`wsm contacts create exited ${created.status}: ${created.stderr}`);
  const list = spawnSync(wsm, ['contacts', 'list', '-o', 'json'], { env, encoding: 'utf8' });
  if (list.status !== 0) fail(`wsm contacts list exited ${list.status}: ${list.stderr}`);
  else if (JSON.parse(list.stdout).map((c) => c.number).join() !== '14155550100') fail(`wsm contacts list printed ${list.stdout}`);

  server.kill('SIGTERM');
  const { code, signal } = await exited;
  server = undefined;
  if (code !== 0) fail(`wsm serve ended with ${code ?? signal} on SIGTERM:\n${stderr}`);
  if (/Assertion failed|node::|deprecat/i.test(stderr)) fail(`wsm serve printed:\n${stderr}`);

  if (!process.exitCode) {
    const files = readdirSync(join(prefix, 'lib', 'node_modules', 'wsm'));
    console.log(`check-package: ${tarball.split('/').pop()} installs on Node ${process.versions.node} without warnings; ` +
      `--help, serve, contacts create/list and SIGTERM work (package has ${files.sort().join(', ')})`);
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  server?.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
