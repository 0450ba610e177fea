// Bundles the CLI (src/cli.ts and everything it loads, its dependencies included) into
// dist/bundle/ with esbuild, which bin/wsm.js runs. Run by `npm run build`, after tsc.
// Why: Node resolves, reads and links every ES module file on its own; `wsm contacts list` loaded
// about 220 files (73 of ours, 95 of zod, 36 of undici), and their loading cost more than their
// code. A bundle loads a few dozen chunks instead (bench/startup.mjs has the figures).
// - Code splitting keeps each command's modules apart: every `await import('./<verb>.js')` of src/
//   is a chunk of its own, loaded only when that command runs, so `wsm --help` still loads
//   neither the server, SQLite, undici nor zod.
// - dist/bundle/chunks.json maps every output file to the source files in it: the start-up tests
//   read it to say which modules a command loaded (test/cli/startup.test.ts).
// - Left to Node, from node_modules: better-sqlite3 (a native addon found through its own
//   directory), jq-wasm (reads its .wasm file beside itself), fastify and its plugins
//   (@fastify/swagger-ui serves files from its own directory) and @inquirer (prompts only).
// - CommonJS bundled into ES modules calls `require` for Node's built-ins: a chunk that calls it
//   gets one from createRequire (esbuild's documented answer, evanw/esbuild#1921). esbuild puts
//   the banner on every chunk; it is taken off the others (all but two), each of which would
//   otherwise import node:module and build a require function on every start.
// - Whitespace is minified: a chunk's source is read and decoded on every start, compiled or not.
// - `esbuildDetection` is defined as undici's own build for Node core defines it: its HTTP/1 client
//   then uses llhttp alone, leaving out the experimental Milo parser (two inlined WebAssembly
//   modules, 155 kB of the chunk every request loads, read and decoded on each start).
// - src/ imports zod as a namespace (`import * as z from 'zod'`): esbuild then keeps the parts in
//   use; `import { z }` would bundle and run all of zod, its 40 locales included.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const REQUIRE_BANNER =
  "import { createRequire as __wsmCreateRequire } from 'node:module'; const require = __wsmCreateRequire(import.meta.url);";
const outdir = `${root}dist/bundle`;

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/cli.ts'],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  chunkNames: 'chunks/[name]-[hash]',
  entryNames: '[name]',
  minifyWhitespace: true,
  sourcemap: false,
  metafile: true,
  logLevel: 'warning',
  define: { esbuildDetection: '1' },
  external: ['better-sqlite3', 'jq-wasm', 'fastify', '@fastify/*', '@inquirer/*'],
  banner: { js: REQUIRE_BANNER },
});

for (const file of Object.keys(result.metafile.outputs)) {
  if (!file.endsWith('.js')) continue;
  const text = readFileSync(`${root}${file}`, 'utf8');
  const rest = text.slice(REQUIRE_BANNER.length);
  // `__require` (esbuild's shim) does not match: only a chunk naming `require` itself keeps it.
  if (text.startsWith(REQUIRE_BANNER) && !/\brequire\b/.test(rest)) writeFileSync(`${root}${file}`, rest.replace(/^\n/, ''));
}

/** Output file (relative to dist/bundle) -> the source files bundled into it (relative to the package). */
const chunks = {};
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  chunks[relative(outdir, `${root}${file}`)] = Object.keys(output.inputs).sort();
}
writeFileSync(`${outdir}/chunks.json`, `${JSON.stringify(chunks, null, 1)}\n`);
