// The contact list filtered by custom-field value (`fields[city]=Lisbon`, the extension of issue
// 36) through the HTTP API of a real `wsm serve` over N contacts, each with a `city` (one of 20,
// so one contact in 20 matches) and every other one a `tier` (one of 4): page 1 with its exact
// total for each city, the same ANDed with a tier, and a deep page (page 1,000 of 10). Baseline,
// in the same run: the same queries in bare better-sqlite3 on a copy of the database as it was
// before migration 013 (only the index on field_id), which is what the filter would cost
// without its index. Every answer is checked against the baseline's ids and total.
//   node bench/field-filter.mjs [contacts=1000000]
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDataset, fmt, median, ROOT, startServe, tempDir } from './lib.mjs';

const count = Number(process.argv[2] ?? 1_000_000);
const dir = tempDir();
const dbPath = join(dir, 'bench.db');
await buildDataset(dbPath, count);

const CITIES = [
  'Lisbon',
  'Porto',
  'Faro',
  'Braga',
  'Coimbra',
  'Aveiro',
  'Evora',
  'Leiria',
  'Viseu',
  'Setubal',
  'Madrid',
  'Sevilla',
  'Valencia',
  'Bilbao',
  'Paris',
  'Lyon',
  'Berlin',
  'Hamburg',
  'Rome',
  'Milan',
];
const TIERS = ['gold', 'silver', 'bronze', 'iron'];
const Database = (await import(pathToFileURL(join(ROOT, 'node_modules/better-sqlite3/lib/index.js')).href)).default;
const db = new Database(dbPath);
const ws = db.prepare('SELECT id FROM workspaces LIMIT 1').pluck().get();
const now = new Date().toISOString();
const addField = db.prepare('INSERT INTO contact_fields (workspace_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)');
const city = Number(addField.run(ws, 'city', now, now).lastInsertRowid);
const tier = Number(addField.run(ws, 'tier', now, now).lastInsertRowid);
const ids = db.prepare('SELECT id FROM contacts WHERE workspace_id = ? ORDER BY id').pluck().all(ws);
const setValue = db.prepare('INSERT INTO contact_field_values (contact_id, field_id, value) VALUES (?, ?, ?)');
db.transaction(() => {
  ids.forEach((id, i) => {
    setValue.run(id, city, CITIES[i % CITIES.length]);
    if (i % 2 === 0) setValue.run(id, tier, TIERS[(i / 2) % TIERS.length]);
  });
})();
db.pragma('wal_checkpoint(TRUNCATE)');
db.close();

// The database as it was before migration 013: only the index on field_id.
const beforePath = join(dir, 'before.db');
copyFileSync(dbPath, beforePath);
const before = new Database(beforePath);
before.exec(
  'DROP INDEX IF EXISTS contact_field_values_value; CREATE INDEX IF NOT EXISTS contact_field_values_field ON contact_field_values (field_id);',
);

/** The repository's statements (repositories/contact-filter.ts), for one or two values. */
const from = (two) =>
  `contact_field_values v0 ${two ? 'JOIN contact_field_values v1 ON v1.contact_id = v0.contact_id AND v1.field_id = @f1 AND v1.value = @v1' : ''} WHERE v0.field_id = @f0 AND v0.value = @v0`;
const bare = (two) => ({
  page: before.prepare(`SELECT v0.contact_id FROM ${from(two)} ORDER BY v0.contact_id LIMIT @limit OFFSET @offset`).pluck(),
  count: before.prepare(`SELECT count(*) FROM ${from(two)}`).pluck(),
});
const cases = [
  ...CITIES.map((c) => ({ name: 'one field, page 1', fields: { city: c }, page: 1 })),
  ...CITIES.map((c, i) => ({ name: 'two fields, page 1', fields: { city: c, tier: TIERS[i % TIERS.length] }, page: 1 })),
  ...CITIES.map((c) => ({ name: 'one field, page 1,000', fields: { city: c }, page: 1000 })),
];
const expected = [];
const baselineMs = {};
for (const c of cases) {
  const two = c.fields.tier !== undefined;
  const params = { f0: city, v0: c.fields.city, ...(two ? { f1: tier, v1: c.fields.tier } : {}) };
  const statements = bare(two);
  const t = performance.now();
  const pageIds = statements.page.all({ ...params, limit: 10, offset: (c.page - 1) * 10 });
  const total = statements.count.get(params);
  (baselineMs[c.name] ??= []).push(performance.now() - t);
  expected.push({ ids: pageIds, total });
}
before.close();

const server = await startServe(dir, ['--db', dbPath, '--approval-delay', '0']);
const headers = { authorization: `Bearer ${server.token}` };
const base = `${server.url}/workspaces/${server.workspace}/contacts`;
const query = (fields, page) =>
  Object.entries(fields)
    .map(([k, v]) => `fields[${k}]=${encodeURIComponent(v)}`)
    .join('&') + `&page=${page}&per_page=10`;
for (let i = 0; i < 10; i++) await fetch(`${base}?page=${i + 1}`, { headers }).then((r) => r.json()); // warm the connection and the JIT
const apiMs = {};
let mismatches = 0;
for (const [i, c] of cases.entries()) {
  // Totals are kept until the database changes: a write before each case makes every total counted.
  await fetch(`${server.url}/workspaces/${server.workspace}/contact-fields`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `bench_${'abcdefghijklmnopqrstuvwxyz'[i % 26]}${'abcdefghijklmnopqrstuvwxyz'[Math.floor(i / 26)]}` }),
  });
  const t = performance.now();
  const body = await fetch(`${base}?${query(c.fields, c.page)}`, { headers }).then((r) => r.json());
  (apiMs[c.name] ??= []).push(performance.now() - t);
  const got = { ids: body.data.map((contact) => contact.id), total: body.meta.total };
  if (JSON.stringify(got) !== JSON.stringify(expected[i])) {
    mismatches += 1;
    if (mismatches <= 5) console.error(`mismatch for ${JSON.stringify(c)}: ${JSON.stringify(got)} vs ${JSON.stringify(expected[i])}`);
  }
}
await server.stop();

console.log(
  `${fmt(count, 0)} contacts, one in ${CITIES.length} in each city; medians of ${CITIES.length} distinct filters (page of 10 with its exact total)`,
);
for (const name of Object.keys(apiMs)) {
  const api = median(apiMs[name]);
  const baseline = median(baselineMs[name]);
  console.log(
    `${name.padEnd(22)} wsm serve over HTTP ${fmt(api, 2)} ms; bare SQLite without the index ${fmt(baseline, 2)} ms; ${fmt(baseline / api, 1)}x faster`,
  );
}
console.log(mismatches === 0 ? 'every answer equal to the baseline' : `${mismatches} answers differ from the baseline`);
process.exit(mismatches === 0 ? 0 : 1);
