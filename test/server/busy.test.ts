/**
 * Another connection holding the database's write lock: better-sqlite3
 * waits for a lock synchronously, so a 5 s busy timeout froze every request for 5 s and then
 * answered 500. A write now waits briefly, then answers 503 with Retry-After; reads go on; the
 * import worker leaves a busy import to retry instead of failing it; and an import that does
 * fail names its cause.
 */
import Database from 'better-sqlite3';
import { mkdirSync, rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { processImport, runPendingImports } from '../../src/server/workers/imports.js';
import { multipart } from './template-fixtures.js';

let h: Harness;
let other: Database.Database;
beforeEach(async () => {
  h = await createHarness();
  other = new Database(h.dbPath);
});
afterEach(async () => {
  if (other.inTransaction) other.exec('ROLLBACK');
  other?.close();
  await h?.close();
});

const BUSY = { message: 'The database is busy: try again in a moment.', status: 503 };
const labels = `/api/v3/workspaces/${'{ws}'}/labels`;
const url = (path: string) => path.replace('{ws}', h.ws);

async function createImport(rows = 3) {
  const lines = ['number,name', ...Array.from({ length: rows }, (_, i) => `${15_550_000_000 + i},P${i}`)];
  const form = multipart([['name', 'Busy']], [{ name: 'file', filename: 'p.csv', type: 'text/csv', bytes: Buffer.from(lines.join('\n')) }]);
  const res = await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/contact-imports`, ...form });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as number;
}
const importOf = async (id: number) =>
  (await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contact-imports/${id}` })).json().data;

describe('a write lock held by another connection', () => {
  it('a write answers 503 with Retry-After after a short wait; reads still answer; the write goes through once the lock is gone', async () => {
    other.exec('BEGIN IMMEDIATE');
    const res = await h.call({ method: 'POST', url: url(labels), payload: { name: 'Blocked' } });
    expect({ status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'] }).toEqual({
      status: 503,
      body: BUSY,
      retryAfter: '1',
    });
    // The wait before the 503 is short: the server's connection gives a held lock well under a second.
    expect(h.db.pragma('busy_timeout', { simple: true })).toBeLessThan(1000);
    expect((await h.call({ method: 'GET', url: url(labels) })).statusCode).toBe(200);
    other.exec('ROLLBACK');
    expect((await h.call({ method: 'POST', url: url(labels), payload: { name: 'Blocked' } })).statusCode).toBe(201);
  });

  it('the import worker leaves a busy import to a later run instead of failing it', async () => {
    const id = await createImport();
    other.exec('BEGIN IMMEDIATE');
    expect(await processImport(h.app, id)).toBe('busy');
    expect(await importOf(id)).toMatchObject({ status: 'pending', failed_count: 0, errors: [] });
    other.exec('ROLLBACK');
    expect(await runPendingImports(h.app)).toBe(1);
    expect(await importOf(id)).toMatchObject({ status: 'completed', created_count: 3, failed_count: 0, errors: [] });
  });
});

describe('a failed import', () => {
  it('names its cause', async () => {
    const id = await createImport();
    // The stored file turns into something that cannot be read as a file.
    const stored = h.db.prepare('SELECT stored_path FROM contact_imports WHERE id = ?').pluck().get(id) as string;
    rmSync(stored);
    mkdirSync(stored);
    await runPendingImports(h.app);
    const done = await importOf(id);
    expect(done).toMatchObject({ status: 'failed' });
    expect(done.errors).toEqual([
      { row: 0, line: 0, message: 'The import stopped: the uploaded file could not be read (EISDIR).', failed: false },
    ]);
  });
});
