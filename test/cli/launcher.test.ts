// bin/wsm.js: the Node.js version check that runs before anything loads, and the compile cache.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin/wsm.js');
const fakeVersion = join(root, 'test/cli/fixtures/fake-node-version.mjs');
const hook = join(root, 'test/cli/fixtures/record-imports.mjs');

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(args: string[], env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...nodeArgs, bin, ...args], {
      env: { ...process.env, WSM_CONFIG_DIR: dir, NO_COLOR: '1', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const asNode = (version: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
  run(args, { FAKE_NODE_VERSION: version, WSM_IMPORT_LOG: join(dir, 'imports.log'), ...extraEnv }, [
    '--import',
    fakeVersion,
    '--import',
    hook,
  ]);

describe('the launcher on an unsupported Node.js', () => {
  it.each([
    ['20.20.2', 'wsm needs Node.js 22.22.2 or later on the 22 line, or 24.15.0 or later; this is 20.20.2'],
    ['18.19.0', 'wsm needs Node.js 22.22.2 or later on the 22 line, or 24.15.0 or later; this is 18.19.0'],
    ['22.12.0', 'wsm needs Node.js 22.22.2 or later on the 22 line; this is 22.12.0'],
    ['24.1.0', 'wsm needs Node.js 24.15.0 or later on the 24 line; this is 24.1.0'],
  ])('on %s prints one line and exits 1, loading nothing', async (version, line) => {
    for (const args of [['contacts', 'list'], ['serve'], ['--version'], ['--help']]) {
      const result = await asNode(version, args);
      expect(result).toEqual({ code: 1, stdout: '', stderr: `${line}\n` });
    }
    // Nothing of the CLI, the server or a dependency was imported before the refusal.
    const log = join(dir, 'imports.log');
    const modules = existsSync(log) ? readFileSync(log, 'utf8') : '';
    expect(modules.split('\n').filter((m) => m.includes('/dist/') || m.includes('/node_modules/'))).toEqual([]);
  });

  it.each(['22.22.2', '22.23.3', '24.15.0', '24.21.0', '26.0.0'])('on %s runs', async (version) => {
    const result = await asNode(version, ['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(result.stderr).toBe('');
  });
});

describe('what the repository says of the launcher and the package', () => {
  it(".ci/run expects the launcher's own refusal, word for word", async () => {
    const ci = readFileSync(join(root, '.ci/run'), 'utf8');
    const expected = /\[ "\$out" = "(wsm needs Node\.js [^"]*)\$\(node -p process\.versions\.node\)" \]/.exec(ci)?.[1];
    expect(expected).toBeDefined();
    expect((await asNode('20.20.2', ['contacts', 'list'])).stderr).toBe(`${expected}20.20.2\n`);
  });

  it("npm pack's tarball is ignored by git, so it is never committed by mistake", async () => {
    const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
    const { stdout } = await promisify(execFile)('git', ['check-ignore', '--no-index', '-v', `${name}-${version}.tgz`], { cwd: root });
    expect(stdout).toMatch(/^\.gitignore:\d+:\*\.tgz\t/);
  });
});

describe('the compile cache', () => {
  it('is kept in $XDG_CACHE_HOME/wsm/compile-cache once a command has run', async () => {
    const cache = join(dir, 'cache');
    const result = await run(['profile', 'list'], { XDG_CACHE_HOME: cache });
    expect(result.code).toBe(0);
    expect(readdirSync(join(cache, 'wsm', 'compile-cache')).length).toBeGreaterThan(0);
  });

  it('is silently skipped where the cache directory cannot be written', async () => {
    // A file where the directory should be: mkdir fails, the CLI runs as usual and says nothing.
    writeFileSync(join(dir, 'not-a-dir'), '');
    const result = await run(['profile', 'list'], { XDG_CACHE_HOME: join(dir, 'not-a-dir') });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(existsSync(join(dir, 'not-a-dir', 'wsm'))).toBe(false);
  });
});

describe('npm run dev', () => {
  it('runs the CLI from src/ with the arguments after --, its exit code passed on', async () => {
    const dev = (args: string[]) =>
      promisify(execFile)('npm', ['run', '--silent', 'dev', '--', ...args], {
        cwd: root,
        env: { ...process.env, WSM_CONFIG_DIR: dir, NO_COLOR: '1' },
      }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
    expect(await dev(['profile', 'list', '-o', 'json'])).toEqual({ code: 0, stdout: '[]\n' });
    expect((await dev(['contacts', 'frobnicate'])).code).toBe(2);
  });
});
