/**
 * Expressions over the whole list (`length`, `sort_by(.name)`) run over the elements one by one
 * (jq-whole.ts), and print exactly what jq prints for them on the whole list: compared byte for
 * byte on a list that goes to jq's thread as a first part and several pieces after it, with names
 * beyond ASCII, equal keys (ties keep the list's order), and on an empty list. Most forms run on a
 * list of about 900 KB with the thread taken from 400 KB (the same parts, a fifth of jq's work);
 * those whose size is the point (a group of nearly the whole list, ordered texts kept over several
 * 1 MB blocks) run on about 4.5 MB at the CLI's own threshold.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runJqOverList } from '../../src/cli/jq-list.js';
import { overElements, wholeListProgram } from '../../src/cli/jq-whole.js';
import { runJq } from '../../src/cli/jq.js';

async function* rowsOf<T>(items: T[]): AsyncIterable<T> {
  for (const item of items) yield item;
}

async function overList(rows: unknown[], expression: string, pretty: boolean, threadChars?: number): Promise<string> {
  const writes: string[] = [];
  await runJqOverList(rowsOf(rows), expression, { pretty, write: (text) => writes.push(text), threadChars });
  return writes.join('');
}

/** `count` contacts: every 7th name beyond ASCII, names all distinct, 50 distinct cities. */
function contacts(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: i % 7 === 0 ? `Zoë ${(i * 7919) % count} 🙂` : `Ann ${(i * 7919) % count}`,
    city: `city ${i % 50}`,
    status: i % 1000 !== 0,
    score: i % 3 === 0 ? null : (i * 31) % 997,
    note: 'x'.repeat(100),
  }));
}

describe('wholeListProgram: which expressions run over the elements one by one', () => {
  it.each([
    ['length', false, 'reduce inputs as $_ (0; . + 1)'],
    [' add ', false, 'reduce inputs as $x (null; . + $x)'],
    ['.[-1]', true, 'reduce inputs as $x (null; $x)'],
    ['min_by(.a)', true, expect.stringMatching(/^inputs \| \(\[\.a\n\] as \$k \| /)],
    ['sort_by(.name)', false, expect.stringContaining('inputs | ([.name\n] as $k')],
    ['sort_by(.name)', true, expect.stringContaining('inputs | ([.name\n] as $k')],
    ['sort_by(.name) | .[0]', false, expect.stringContaining('inputs | ([.name\n] as $k')],
    ['sort_by(.a)[0]', false, undefined],
    ['sort_by("\\(.a)")', false, undefined],
    ['sort_by(input)', false, undefined],
    ['max_by($__loc__)', false, undefined],
    ['length, 1', false, undefined],
  ])('%j (terminal: %s) -> %j', (expression, pretty, expected) => {
    expect(wholeListProgram(expression, pretty)?.program).toEqual(expected);
  });
});

describe('overElements: a list made element by element, then read as a whole list', () => {
  it.each([
    ['[.[] | select(.status)] | length', false, 'reduce (inputs | (.| select(.status))) as $_ (0; . + 1)'],
    ['map(.name) | .[:2]', true, 'reduce (inputs | (.name)) as $x ([]; if length < 2 then . + [$x] end) |  .[:2]'],
    ['\n map(.a) | last', false, '\n reduce (inputs | (.a)) as $x (null; $x)'],
    ['map(.a) | add', false, '[inputs | (.a)] | add'],
    ['map(.a) | sort_by(.b)', true, '[inputs | (.a)] | sort_by(.b)'],
    ['.[1].name | ascii_downcase', true, '[limit(2; inputs)] | .[1].name | ascii_downcase'],
    ['.[0:10]', false, '[limit(10; inputs)] | .[0:10]'],
    ['.[:0]', false, undefined],
    ['.[1], .[2]', false, undefined],
  ])('%j (terminal: %s) -> %j', (expression, pretty, expected) => {
    expect(overElements(expression, pretty)?.program).toEqual(expected);
  });
});

describe('an expression over the whole list, read element by element', () => {
  // About 4.5 MB of JSON: past the CLI's 4 MB threshold, then several pieces.
  const many = contacts(30_000);
  // About 900 KB: past a 400 KB threshold, then several pieces, as `many` is past the CLI's.
  const some = contacts(6_000);
  const SOME_THREAD_CHARS = 400_000;

  it.each([
    ['length', false],
    ['length', true],
    ['first', true],
    ['.[0]', false],
    ['last', false],
    ['.[-1]', true],
    ['sort_by(.name)', false],
    ['sort_by(.city)', false], // ties: the list's order within a city
    ['sort_by(.score, .id)', false],
    ['unique_by(.city)', false],
    ['group_by(.city)', false],
    ['min_by(.score)', false],
    ['max_by(.city)', true],
  ] as const)('%j (terminal: %s) gives what jq gives on the whole list', async (expression, pretty) => {
    expect(wholeListProgram(expression, pretty)).toBeDefined();
    expect(await overList(some, expression, pretty, SOME_THREAD_CHARS)).toBe(await runJq(some, expression, { pretty }));
  });

  it("a group of nearly the whole list, at the CLI's threshold, is printed one element at a time as jq prints it", async () => {
    expect(wholeListProgram('group_by(.status)', false)).toBeDefined();
    expect(await overList(many, 'group_by(.status)', false)).toBe(await runJq(many, 'group_by(.status)', { pretty: false }));
  });

  it('gives the same on an empty list and on a short one, and a sum as jq adds', async () => {
    for (const expression of ['length', 'first', 'last', 'sort_by(.name)', 'group_by(.city)', 'min_by(.id)', 'add'])
      for (const rows of [[], many.slice(0, 3)])
        expect([expression, await overList(rows, expression, false)]).toEqual([
          expression,
          await runJq(rows, expression, { pretty: false }),
        ]);
    const numbers = many.map((row) => row.id);
    expect(await overList(numbers, 'add', false)).toBe(await runJq(numbers, 'add', { pretty: false }));
  });

  it('a sorted list waits in a temporary file removed at once, or in memory where none can be made: the same output', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'wsm-jq-test-'));
    const was = process.env.TMPDIR;
    try {
      const expected = await runJq(many, 'sort_by(.name)', { pretty: false });
      process.env.TMPDIR = folder;
      expect(await overList(many, 'sort_by(.name)', false)).toBe(expected);
      expect(readdirSync(folder)).toEqual([]);
      process.env.TMPDIR = join(folder, 'missing');
      expect(await overList(many, 'group_by(.city)', false)).toBe(await runJq(many, 'group_by(.city)', { pretty: false }));
    } finally {
      if (was === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = was;
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("a key that makes jq fail: exit 1 with jq's sentence", async () => {
    const onWhole = await runJq(some, 'sort_by(.name.first)', { pretty: false }).catch((error: Error) => error.message);
    expect(onWhole).toMatch(/^--jq: Cannot index string/);
    await expect(overList(some, 'sort_by(.name.first)', false, SOME_THREAD_CHARS)).rejects.toMatchObject({ message: onWhole, exitCode: 1 });
  });
});
