/**
 * Every way `--all --jq` reads a list element by element (jq-whole.ts, jq-list.ts) against jq on
 * the whole list: generated lists (ties, names beyond ASCII, missing and null keys, numbers of
 * every kind) and generated expressions made of the forms read element by element, each followed
 * by more of the program or not. The output, byte for byte, or the same error. Each generated case
 * starts a jq thread of its own; 100 run in npm test, WSM_JQ_RUNS=<n> runs more
 * (`WSM_JQ_RUNS=500 npx vitest run test/cli/jq-differential.test.ts`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runJqOverList } from '../../src/cli/jq-list.js';
import { overElements } from '../../src/cli/jq-whole.js';
import { runJq } from '../../src/cli/jq.js';

const RUNS = Number(process.env.WSM_JQ_RUNS ?? 100);

async function* rowsOf<T>(items: T[]): AsyncIterable<T> {
  for (const item of items) yield item;
}

/** The output of the element-by-element path (jq's thread from the first element), or the error's message and exit code. */
async function overList(rows: unknown[], expression: string, pretty: boolean): Promise<string> {
  const writes: string[] = [];
  try {
    await runJqOverList(rowsOf(rows), expression, { pretty, write: (text) => writes.push(text), threadChars: 0 });
    return writes.join('');
  } catch (error) {
    return `failed: ${(error as Error).message} (${(error as { exitCode?: number }).exitCode})`;
  }
}

/** jq on the whole list at once, as a short list runs. */
async function onWholeList(rows: unknown[], expression: string, pretty: boolean): Promise<string> {
  try {
    return await runJq(rows, expression, { pretty });
  } catch (error) {
    return `failed: ${(error as Error).message} (${(error as { exitCode?: number }).exitCode})`;
  }
}

const contact = fc.record(
  {
    id: fc.integer({ min: 1, max: 50 }),
    name: fc.oneof(
      fc.constantFrom('Ann', 'ann', 'Zoë', 'Émile', '🙂 Ray', '\uff5e', 'Ann '),
      fc.string({ maxLength: 4, unit: 'grapheme' }),
    ),
    city: fc.constantFrom('Lyon', 'Porto', null, 'Köln'),
    status: fc.boolean(),
    score: fc.oneof(fc.constant(null), fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, -0.25, 1e21, 1.5e-7, 12.0)),
    tags: fc.array(fc.constantFrom('a', 'b', 1, true), { maxLength: 2 }),
  },
  { requiredKeys: ['id', 'status'] },
);

const key = fc.constantFrom(
  '.name',
  '.city',
  '.score',
  '.status',
  '.id',
  '.tags',
  '.score, .id',
  '[.city, .name]',
  '.missing',
  '{city}',
  '{(.city // "none"): .id, a: .name}',
  // Numbers jq compares beyond what their text says: NaN, infinite, computed, beyond a double's digits.
  '.score / 3',
  '(.score // 1) * 1e308 * 10',
  'if .status then nan else false end',
  'if .status then infinite else 1.7976931348623157e308 end',
  '.id * 100000000000000000000 + 1',
  '.name | explode',
);
const each = fc.constantFrom('.name', '.id', 'select(.status)', 'select(.score != null)', '{id, name}', '.tags[]', '.score + 1');
const head = fc.oneof(
  fc.constantFrom('length', 'first', 'last', '.[0]', '.[-1]', '.[1].name', '.[:3]', '.[0:2]', '.[2]', 'add'),
  key.map((k) => `sort_by(${k})`),
  key.map((k) => `group_by(${k})`),
  key.map((k) => `unique_by(${k})`),
  key.map((k) => `min_by(${k})`),
  key.map((k) => `max_by(${k})`),
  each.map((f) => `map(${f})`),
  each.map((f) => `[.[] | ${f}]`),
  each.map((f) => `.[] | ${f}`),
);
const rest = fc.oneof(
  fc.constant(''),
  fc.constantFrom(' | length', ' | .[0].name', ' | .[:2]', ' | first', ' | last', ' | map(.id)', ' | .[-1]', ' | add', ' | [.[] | .id?]'),
  key.map((k) => ` | sort_by(${k})`),
  key.map((k) => ` | group_by(${k}) | map(length)`),
  key.map((k) => ` | min_by(${k})`),
);
const expression = fc.tuple(head, rest).map(([h, r]) => h + r);

describe('--all --jq read element by element gives what jq gives on the whole list', () => {
  // Strings by code point as jq compares their UTF-8 (not by UTF-16 unit), keys of every kind,
  // and keys only jq can order (NaN, infinite), where jq orders the list itself.
  const tricky = [
    { id: 3, name: '\uff5e', score: 2 },
    { id: 1, name: '🙂', score: null },
    { id: 2, name: 'z', score: 0.5 },
    { id: 4, name: 'é', score: 2 },
    { id: 5, name: '\uff5e', tags: [1, 'a'] },
  ];
  it.each([
    'sort_by(.name)',
    'sort_by(.name) | map(.id)',
    'group_by(.score) | map(map(.id))',
    'unique_by(.name) | .[].id',
    'min_by(.name) | .id',
    'max_by(.score)',
    'sort_by(.tags, {s: .score}) | .[:3]',
    'sort_by(if .id > 2 then nan else false end) | map(.id)',
    'max_by(if .id > 2 then infinite else 1.7976931348623157e308 end) | .id',
  ])('%s', async (expr) => {
    for (const pretty of [false, true]) expect(await overList(tricky, expr, pretty)).toBe(await onWholeList(tricky, expr, pretty));
  });

  it('on generated lists and expressions, piped and on a terminal', async () => {
    let streamed = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(contact, { maxLength: 12 }), expression, fc.boolean(), async (rows, expr, pretty) => {
        if (overElements(expr, pretty) !== undefined) streamed++;
        expect(await overList(rows, expr, pretty)).toBe(await onWholeList(rows, expr, pretty));
      }),
      { numRuns: RUNS },
    );
    // The generated expressions mostly take the element-by-element path this test is about.
    expect(streamed).toBeGreaterThan(RUNS * 0.4);
  });
});
