// docs/architecture.md's "Adding a resource", step by step: each test fails, with a sentence
// naming the step, when a resource the catalog knows misses that step (the steps that follow by
// themselves, and the command entry and the lists, are checked by one-kind.test.ts,
// resource-lists.test.ts, plain-collections.test.ts and descriptions.test.ts; the grants by
// test/server/grants-migration.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG, DESCRIPTIONS, type ResourceIdentity, type ResourceKey } from '../../src/api/descriptions/index.js';
import { PERMISSION_GROUPS } from '../../src/api/descriptions/permission-groups.js';
import type { Db } from '../../src/server/db.js';
import { migrations } from '../../src/server/migrations/index.js';
import { collectionTable } from '../../src/server/repositories/collection.js';
import { createHarness, type Harness } from '../server/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');
const KEYS = Object.keys(CATALOG) as ResourceKey[];
const identity = (key: ResourceKey): ResourceIdentity => CATALOG[key];
const step = (n: number, what: string) => `step ${n} of "Adding a resource" (docs/architecture.md): ${what}`;

describe('adding a resource, step by step', () => {
  it('step 2: every schema module is exported from schemas/index.ts', () => {
    const index = read('src/api/schemas/index.ts');
    const modules = readdirSync(`${root}src/api/schemas`).filter((file) => file !== 'index.ts' && file.endsWith('.ts'));
    const missing = modules.filter((file) => !index.includes(`export * from './${file.replace(/\.ts$/, '.js')}';`));
    expect(missing.map((file) => step(2, `src/api/schemas/index.ts has no export line for ${file}`))).toEqual([]);
  });

  it('step 3: every permission group is used by an operation, and every resource with operations under a permission names its group', () => {
    const used = new Set(
      Object.values(DESCRIPTIONS)
        .flatMap((description) => Object.values(description.operations))
        .flatMap((op) => (typeof op.access === 'object' ? [op.access.permission.split('.')[0]] : [])),
    );
    expect(
      Object.keys(PERMISSION_GROUPS)
        .filter((group) => !used.has(group))
        .map((group) => step(3, `no operation needs a permission of ${group}`)),
    ).toEqual([]);
    const unnamed = KEYS.filter((key) => identity(key).collection && identity(key).permissionGroup === undefined);
    expect(unnamed.map((key) => step(3, `the catalog entry of ${key} names no permission group`))).toEqual([]);
  });

  it('step 4: every description module of src/api/descriptions is a catalog resource, loaded by its line in MODULES', () => {
    const shared = ['catalog.ts', 'crud.ts', 'index.ts', 'paths.ts', 'permission-groups.ts', 'types.ts'];
    const modules = readdirSync(`${root}src/api/descriptions`).filter((file) => file.endsWith('.ts') && !shared.includes(file));
    const catalog = read('src/api/descriptions/catalog.ts');
    const missing = modules.filter((file) => {
      const key = file.replace(/\.ts$/, '');
      return !(key in CATALOG) || !catalog.includes(`import('./${key}.js')`) || DESCRIPTIONS[key as ResourceKey]?.key !== key;
    });
    expect(missing.map((file) => step(4, `descriptions/${file} has no identity in CATALOG or no line in MODULES`))).toEqual([]);
  });

  it('step 8: every migration file is listed in migrations/index.ts, numbered in order', () => {
    const files = readdirSync(`${root}src/server/migrations`).filter((file) => /^\d{3}_.+\.ts$/.test(file));
    const listed = migrations.map((migration) => `${String(migration.version).padStart(3, '0')}_${migration.name}.ts`);
    expect(files.filter((file) => !listed.includes(file)).map((file) => step(8, `migrations/index.ts has no line for ${file}`))).toEqual(
      [],
    );
    expect(migrations.map((migration) => migration.version)).toEqual(migrations.map((_, i) => i + 1));
  });

  it('step 10: docs/commands.md shows every resource command', () => {
    const commands = read('docs/commands.md');
    const missing = KEYS.flatMap((key) =>
      identity(key).cli && !commands.includes(`wsm ${identity(key).cli} `) ? [identity(key).cli] : [],
    );
    expect(missing.map((cli) => step(10, `docs/commands.md never shows \`wsm ${cli} …\`: a resource's commands have their page`))).toEqual(
      [],
    );
  });
});

describe('adding a resource: step 7, its table', () => {
  let h: Harness;
  let db: Db;
  beforeAll(async () => {
    h = await createHarness();
    db = h.db;
  });
  afterAll(() => h?.close());

  const plain = KEYS.filter((key) => identity(key).collection && collectionTable(DESCRIPTIONS[key]) !== undefined);

  it("each plain collection has its table with the record's columns, UNIQUE (workspace_id, <its unique field>) and its counter triggers", () => {
    const problems: string[] = [];
    for (const key of plain) {
      const table = collectionTable(DESCRIPTIONS[key])!;
      const columns = (db.prepare(`PRAGMA table_info(${table.table})`).all() as { name: string }[]).map((column) => column.name);
      if (columns.length === 0) {
        problems.push(step(7, `no table ${table.table} for ${key} (its migration makes it)`));
        continue;
      }
      const lacking = ['workspace_id', ...table.select].filter((name) => !columns.includes(name));
      if (lacking.length > 0) problems.push(step(7, `${table.table} lacks the columns ${lacking.join(', ')}`));
      const unique = (db.prepare(`PRAGMA index_list(${table.table})`).all() as { name: string; unique: number }[])
        .filter((index) => index.unique === 1)
        .some(
          (index) =>
            (db.prepare(`PRAGMA index_info(${index.name})`).all() as { name: string }[]).map((column) => column.name).join() ===
            `workspace_id,${table.unique}`,
        );
      if (table.unique && !unique) problems.push(step(7, `${table.table} has no UNIQUE (workspace_id, ${table.unique})`));
      const triggers = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? AND sql LIKE '%counters%'")
        .pluck()
        .all(table.table) as string[];
      if (triggers.length < 2)
        problems.push(step(7, `${table.table} has no counter triggers on insert and delete (as migration 001 makes them)`));
    }
    expect(problems).toEqual([]);
    expect(plain.length).toBeGreaterThanOrEqual(3);
  });
});
