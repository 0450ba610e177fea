// The document's visible-text pattern and every other pattern of the OpenAPI document compile
// without JavaScript's `u` flag (as Python's `re` and Java need: no `\p{...}` classes), and the
// visible-text one takes exactly the characters the server's rule takes, over every code point.
import { describe, expect, it } from 'vitest';
import { VISIBLE_PATTERN } from '../../src/api/schemas/common.js';
import { createHarness } from '../server/harness.js';

const SERVER_RULE = /[^\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u;

/** Every `pattern` of a JSON document, with where it stands. */
function patternsIn(node: unknown, at: string, found: Array<[string, string]>): Array<[string, string]> {
  if (Array.isArray(node)) node.forEach((item, i) => patternsIn(item, `${at}/${i}`, found));
  else if (node !== null && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') found.push([at, value]);
      else patternsIn(value, `${at}/${key}`, found);
    }
  return found;
}

describe('the patterns of the OpenAPI document', () => {
  it('the visible-text pattern, compiled without the u flag, takes every code point the server takes, and no other', () => {
    const documented = new RegExp(VISIBLE_PATTERN);
    const differing: string[] = [];
    for (let point = 0; point <= 0x10ffff; point++) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      const text = String.fromCodePoint(point);
      if (documented.test(text) !== SERVER_RULE.test(text)) differing.push(point.toString(16));
    }
    expect(differing).toEqual([]);
    expect(VISIBLE_PATTERN).not.toMatch(/\\[pP]\{/);
  });

  it('every one compiles without the u flag and uses no Unicode property class', async () => {
    const h = await createHarness();
    try {
      const doc = (await h.call({ method: 'GET', url: '/api/v3/openapi.json', token: null })).json();
      const patterns = patternsIn(doc, '', []);
      expect(patterns.length).toBeGreaterThan(10);
      const failing = patterns.flatMap(([at, pattern]) => {
        try {
          new RegExp(pattern);
          return /\\[pP]\{/.test(pattern) ? [`${at}: ${pattern}`] : [];
        } catch (error) {
          return [`${at}: ${(error as Error).message}`];
        }
      });
      expect(failing).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
