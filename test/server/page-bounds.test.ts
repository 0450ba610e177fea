// Page bounds in words: a page or per_page below 1, negative included, is "at least 1", not "must be a number".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => (h = await createHarness()));
afterAll(() => h?.close());

describe('page and per_page below their bounds', () => {
  it.each([
    ['page', '-1', 'The page field must be at least 1.'],
    ['page', '0', 'The page field must be at least 1.'],
    ['per_page', '-5', 'The per page field must be at least 1.'],
    ['page', 'x', 'The page field must be a number.'],
  ])('%s=%s: 422 "%s"', async (name, value, sentence) => {
    const base = `/api/v3/workspaces/${h.ws}`;
    const answer = await h.call({ method: 'GET', url: `${base}/labels?${name}=${value}` });
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors).toEqual({ [name]: [sentence] });
  });
});
