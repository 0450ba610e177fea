// docs/api-reference.md is the contract a clone reads: it must be what the OpenAPI document of
// the server in src/ says today, written by scripts/build-api-reference.mjs (`npm run build`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderApiReference } from '../../src/server/openapi/reference.js';
import { REPO_ROOT } from '../cli/helpers.js';
import { createHarness, type Harness } from '../server/harness.js';

let h: Harness | undefined;
let written: string;
beforeAll(async () => {
  h = await createHarness();
  const document = (await h.call({ method: 'GET', url: '/api/v3/openapi.json' })).json();
  written = renderApiReference(document);
});
afterAll(() => h?.close());

const page = () => readFileSync(join(REPO_ROOT, 'docs/api-reference.md'), 'utf8');

describe('docs/api-reference.md', () => {
  it('is what the OpenAPI document says today (run `npm run build` to rewrite it)', () => {
    expect(page() === written, 'docs/api-reference.md is stale: run `npm run build` and commit it').toBe(true);
  });

  it('names every operation with its permission, published or extension, and its answers', () => {
    expect(written).toContain('### GET `/workspaces/{workspace}/labels`\n\nList labels. **Extension.**');
    expect(written).toContain('### POST `/workspaces/{workspace}/labels`\n\nCreate a label. **Published.**');
    expect(written).toContain('Needs the `labels.create` permission in the workspace.');
    expect(written).toMatch(/Answers 201 `\{status, message, data: \{id, workspace_id, name, color, created_at, updated_at\}\}`/);
  });

  it('states the envelopes, the errors with their bodies and the limits', () => {
    expect(written).toContain('| 422 | Validation error');
    expect(written).toContain('{message: "Resource not found.", status: 404}');
    expect(written).toMatch(/\| Contacts \| `name` \| [^|]*at most 50 characters/);
    expect(written).toMatch(/`per_page` \(query\) \| 1 to 100/);
  });
});
