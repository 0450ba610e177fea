// `--rejects` never replaces the file being imported: the target is the input however it is named
// (a folder link, a hard link, a file link, the path through /proc/self/root), refused with exit 2 before
// anything is read or sent, and the input is left as it was; `--rejects -` is refused too.
import { linkSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupApi, type Api } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

const PEOPLE = 'number,name\n14155550101,Ann\nnot-a-number,Bob\n';

describe('contacts import --rejects and the input', () => {
  it.each([
    ['a folder link to the same folder', (dir: string) => (symlinkSync(dir, join(dir, 'same')), join(dir, 'same', 'people.csv'))],
    ['a hard link to the file', (dir: string) => (linkSync(join(dir, 'people.csv'), join(dir, 'other.csv')), join(dir, 'other.csv'))],
    ['a file link to the file', (dir: string) => (symlinkSync(join(dir, 'people.csv'), join(dir, 'alias.csv')), join(dir, 'alias.csv'))],
    ['the path through /proc/self/root', (dir: string) => join('/proc/self/root', dir, 'people.csv')],
  ])('%s: exit 2, nothing read or sent, the input as it was', async (_how, target) => {
    const file = await api.file('people.csv', PEOPLE);
    const rejects = target(api.dir);
    for (const mode of [['--dry-run'], ['--wait']]) {
      const { code, stdout, stderr } = await api.run(['contacts', 'import', file, ...mode, '--rejects', rejects]);
      expect({ code, stdout, stderr }).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: --rejects ${rejects} is the file being imported (${file}): name another file; nothing was read or sent\n`,
      });
      expect(readFileSync(file, 'utf8')).toBe(PEOPLE);
    }
  });

  it('--rejects - is refused: exit 2, standard output is the report', async () => {
    const file = await api.file('people.csv', PEOPLE);
    const { code, stderr } = await api.run(['contacts', 'import', file, '--dry-run', '--rejects', '-']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      "error: --rejects - is refused: standard output carries the import's report, and the rows would be mixed into it; name a file\n",
    );
  });

  it('another file is written as before', async () => {
    const file = await api.file('people.csv', PEOPLE);
    const { code } = await api.run(['contacts', 'import', file, '--dry-run', '--rejects', join(api.dir, 'fix.csv')]);
    expect(code).toBe(8);
    expect(readFileSync(join(api.dir, 'fix.csv'), 'utf8')).toContain('not-a-number,Bob');
    expect(readFileSync(file, 'utf8')).toBe(PEOPLE);
  });
});
