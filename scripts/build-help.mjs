// Writes what `wsm --help` prints, rendered by commander at build time, so bin/wsm.js can answer
// it without loading commander (a third of node's own start-up). Run by `npm run build`.
// - dist/help.txt: for a pipe (commander renders 80 columns).
// - dist/help-tty/: for a terminal, which commander sizes to its width. The text is rendered for
//   every width up to the one past which nothing wraps any more; widths with the same text share
//   a file, and index.json maps a width to its file (wider terminals use `wide`).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

const { main } = await import('../dist/cli.js');
const { createTestIO } = await import('../dist/cli/io.js');

/** `wsm --help` as commander renders it on stdout that is a terminal of `columns` (or a pipe). */
async function render(columns) {
  Object.defineProperty(process.stdout, 'isTTY', { value: columns !== undefined, configurable: true });
  Object.defineProperty(process.stdout, 'columns', { value: columns, configurable: true });
  const io = createTestIO({ stdoutTTY: columns !== undefined });
  const code = await main(['--help'], { io, env: {} });
  const text = io.stdoutText;
  if (code !== 0 || !text.startsWith('Usage: wsm')) throw new Error(`wsm --help exited ${code}: ${io.stderrText}`);
  return text;
}

writeFileSync(new URL('../dist/help.txt', import.meta.url), await render(undefined));

const dir = new URL('../dist/help-tty/', import.meta.url);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir);
const unwrapped = await render(1000);
const longest = Math.max(...unwrapped.split('\n').map((line) => line.length));
const files = new Map(); // text -> file id
const fileOf = (text) => {
  if (!files.has(text)) {
    files.set(text, files.size);
    writeFileSync(new URL(`${files.size - 1}.txt`, dir), text);
  }
  return files.get(text);
};
const wide = fileOf(unwrapped);
const widths = [];
for (let columns = 0; columns <= longest; columns++) widths.push(fileOf(await render(columns)));
// Past `longest` nothing can wrap: check it rather than trust it.
if ((await render(longest + 1)) !== unwrapped) throw new Error('help text still changes past its longest line');
writeFileSync(new URL('index.json', dir), JSON.stringify({ widths, wide }));
