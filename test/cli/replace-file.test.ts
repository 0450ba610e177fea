// The one atomic writer (config.json, `wsm pull -f`, the state file): the whole new text or the
// old file, never a mix, and no temporary file left behind either way.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceFile, writeFileAtomically } from '../../src/cli/replace-file.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'wsm-replace-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomically', () => {
  it('replaces a file whole with the mode asked, leaving no temporary file', () => {
    const path = join(dir, 'config.json');
    writeFileSync(path, 'x'.repeat(10_000));
    writeFileAtomically(path, '{"a":1}\n', 0o600);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n');
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('a rename that fails (a folder where the file is) leaves no temporary file beside it', () => {
    const path = join(dir, 'state.json');
    mkdirSync(path);
    expect(() => writeFileAtomically(path, 'new')).toThrow(
      expect.objectContaining({ code: expect.stringMatching(/^(EISDIR|EPERM|ENOTEMPTY|EEXIST)$/) }),
    );
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('the file system’s own error comes back for the caller to name (a missing folder)', () => {
    expect(() => writeFileAtomically(join(dir, 'missing', 'f.json'), 'new')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('replaceFile', () => {
  it('names the user’s file and why, exit 1, when the folder does not exist', async () => {
    const path = join(dir, 'nope', 'workspace.yaml');
    const error = await replaceFile(path, 'a: 1\n').catch((e: unknown) => e);
    expect((error as Error).message).toBe(`cannot write ${path} (its folder does not exist)`);
    expect((error as { exitCode?: number }).exitCode).toBe(1);
  });

  it('a target that is a folder is said so, and the folder keeps its contents', async () => {
    const path = join(dir, 'out');
    mkdirSync(path);
    writeFileSync(join(path, 'inside'), 'kept');
    const error = await replaceFile(path, 'text').catch((e: unknown) => e);
    expect((error as Error).message).toMatch(new RegExp(`^cannot write ${path.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} \\(`));
    expect(readFileSync(join(path, 'inside'), 'utf8')).toBe('kept');
    expect(readdirSync(dir)).toEqual(['out']);
  });
});
