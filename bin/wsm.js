#!/usr/bin/env node
// Thin launcher: the CLI is bundled into dist/bundle/ by `npm run build` (scripts/build-bundle.mjs).
// 1. The Node.js version is checked before anything else loads: on an older Node, better-sqlite3
//    and the newer dependencies crash natively or at import, so one line and exit 1 instead. This
//    file keeps to syntax that old Nodes parse (no top-level await) so the line always prints.
// 2. Two fast paths skip loading the CLI (commander alone costs about a third of node's own
//    start-up), each printing exactly what commander would:
//    - `wsm --version`: the version from package.json;
//    - `wsm --help`: text rendered by commander at build time (scripts/build-help.mjs), for a pipe
//      (dist/help.txt) or for a terminal of this width (dist/help-tty/).
//    test/cli/startup.test.ts checks both against the full CLI, on a pipe and on a terminal.
// 3. Everything else runs the full CLI with V8's compile cache on (Node 22.1+), kept in the user's
//    cache directory: later runs skip compiling the bundle's chunks (measured in bench/startup).
import { readFileSync } from 'node:fs';

// The lowest release of each supported line, as package.json's engines says
// (@inquirer/prompts 8 sets 22.22.2 and 24.15.0). Odd lines (23, 25) are let through unchecked.
const MINIMUM = { 22: [22, 2], 24: [15, 0] };

function unsupportedNode(version) {
  const [major, minor, patch] = version.split('.').map(Number);
  // The floor itself, not just its major: "22 or later" would send a user to 22.0, which is refused too.
  if (major < 22) return 'wsm needs Node.js 22.22.2 or later on the 22 line, or 24.15.0 or later; this is ' + version;
  const least = MINIMUM[major];
  if (least && (minor < least[0] || (minor === least[0] && patch < least[1]))) {
    return 'wsm needs Node.js ' + major + '.' + least.join('.') + ' or later on the ' + major + ' line; this is ' + version;
  }
  return undefined;
}

const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;

function cachedHelp() {
  if (only !== '--help' && only !== '-h') return undefined;
  if (process.env.FORCE_COLOR || process.env.CLICOLOR_FORCE !== undefined) return undefined;
  try {
    if (!process.stdout.isTTY) return readFileSync(new URL('../dist/help.txt', import.meta.url), 'utf8');
    // Commander sizes help to the terminal: the text rendered for this width.
    const columns = process.stdout.columns;
    if (!Number.isInteger(columns)) return undefined;
    const { widths, wide } = JSON.parse(readFileSync(new URL('../dist/help-tty/index.json', import.meta.url), 'utf8'));
    const file = columns < widths.length ? widths[columns] : wide;
    return readFileSync(new URL(`../dist/help-tty/${file}.txt`, import.meta.url), 'utf8');
  } catch {
    return undefined; // not built yet: the full CLI answers
  }
}

/** V8's compile cache in $XDG_CACHE_HOME/wsm (or ~/.cache/wsm); silently none when unwritable. */
async function enableCompileCache() {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return;
  try {
    const [{ enableCompileCache: enable }, { homedir }, { join }] = await Promise.all([
      import('node:module'),
      import('node:os'),
      import('node:path'),
    ]);
    const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
    // Node creates the directory and reports a failure in its return value instead of throwing.
    enable?.(join(base, 'wsm', 'compile-cache'));
  } catch {
    // No cache: the CLI runs as before, only slower to start.
  }
}

const unsupported = unsupportedNode(process.versions.node);
if (unsupported) {
  process.stderr.write(unsupported + '\n');
  process.exitCode = 1;
} else if (only === '--version') {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  const help = cachedHelp();
  if (help !== undefined) process.stdout.write(help);
  else {
    enableCompileCache()
      .then(() => import('../dist/bundle/cli.js'))
      .then(({ main }) => main(args))
      .then((code) => {
        process.exitCode = code;
      });
  }
}
