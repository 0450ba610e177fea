// The repository stands alone: a clone has no folder beside it (the team's shared spec), so no file names one, and code
// comments (and tests' names) cite the docs (docs/decisions.md §N, docs/api-reference.md), never an
// issue tracker a reader outside cannot open. The patterns are built from parts so that this file passes its own check.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli/helpers.js';

const SKIPPED = new Set(['node_modules', 'dist', '.git', 'package-lock.json']);
const TEXT = /\.(ts|mts|mjs|cjs|js|json|md|yml|yaml|csv|txt)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return TEXT.test(entry.name) ? [path] : [];
  });
}

/** `file:line: text` of every line of `files` that `pattern` matches. */
function linesMatching(files: string[], pattern: RegExp, part: (line: string) => string = (line) => line): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => (pattern.test(part(line)) ? [`${relative(REPO_ROOT, file)}:${index + 1}: ${line.trim()}`] : [])),
  );
}

/** The comment on a line of code: after `//`, or a line of a block comment. Rough, but strings rarely hold either. */
const commentOf = (line: string) => (/^\s*(\/\*\*?|\*)/.test(line) ? line : (/(?:^|\s)\/\/(.*)$/.exec(line)?.[1] ?? ''));

/** The name a line gives a test or a group of tests: `it('…'`, `describe("…"`. */
const titleOf = (line: string) => /\b(?:it|describe|test)\(\s*(['"`])(.*?)\1/.exec(line)?.[2] ?? '';

const OUTSIDE = new RegExp(['shared/' + 'spec', 'spec/' + '(api|cli|decisions)\\.md', '\\bapi' + '\\.md\\b'].join('|'));
const ISSUE = new RegExp(['\\bissues? ' + '\\d+', '(^|[\\s(])#' + '\\d{1,4}\\b'].join('|'), 'i');

describe('the repository stands alone', () => {
  it('names no file outside it: not the shared spec folder nor its three pages (the published API is docs/api-reference.md)', () => {
    expect(linesMatching(filesUnder(REPO_ROOT), OUTSIDE)).toEqual([]);
  });

  it('cites no issue number in a comment of src/: a comment says why, and cites docs sections', () => {
    expect(linesMatching(filesUnder(join(REPO_ROOT, 'src')), ISSUE, commentOf)).toEqual([]);
  });

  it("cites none in the tests', scripts' and benchmarks' comments, nor in a test's name", () => {
    const files = ['test', 'scripts', 'bench', 'bin'].flatMap((dir) => filesUnder(join(REPO_ROOT, dir)));
    expect(linesMatching(files, ISSUE, (line) => `${commentOf(line)} ${titleOf(line)}`)).toEqual([]);
  });
});
