// `wsm --help` and `--version` must stay as cheap as starting node: none of the heavy
// dependencies may load. Runs the built binary (`npm run build` first) with an import logger.
// The binary runs the bundle (dist/bundle/, scripts/build-bundle.mjs): the logger sees its chunk
// files, and the bundle's chunk map (dist/bundle/chunks.json) names the source files in each, so
// the checks below speak of src/ and node_modules/ files whatever the bundler grouped together.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const hook = join(root, 'test/cli/fixtures/record-imports.mjs');
const HEAVY = ['undici', 'zod', '@inquirer/prompts', '@inquirer/core', 'fastify', 'better-sqlite3', 'jq-wasm', 'string-width'];

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const bundle = join(root, 'dist/bundle');
/** The full CLI as the binary runs it. */
const bundledCli = join(bundle, 'cli.js');
/** Logged in to a server nobody listens on (port 9): the request is made, transport loaded, and fails with exit 6. */
const UNREACHABLE = ['--base-url', 'http://127.0.0.1:9/api/v3', '--token', 't', '-w', '25145486-43d4-4a1e-a25b-8462da40598c'];
let chunkMap: Record<string, string[]>;

beforeAll(async () => {
  if (!existsSync(bundledCli)) throw new Error('dist/bundle/cli.js is missing: run `npm run build` first');
  chunkMap = JSON.parse(await readFile(join(bundle, 'chunks.json'), 'utf8'));
});

/**
 * What a run loaded, as files: each bundle file logged stands for the source files in it (absolute
 * paths under src/ and node_modules/), the rest as logged. A bundle file missing from the chunk map
 * fails the test: the map would no longer say what loads.
 */
function expand(logged: string[]): { modules: string[]; bundleFiles: string[]; outside: string[] } {
  const prefix = pathToFileURL(bundle).href + '/';
  const modules: string[] = [];
  const bundleFiles: string[] = [];
  const outside: string[] = [];
  for (const url of new Set(logged)) {
    if (!url.startsWith(prefix)) {
      modules.push(url);
      outside.push(url);
      continue;
    }
    const file = url.slice(prefix.length);
    const inputs = chunkMap[file];
    if (!inputs) throw new Error(`${file} is loaded but missing from dist/bundle/chunks.json`);
    bundleFiles.push(file);
    modules.push(...inputs.map((input) => join(root, input)));
  }
  return { modules, bundleFiles, outside };
}

async function loadedBy(args: string[]): Promise<{ modules: string[]; bundleFiles: string[]; outside: string[]; stdout: string }> {
  const log = join(dir, 'imports.log');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', hook, join(root, 'bin/wsm.js'), ...args], {
    env: { ...process.env, WSM_IMPORT_LOG: log, WSM_CONFIG_DIR: dir, NO_COLOR: '1' },
  });
  return { ...expand((await readFile(log, 'utf8')).split('\n').filter(Boolean)), stdout };
}

const heavyIn = (modules: string[]) => HEAVY.filter((name) => modules.some((m) => m.includes(`/node_modules/${name}/`)));

describe('start-up imports', () => {
  it('wsm --version is answered by the launcher alone, without loading the CLI', async () => {
    const { modules, stdout } = await loadedBy(['--version']);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(modules.filter((m) => m.includes('/dist/') || m.includes('/node_modules/'))).toEqual([]);
  });

  it('a piped wsm --help is answered from the text commander rendered at build time, identical to the full CLI', async () => {
    const { modules, stdout } = await loadedBy(['--help']);
    expect(modules.filter((m) => m.includes('/dist/') || m.includes('/node_modules/'))).toEqual([]);
    const full = await promisify(execFile)(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { main } = await import(${JSON.stringify(bundledCli)}); process.exitCode = await main(['--help']);`,
      ],
      { env: { ...process.env, WSM_CONFIG_DIR: dir, NO_COLOR: '1' } },
    );
    expect(stdout).toBe(full.stdout);
    expect(stdout).toMatch(/^Usage: wsm /);
    expect(stdout).toContain('templates');
  });

  // On a terminal commander wraps help to its width: the launcher must print, for each width,
  // what the full CLI prints there. `script` (util-linux) gives the command a real terminal.
  it.each([30, 60, 80, 97, 132, 250])(
    'wsm --help on a %i-column terminal is answered from build-time text, identical to the full CLI',
    async (columns) => {
      const log = join(dir, 'imports.log');
      const onTerminal = async (command: string) =>
        (
          await promisify(execFile)('script', ['-qec', `stty cols ${columns}; ${command}`, '/dev/null'], {
            env: { ...process.env, WSM_IMPORT_LOG: log, WSM_CONFIG_DIR: dir, NO_COLOR: '1' },
          })
        ).stdout;
      const sh = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
      const fast = await onTerminal(`${sh(process.execPath)} --import ${sh(hook)} ${sh(join(root, 'bin/wsm.js'))} --help`);
      const modules = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
      expect(modules.filter((m) => m.includes('/dist/') || m.includes('/node_modules/'))).toEqual([]);
      const full = await onTerminal(
        `${sh(process.execPath)} --input-type=module -e ${sh(`const { main } = await import(${JSON.stringify(bundledCli)}); process.exitCode = await main(['--help']);`)}`,
      );
      expect(fast).toBe(full);
      expect(fast).toMatch(/^Usage: wsm /);
      // The width really applies: no line is longer than the terminal unless nothing could wrap it.
      if (columns >= 60) expect(Math.max(...fast.split('\r\n').map((line) => line.length))).toBeLessThanOrEqual(columns);
    },
  );

  // Finding 15: commander left descriptions unwrapped below 40 free columns, so a 60-column
  // terminal broke words in the middle (`WS` / `M_WORKSPACE`).
  // An example (`  $ wsm …`) is one command line to copy, so it is the one kind of line let run over.
  it.each(['--help', 'contacts --help', 'contacts export --help', 'serve --help', 'templates sync --help'])(
    'wsm %s at 60 columns: no line wider but examples, the same words as at 250',
    async (words) => {
      const sh = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
      const helpAt = async (columns: number) =>
        (
          await promisify(execFile)(
            'script',
            ['-qec', `stty cols ${columns}; ${sh(process.execPath)} ${sh(join(root, 'bin/wsm.js'))} ${words}`, '/dev/null'],
            {
              env: { ...process.env, WSM_CONFIG_DIR: dir, NO_COLOR: '1' },
            },
          )
        ).stdout.replace(/\r\n/g, '\n');
      const narrow = await helpAt(60);
      const wide = await helpAt(250);
      expect(narrow).toMatch(/^Usage: wsm /);
      for (const line of narrow.split('\n').filter((l) => !l.startsWith('  $ '))) expect(line.length, line).toBeLessThanOrEqual(60);
      expect(narrow).toMatch(/\n +workspace to act on \(env WSM_WORKSPACE\)\n/);
      expect(narrow.split(/\s+/)).toEqual(wide.split(/\s+/));
    },
  );

  it('wsm help (the full CLI) declares no resource in full: their files stay unloaded', async () => {
    const { modules } = await loadedBy(['help']);
    expect(modules.some((m) => m.endsWith('/src/cli.ts'))).toBe(true);
    expect(modules.filter((m) => /\/src\/commands\/(contacts|templates|users|labels|auth|profile)\.ts$/.test(m))).toEqual([]);
    // The top-level help shows the arguments of the commands that take their own: those load.
    expect(modules.some((m) => m.endsWith('/src/commands/serve.ts'))).toBe(true);
  });

  it.each([['help'], ['auth', '--help'], ['profile', 'list', '--help'], ['contacts', 'list', '--help']])(
    'wsm %s loads no heavy dependency and no verb module',
    async (...args) => {
      const { modules, stdout } = await loadedBy(args);
      expect(stdout.length).toBeGreaterThan(0);
      expect(modules.some((m) => m.endsWith('/src/cli.ts'))).toBe(true);
      expect(heavyIn(modules)).toEqual([]);
      expect(modules.filter((m) => /\/src\/(server|api\/client|cli\/context|cli\/xlsx|commands\/[^/]+\/)/.test(m))).toEqual([]);
    },
  );

  it('the spreadsheet reader loads for an .xlsx file, and only then (control)', async () => {
    const { writeFile } = await import('node:fs/promises');
    const file = join(dir, 'people.xlsx');
    await writeFile(file, 'not a workbook');
    const failed = await loadedBy(['contacts', 'import', file, '--dry-run']).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toBe(
      `error: ${file}: it is text, not an .xlsx workbook (a workbook is a ZIP archive): save it from a spreadsheet as .xlsx: nothing was sent\n`,
    );
    const { modules } = expand((await readFile(join(dir, 'imports.log'), 'utf8')).split('\n').filter(Boolean));
    expect(modules.some((m) => m.endsWith('/src/formats/xlsx/sheet-reader.ts'))).toBe(true);
    expect(modules.some((m) => m.endsWith('/src/formats/xlsx/zip-writer.ts'))).toBe(false);
  });

  it('the logger does see them when a command needs them (control)', async () => {
    const { modules } = await loadedBy(['profile', 'list', '--jq', '.[].name']);
    expect(heavyIn(modules)).toContain('jq-wasm');
    expect(modules.some((m) => m.endsWith('/src/commands/profile/list.ts'))).toBe(true);
  });

  // zod is imported as a namespace (`import * as z from 'zod'`) so that the bundler keeps only what
  // is used: with `import { z }` every one of zod's locales is bundled and evaluated (about 50 ms
  // of CPU at each command's start-up, measured with bench/startup.mjs).
  it('the bundle holds only the parts of zod in use: of its locales, English alone', () => {
    const locales = Object.values(chunkMap)
      .flat()
      .filter((input) => input.includes('node_modules/zod/v4/locales/'));
    expect(locales).toEqual(['node_modules/zod/v4/locales/en.js']);
  });

  // The bundle's own modules: a command loads its verb's chunk and what that needs, bundled
  // dependencies included (zod, undici), and nothing of tsc's dist/ tree or of node_modules that
  // the bundle holds.
  it('a command runs from the bundle: its verb, zod and undici come from bundle chunks, the server stays unloaded', async () => {
    // Nothing listens on port 9: the request is made (transport loaded) and fails with exit 6.
    const args = ['contacts', 'list', ...UNREACHABLE];
    const failed = await loadedBy(args).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(6);
    expect(failed?.stderr).toMatch(/^error: cannot reach http:\/\/127\.0\.0\.1:9\/api\/v3 \(connection refused\)/);
    const { modules, bundleFiles, outside } = expand((await readFile(join(dir, 'imports.log'), 'utf8')).split('\n').filter(Boolean));
    expect(bundleFiles).toContain('cli.js');
    expect(modules.some((m) => m.endsWith('/src/commands/contacts/list.ts'))).toBe(true);
    expect(modules.some((m) => m.endsWith('/src/api/transport.ts'))).toBe(true);
    expect(modules.some((m) => m.includes('/node_modules/zod/'))).toBe(true);
    expect(modules.some((m) => m.includes('/node_modules/undici/'))).toBe(true);
    // ES modules are logged as URLs, CommonJS ones (undici's files if loaded by path) as paths.
    expect(outside.filter((m) => m.includes('/dist/') || m.includes('/node_modules/'))).toEqual([]);
    expect(modules.filter((m) => /\/src\/server\/|\/node_modules\/(better-sqlite3|fastify)\//.test(m))).toEqual([]);
    // The spreadsheet reader and writer load for an .xlsx alone.
    expect(modules.filter((m) => m.includes('/src/formats/xlsx/'))).toEqual([]);
    // The commands that take their own arguments are declared for the top-level help alone.
    expect(modules.filter((m) => /\/src\/commands\/(serve|diff|apply|mcp|api|completion|version)\.ts$/.test(m))).toEqual([]);
    // The client loads the descriptions it uses, with their schemas: the contacts ones (and the
    // groups schemas a contact's groups are checked with), no other resource's.
    const ours = (dir: string) =>
      modules
        .filter((m) => m.includes(`/src/api/${dir}/`))
        .map((m) => m.slice(m.lastIndexOf('/') + 1))
        .sort();
    expect(ours('descriptions')).toEqual(['catalog.ts', 'contacts.ts', 'crud.ts', 'paths.ts', 'permission-groups.ts', 'types.ts']);
    expect(ours('schemas')).toEqual(['common.ts', 'contacts.ts', 'groups.ts', 'validation.ts']);
  });

  it("--json fields are read from the command's own description: no other resource's is loaded", async () => {
    const args = ['contacts', 'list', '--json', 'id,name', ...UNREACHABLE];
    const failed = await loadedBy(args).then(
      () => undefined,
      (error: { code: number }) => error,
    );
    expect(failed?.code).toBe(6);
    const { modules } = expand((await readFile(join(dir, 'imports.log'), 'utf8')).split('\n').filter(Boolean));
    expect(modules.some((m) => m.endsWith('/src/commands/shared/record-fields.ts'))).toBe(true);
    const descriptions = modules
      .filter((m) => m.includes('/src/api/descriptions/'))
      .map((m) => m.slice(m.lastIndexOf('/') + 1))
      .sort();
    expect(descriptions).toEqual(['catalog.ts', 'contacts.ts', 'crud.ts', 'paths.ts', 'permission-groups.ts', 'types.ts']);
  });

  // undici's own build for Node core defines `esbuildDetection`, which leaves its experimental
  // Milo parser out (two inlined WebAssembly modules): the request chunk is a third smaller.
  it('the bundle holds undici with llhttp alone, without the Milo parser', () => {
    const inputs = Object.values(chunkMap).flat();
    expect(inputs).toContain('node_modules/undici/lib/llhttp/llhttp_simd-wasm.js');
    expect(inputs.filter((input) => input.includes('node_modules/undici/lib/milo/'))).toEqual([]);
  });
});
