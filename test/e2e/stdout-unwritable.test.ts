/**
 * Standard output that cannot be written (a full disk, a descriptor open only for reading): the
 * real binary says so in one line on stderr and exits 1, never a stack trace; a dry run's streamed
 * JSON document as well as a one-line answer.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanup, testEnv } from './processes.js';

const dir = mkdtempSync(join(tmpdir(), 'wsm-stdout-'));
afterAll(() => cleanup(dir));

/** The binary with its stdout on a file opened for reading only: every write to it fails (EBADF). */
function withUnwritableStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const readOnly = join(dir, 'read-only');
  writeFileSync(readOnly, '');
  const fd = openSync(readOnly, 'r');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: testEnv(dir), stdio: ['ignore', fd, 'pipe'] });
    closeSync(fd);
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('stdout that cannot be written', () => {
  it('wsm version: one line on stderr, exit 1', async () => {
    expect(await withUnwritableStdout(['version'])).toEqual({
      code: 1,
      stderr: 'error: cannot write to stdout (EBADF): the output is incomplete\n',
    });
  });

  it("an import's dry run in JSON: the same line after the check's warnings, exit 1", async () => {
    const file = join(dir, 'rows.csv');
    writeFileSync(file, `number,name\n${Array.from({ length: 3000 }, (_, at) => `${14155550000 + at},N${at}\n`).join('')}`);
    const run = await withUnwritableStdout(['contacts', 'import', file, '--dry-run', '-o', 'json']);
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n').filter((line) => line.startsWith('error') || line.includes('    at '))).toEqual([
      'error: cannot write to stdout (EBADF): the output is incomplete',
    ]);
  });
});
