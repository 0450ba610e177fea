#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build`.
// Fast path: exactly `wsm --version` prints package.json's version without loading the CLI
// (commander and every command registration cost more than node's own start-up); the output
// is what commander prints for it (test/server/scale.test.ts checks both agree).
const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  const { main } = await import('../dist/cli.js');
  process.exitCode = await main(args);
}
