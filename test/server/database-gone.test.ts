/**
 * The database file deleted or replaced while serving: SQLite goes on
 * writing into the unlinked file, so every write was acknowledged and lost at the next start.
 * The server notices and answers writes 503 naming the cause; what it already holds can still
 * be read.
 */
import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
const warnings: string[] = [];
beforeEach(async () => {
  warnings.length = 0;
  h = await createHarness({ onWarning: (line) => warnings.push(line) });
});
afterEach(async () => {
  await h?.close();
});

const GONE = {
  message: 'The database file was deleted or replaced while the server was running: nothing can be saved until the server is restarted.',
  status: 503,
};

const createLabel = (name: string) => h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/labels`, payload: { name } });

describe('the database file', () => {
  it('deleted (rm wsm.db*): writes answer 503 naming the cause, reads still answer, the operator is told once', async () => {
    expect((await createLabel('Before')).statusCode).toBe(201);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${h.dbPath}${suffix}`, { force: true });

    for (const name of ['After', 'Again']) {
      const res = await createLabel(name);
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 503, body: GONE });
    }
    const remove = await h.call({ method: 'DELETE', url: `/api/v3/workspaces/${h.ws}/labels/1` });
    expect(remove.statusCode).toBe(503);
    const list = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/labels` });
    expect(list.statusCode).toBe(200);
    expect(warnings).toEqual([`the database file ${h.dbPath} was deleted or replaced: writes are refused until the server is restarted`]);
  });

  it('replaced by another file: writes answer 503 too', async () => {
    const copy = join(h.dir, 'copy.db');
    copyFileSync(h.dbPath, copy);
    renameSync(copy, h.dbPath);
    const res = await createLabel('Into the old file');
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 503, body: GONE });
  });
});
