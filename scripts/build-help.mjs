// Writes dist/help.txt: `wsm --help` exactly as commander renders it for a pipe (80 columns),
// so bin/wsm.js can answer a piped `wsm --help` without loading commander. Run by `npm run build`.
import { writeFileSync } from 'node:fs';

// Commander sizes help to the terminal; render for a pipe whatever this build runs in.
Object.defineProperty(process.stdout, 'isTTY', { value: false });
const { main } = await import('../dist/cli.js');
const { createTestIO } = await import('../dist/cli/io.js');
const io = createTestIO({ stdoutTTY: false });
const code = await main(['--help'], { io, env: {} });
const text = io.stdoutText;
if (code !== 0 || !text.startsWith('Usage: wsm')) throw new Error(`wsm --help exited ${code}: ${io.stderrText}`);
writeFileSync(new URL('../dist/help.txt', import.meta.url), text);
