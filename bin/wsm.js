#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build`.
// Two fast paths skip loading the CLI (commander alone costs about a third of node's own
// start-up), each printing exactly what commander would:
// - `wsm --version`: the version from package.json;
// - `wsm --help`: text rendered by commander at build time (scripts/build-help.mjs), for a pipe
//   (dist/help.txt) or for a terminal of this width (dist/help-tty/).
// test/cli/startup.test.ts checks both against the full CLI, on a pipe and on a terminal.
import { readFileSync } from 'node:fs';

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

const help = cachedHelp();
if (only === '--version') {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else if (help !== undefined) {
  process.stdout.write(help);
} else {
  const { main } = await import('../dist/cli.js');
  process.exitCode = await main(args);
}
