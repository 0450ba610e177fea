// docs/import-file.md shows a plan for a file it shows beside it: this runs that file through
// `wsm contacts import --dry-run` against a real server (HTTP port, SQLite file) holding the
// contacts the page names, and holds the page's output to what the command prints.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, listen } from '../server/harness.js';
import { REPO_ROOT, runCli } from './helpers.js';

let h: Harness;
let baseUrl: string;
beforeAll(async () => {
  h = await createHarness();
  baseUrl = await listen(h);
});
afterAll(async () => {
  await h?.close();
});

/** The page's people.csv and the plan shown for it: the two code blocks after the sentence that names the file. */
function example(): { csv: string; plan: string } {
  const page = readFileSync(join(REPO_ROOT, 'docs/import-file.md'), 'utf8');
  const from = page.indexOf('group, this `people.csv`:');
  expect(from, 'docs/import-file.md no longer shows the plan of people.csv').toBeGreaterThan(0);
  const blocks = [...page.slice(from).matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
  return { csv: blocks[0], plan: blocks[1] };
}

describe("docs/import-file.md's plan example", () => {
  it('is what `contacts import --dry-run` prints for its file and workspace', async () => {
    const contacts = `/api/v3/workspaces/${h.ws}/contacts`;
    await h.create(contacts, { number: '07700900123', name: 'Ann' });
    await h.create(contacts, { number: '14155550102', name: 'Bob', email: 'bob@example.com' });
    await h.create(contacts, { number: '14155550103', name: 'Cid' });
    const { csv, plan } = example();
    const file = join(h.dir, 'people.csv');
    writeFileSync(file, csv);

    const env = { WSM_BASE_URL: baseUrl, WSM_TOKEN: h.token, WSM_WORKSPACE: h.ws };
    const run = await runCli(['contacts', 'import', file, '--dry-run'], { env, configDir: join(h.dir, 'config') });

    // The row report follows the plan: the page leaves it out.
    const printed = run.stdout.slice(0, run.stdout.indexOf('file\t'));
    expect(printed).toBe(plan);
    expect(run.code).toBe(8);
  });
});
