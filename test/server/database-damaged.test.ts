/**
 * Damage SQLite meets only while serving (a page that start-up never read): the request that needs
 * it answers 500 saying the database is damaged (never SQLite's words, a path or a stack), and the
 * operator is told once which file it is and what to do. Start-up refusals are in
 * test/e2e/serve-safety.test.ts.
 */
import { openSync, writeSync, closeSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { openDatabase } from '../../src/server/db.js';
import { seed } from '../../src/server/seed.js';

it('a damaged page met while serving: 500 naming the damage, the operator told once with the file and what to do', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wsm-damaged-'));
  const file = join(dir, 'wsm.db');
  const warnings: string[] = [];
  try {
    const first = openDatabase(file);
    const { workspaceId, token } = await seed(first);
    const insert = first.prepare(
      "INSERT INTO labels (workspace_id, name, created_at, updated_at) VALUES (?, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
    );
    for (let i = 0; i < 300; i++) insert.run(workspaceId, `label ${i} ${'x'.repeat(40)}`);
    first.pragma('wal_checkpoint(TRUNCATE)');
    const pageSize = first.pragma('page_size', { simple: true }) as number;
    const pages = first.prepare<[], number>("SELECT pageno FROM dbstat WHERE name = 'labels' AND pagetype = 'leaf'").pluck().all();
    first.close();
    expect(pages.length).toBeGreaterThan(2);
    const fd = openSync(file, 'r+');
    for (const page of pages) writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize);
    closeSync(fd);

    const db = openDatabase(file);
    const app = await buildApp({ db, uploadsDir: join(dir, 'uploads'), workers: false, onWarning: (line) => warnings.push(line) });
    const get = () =>
      app.inject({
        method: 'GET',
        url: `/api/v3/workspaces/${workspaceId}/labels?per_page=100`,
        headers: { authorization: `Bearer ${token}` },
      });
    for (const res of [await get(), await get()]) {
      expect({ status: res.statusCode, body: res.json() }).toEqual({
        status: 500,
        body: {
          message:
            "The database file is damaged: what this request needs cannot be read. The server's operator must restore it from a backup.",
          status: 500,
        },
      });
    }
    expect(warnings).toEqual([
      `the database file ${file} is damaged (SQLite found a malformed page): stop the server and restore the file from a backup, or start on another --db`,
    ]);
    await app.close();
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
