// Packaging check, run by .ci/run: the README's two ways in must install quietly and run.
// 1. A clone: the tracked files copied to an empty directory, `npm ci` and `npm install` there print no
//    warning (npm 11's install-scripts advisory above all: better-sqlite3 13 ships its binaries and
//    npm would run an implicit `node-gyp rebuild` for it, package.json's allowScripts denies that)
//    and `npm install` leaves package-lock.json as committed; then `npm link` into an empty prefix,
//    quietly too. package.json builds with `postprepare` (a clone's npm ci and install run it) and
//    `prepack` (npm pack), never `prepare`: npm 11 lists the `prepare` of a linked or tarball package
//    as an install script allowScripts does not cover (npm/cli#9951), though a tarball never runs it.
// 2. The packed package: `npm pack` (prepack builds dist/), install the tarball globally into an
//    empty prefix with the Node.js on PATH: no warning either (EBADENGINE, deprecations, scripts).
// 3. Run the installed `wsm --help`, start `wsm serve` on 127.0.0.1 and run `wsm contacts list`
//    against it; stop the server with SIGTERM and expect exit 0 and no native assertion.
//   node scripts/check-package.mjs
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'wsm-package-'));
const fail = (message) => {
  console.error(`check-package: ${message}`);
  process.exitCode = 1;
};

function npm(args, cwd, env = {}) {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false', ...env } });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} exited ${result.status}:\n${result.stderr}`);
  return result;
}

/**
 * The warnings of an npm run: every `npm warn` line but `Unknown user config` (this machine's own
 * npmrc, not the package), and any EBADENGINE or deprecation notice.
 */
function warningsOf(stderr) {
  return stderr
    .split('\n')
    .filter((line) => (/^npm warn/.test(line) && !/Unknown (user|env) config/.test(line)) || /EBADENGINE|deprecated/i.test(line));
}

/** A fresh clone: the files git tracks, without node_modules or dist. */
function cloneInto(target) {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(join(root, file), join(target, file));
  }
}

let server;
try {
  const clone = join(work, 'clone');
  cloneInto(clone);
  for (const command of ['ci', 'install']) {
    rmSync(join(clone, 'node_modules'), { recursive: true, force: true });
    const installed = npm([command, '--no-audit', '--no-fund'], clone);
    const cloneWarnings = warningsOf(installed.stderr);
    if (cloneWarnings.length) fail(`npm ${command} in a clone warned:\n${cloneWarnings.join('\n')}`);
  }
  if (readFileSync(join(clone, 'package-lock.json'), 'utf8') !== readFileSync(join(root, 'package-lock.json'), 'utf8')) {
    fail('npm install in a clone changed package-lock.json');
  }
  const linked = npm(['link', '--no-audit', '--no-fund'], clone, { npm_config_prefix: join(work, 'linked') });
  const linkWarnings = warningsOf(linked.stderr);
  if (linkWarnings.length) fail(`npm link in a clone warned:\n${linkWarnings.join('\n')}`);
  const linkedVersion = execFileSync(join(work, 'linked', 'bin', 'wsm'), ['--version'], { encoding: 'utf8' }).trim();
  if (linkedVersion !== JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version)
    fail(`the linked wsm --version printed ${linkedVersion}`);

  const packed = npm(['pack', '--pack-destination', work, '--silent'], root);
  const tarball = join(work, packed.stdout.trim().split('\n').pop());
  const prefix = join(work, 'prefix');
  const install = npm(['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', tarball], work);
  const warnings = warningsOf(install.stderr);
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
  else if (
    JSON.parse(list.stdout)
      .map((c) => c.number)
      .join() !== '14155550100'
  )
    fail(`wsm contacts list printed ${list.stdout}`);

  server.kill('SIGTERM');
  const { code, signal } = await exited;
  server = undefined;
  if (code !== 0) fail(`wsm serve ended with ${code ?? signal} on SIGTERM:\n${stderr}`);
  if (/Assertion failed|node::|deprecat/i.test(stderr)) fail(`wsm serve printed:\n${stderr}`);

  if (!process.exitCode) {
    const files = readdirSync(join(prefix, 'lib', 'node_modules', 'wsm'));
    console.log(
      `check-package: a clone's npm ci, npm install and npm link, and ${tarball.split('/').pop()} installed globally, on Node ${process.versions.node}: ` +
        `no warnings, package-lock.json unchanged; --help, serve, contacts create/list and SIGTERM work (package has ${files.sort().join(', ')})`,
    );
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  server?.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
