// A list item of the docs ends its sentence before the next item starts: an item cut in two
// (`… and validates` followed by another bullet, then the rest of the sentence) reads as nonsense.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOC_PAGES, REPO_ROOT } from './helpers.js';

/** `page:line` of each bullet whose previous bullet stops in the middle of a sentence. */
function cutBullets(text: string, page: string): string[] {
  const found: string[] = [];
  let fenced = false;
  let inItem = false;
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trimStart().startsWith('```')) {
      fenced = !fenced;
      inItem = false;
      return;
    }
    if (fenced) return;
    if (/^\s*- /.test(line)) {
      const previous = (lines[index - 1] ?? '').trimEnd();
      if (inItem && previous !== '' && !/[.:;)!?`"*|]$/.test(previous)) found.push(`${page}:${index}: ${previous.slice(-50)}`);
      inItem = true;
    } else if (line.trim() === '' || line.startsWith('#') || line.startsWith('|')) {
      inItem = false;
    }
  });
  return found;
}

describe('the docs', () => {
  it('finds a bullet cut in two', () => {
    expect(cutBullets('- one sentence that\n- another.\n  goes on here.\n', 'x.md')).toEqual(['x.md:1: - one sentence that']);
  });

  it.each(DOC_PAGES)('%s: every list item ends its sentence before the next begins', (page) => {
    expect(cutBullets(readFileSync(join(REPO_ROOT, page), 'utf8'), page)).toEqual([]);
  });
});
