/**
 * What an import names that is no file it can read before sending: standard input (`-`), a pipe
 * (a shell's `<(cat f.csv)`, a FIFO), a device (/dev/null). Each is one line saying what it is and
 * what to do, exit 2, before anything else (no login is needed to be told); a directory and a
 * missing file keep the error reading them gives. A file uploaded as it is (an avatar) is checked
 * by the same function and said the same way. The pipe of a shell is the real binary's; the rest
 * run in-process (in-process.ts).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { BIN, cleanup, testEnv } from './processes.js';

let dir: string;
let env: NodeJS.ProcessEnv;
let csv: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wsm-not-a-file-'));
  env = testEnv(dir);
  csv = join(dir, 'people.csv');
  writeFileSync(csv, 'number,name\n14155550001,Ann\n');
});
afterAll(() => cleanup(dir));

const SAVE_FIRST = 'the file is read before it is sent; save it to a file first';

/** The binary run by bash, its file given as `<(cat people.csv)`: a pipe the shell writes into. */
function throughShellPipe(args: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const script = `exec "$NODE" "$BIN" ${args} <(cat "$CSV")`;
    const child = spawn('bash', ['-c', script], {
      env: { ...env, NODE: process.execPath, BIN, CSV: csv },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('an import given no file it can read twice', () => {
  it('standard input (-) is said as such, for contacts import and imports create, dry run or not', async () => {
    for (const args of [
      ['contacts', 'import', '-'],
      ['contacts', 'import', '-', '--dry-run'],
      ['imports', 'create', '-', '--wait'],
    ]) {
      const run = await wsmInProcess(env, args, 'number,name\n14155550001,Ann\n');
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({
        args,
        code: 2,
        stderr: `error: cannot import from standard input: ${SAVE_FIRST}\n`,
      });
    }
  });

  it("a shell's <(cat file) is a pipe", async () => {
    const run = await throughShellPipe('contacts import --dry-run');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(`^error: cannot import from /dev/fd/\\d+: it is a pipe, which can be read only once, and ${SAVE_FIRST}\\n$`),
    );
  });

  it('a FIFO nothing writes to is refused without waiting for a writer, named .xlsx or not', async () => {
    for (const name of ['fifo.csv', 'fifo.xlsx']) {
      const fifo = join(dir, name);
      execFileSync('mkfifo', [fifo]);
      const run = await wsmInProcess(env, ['contacts', 'import', fifo, '--dry-run']);
      expect({ code: run.code, stderr: run.stderr }).toEqual({
        code: 2,
        stderr: `error: cannot import from ${fifo}: it is a pipe, which can be read only once, and ${SAVE_FIRST}\n`,
      });
    }
  });

  it('/dev/null is a device, not a file', async () => {
    const run = await wsmInProcess(env, ['contacts', 'import', '/dev/null']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 2,
      stderr: 'error: cannot import from /dev/null: it is a device, not a file: name a file\n',
    });
  });

  it('a directory and a missing file keep the reading error, .xlsx or not', async () => {
    const folder = join(dir, 'folder.xlsx');
    mkdirSync(folder);
    for (const [file, reason] of [
      [dir, 'EISDIR'],
      [folder, 'EISDIR'],
      [join(dir, 'none.csv'), 'ENOENT'],
    ]) {
      const run = await wsmInProcess(env, ['contacts', 'import', file, '--dry-run']);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 2, stderr: `error: cannot read ${file} (${reason})\n` });
    }
  });
});

describe('an upload given no file it can read before sending (an avatar)', () => {
  it('standard input, a FIFO and a device are said as such, a directory and a missing file by their error: exit 2, nothing sent', async () => {
    const fifo = join(dir, 'avatar-fifo.png');
    execFileSync('mkfifo', [fifo]);
    const folder = join(dir, 'avatars');
    mkdirSync(folder);
    const cases: [string, string][] = [
      ['-', `cannot upload from standard input: ${SAVE_FIRST}`],
      [fifo, `cannot upload from ${fifo}: it is a pipe, which can be read only once, and ${SAVE_FIRST}`],
      ['/dev/null', 'cannot upload from /dev/null: it is a device, not a file: name a file'],
      [folder, `cannot read ${folder} (EISDIR): nothing was sent`],
      [join(dir, 'none.png'), `cannot read ${join(dir, 'none.png')} (ENOENT): nothing was sent`],
    ];
    for (const [file, message] of cases) {
      const run = await wsmInProcess(env, ['contacts', 'update', '1', '--avatar', file]);
      expect({ file, code: run.code, stderr: run.stderr }).toEqual({ file, code: 2, stderr: `error: ${message}\n` });
    }
  });
});
