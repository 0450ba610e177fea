/**
 * An import is claimed by one worker at a time: two workers on two
 * connections to the same file run the same import side by side, and exactly one of them
 * processes it, with exact counts; the other leaves it alone.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { openDatabase, type Db } from '../../src/server/db.js';
import { processImport } from '../../src/server/workers/imports.js';
import { createRepositories } from '../../src/server/repositories/index.js';
import { multipart } from './template-fixtures.js';

let h: Harness;
let second: Db;
beforeEach(async () => {
  h = await createHarness();
  second = openDatabase(h.dbPath);
});
afterEach(async () => {
  second?.close();
  await h?.close();
});

const ROWS = 3000;

it('runs an import once when two workers pick it up together: exact counts, every row once', async () => {
  const lines = ['number,name'];
  for (let i = 0; i < ROWS; i++) lines.push(`${15_550_000_000 + i},Person ${i}`);
  const form = multipart(
    [['name', 'Twice']],
    [{ name: 'file', filename: 'people.csv', type: 'text/csv', bytes: Buffer.from(lines.join('\n')) }],
  );
  const res = await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/contact-imports`, ...form });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.id;

  const outcomes = await Promise.all([
    processImport(h.app, id, { batchSize: 100 }),
    processImport({ db: second, repositories: createRepositories(second) }, id, { batchSize: 100 }),
  ]);
  expect(outcomes.sort()).toEqual(['completed', 'skipped']);
  const done = (await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contact-imports/${id}` })).json().data;
  expect(done).toMatchObject({
    status: 'completed',
    total_rows: ROWS,
    processed_rows: ROWS,
    created_count: ROWS,
    updated_count: 0,
    failed_count: 0,
    errors: [],
  });
  expect(h.db.prepare('SELECT count(*) FROM contacts').pluck().get()).toBe(ROWS);
  // The claim is released with the run: nothing holds the finished import.
  expect(h.db.prepare('SELECT claimed_by FROM contact_imports WHERE id = ?').pluck().get(id)).toBeNull();
});
