/**
 * Whole sets: the README's bulk delete, `contacts list --search X -q | contacts delete
 * --from - --yes`, acted on one page and said `✓ deleted 10 contacts`. A page piped on now says
 * on stderr what it left out, and the bulk verb names how many it acted on of how many it read.
 * Against a real `wsm serve`: the pipes are the real binary's, through a shell.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, serveBackend } from './backends.js';
import { BIN, cleanup } from './processes.js';
import { binaryFirstRunner } from './in-process.js';

/** The first run of each command goes to the built binary, every later one in-process (in-process.ts). */
const wsm = binaryFirstRunner();

let server: Backend;

/** `wsm <left> | wsm <right>` through a shell pipe: each side's stderr and the pipe's exit code. */
function pipe(left: string[], right: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const quote = (args: string[]) => args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const node = `'${process.execPath}' '${BIN}'`;
  const script = `set -o pipefail; ${node} ${quote(left)} 2>"$LEFT_ERR" | ${node} ${quote(right)}`;
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], {
      env: { ...server.env, LEFT_ERR: join(server.dir, 'left.err') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  server = await serveBackend();
  const file = join(server.dir, 'people.csv');
  const rows = Array.from({ length: 27 }, (_, i) => `1415${String(5550100 + i)},Old ${i},old${i}@old.example`);
  writeFileSync(file, `number,name,email\n${rows.join('\n')}\n14155559999,Keep,keep@new.example\n`);
  const imported = await wsm(server.env, ['contacts', 'import', file, '--wait', '--interval', '0.2s']);
  expect(imported.code, imported.stderr).toBe(0);
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

describe('a page piped on says what it left out; a bulk verb says how many of how many', () => {
  it('without --all: the list says it printed 10 of 27 on stderr, -q too; the delete says 10 of the 10 read', async () => {
    const res = await pipe(['contacts', 'list', '--search', 'old.example', '-q'], ['contacts', 'delete', '--from', '-', '--yes']);
    expect(readFileSync(join(server.dir, 'left.err'), 'utf8')).toBe(
      'warning: printed contacts 1-10 of 27 (page 1 of 3); the other pages were left out: add --all for every one\n',
    );
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('✓ deleted 10 of the 10 contacts read from standard input: 0 already gone, 0 failed\n');
  });

  it('with --all: every match, nothing said about pages; the unconfirmed delete names the count and where it came from', async () => {
    const listed = await wsm(server.env, ['contacts', 'list', '--search', 'old.example', '--all', '-q']);
    expect(listed.stderr).toBe('');
    expect(listed.stdout.trim().split('\n')).toHaveLength(17);
    const unconfirmed = await wsm(server.env, ['contacts', 'delete', '--from', '-'], listed.stdout);
    expect([unconfirmed.code, unconfirmed.stderr]).toEqual([
      2,
      'error: deleting all 17 contacts read from standard input needs --yes when not on a terminal\n',
    ]);
    const res = await pipe(['contacts', 'list', '--search', 'old.example', '--all', '-q'], ['contacts', 'delete', '--from', '-', '--yes']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('✓ deleted 17 of the 17 contacts read from standard input: 0 already gone, 0 failed\n');
    const left = await wsm(server.env, ['contacts', 'list', '-o', 'json']);
    expect(JSON.parse(left.stdout).map((c: { name: string }) => c.name)).toEqual(['Keep']);
    expect(left.stderr).toBe('');
  });

  it('a page chosen with --page is not warned about; -o json is', async () => {
    expect((await wsm(server.env, ['contacts', 'list', '--per-page', '1', '--page', '1', '-q'])).stderr).toBe('');
    await wsm(server.env, ['contacts', 'create', '--number', '14155558888', '--name', 'Second']);
    const json = await wsm(server.env, ['contacts', 'list', '--per-page', '1', '-o', 'json']);
    expect(json.stderr).toBe('warning: printed contacts 1-1 of 2 (page 1 of 2); the other pages were left out: add --all for every one\n');
    expect(JSON.parse(json.stdout)).toHaveLength(1);
  });
});
