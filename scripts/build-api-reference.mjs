// Writes docs/api-reference.md from the OpenAPI document of `wsm serve` (every route, extensions
// included), built from dist/ on a throw-away database. Run by `npm run build`;
// test/api/api-reference.test.ts fails when the committed page differs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { buildApp } = await import('../dist/server/app.js');
const { openDatabase } = await import('../dist/server/db.js');
const { seed } = await import('../dist/server/seed.js');
const { renderApiReference } = await import('../dist/server/openapi/reference.js');

const dir = mkdtempSync(join(tmpdir(), 'wsm-api-reference-'));
try {
  const db = openDatabase(join(dir, 'wsm.db'));
  await seed(db);
  const app = await buildApp({ db, uploadsDir: join(dir, 'uploads'), workers: false });
  const document = (await app.inject({ method: 'GET', url: '/api/v3/openapi.json' })).json();
  await app.close();
  db.close();
  writeFileSync(new URL('../docs/api-reference.md', import.meta.url), renderApiReference(document));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
