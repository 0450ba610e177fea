// A collection's description says what it means: which permission each operation needs (never an
// operation dropped because its group lacks the action) and which field is unique in the workspace
// (`name`, another, or none), which the server's table and routes read instead of assuming `name`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResourceIdentity } from '../../src/api/descriptions/catalog.js';
import { collectionOperations } from '../../src/api/descriptions/crud.js';
import { DESCRIPTIONS } from '../../src/api/descriptions/index.js';
import { describe as describeResource } from '../../src/api/descriptions/types.js';
import { paginationQuery, timestamps } from '../../src/api/schemas/common.js';
import { openDatabase } from '../../src/server/db.js';
import { collectionTable, createCollectionRecords } from '../../src/server/repositories/collection.js';

/** A resource whose permission group has view and manage alone, as `notes` would: `permissions` stands in for it. */
const NOTES: ResourceIdentity = {
  noun: 'note',
  segment: 'probe-notes',
  idParam: 'note',
  permissionGroup: 'permissions',
  tag: 'Notes',
  tagDescription: 'Notes.',
  collection: true,
};
const note = z.object({ id: z.number().int(), workspace_id: z.uuid(), title: z.string(), body: z.string(), ...timestamps });
const bodies = {
  query: paginationQuery,
  create: z.object({ title: z.string(), body: z.string() }),
  update: z.object({ title: z.string().optional(), body: z.string().optional() }),
};

describe('a collection states the permission of each operation', () => {
  it('stops with a sentence naming the operation when its group lacks the action, instead of leaving it out', () => {
    expect(() => collectionOperations(NOTES, note, bodies, { extensions: [] })).toThrow(
      /probe-notes: its create operation needs a permission, and permissions has no "create".*permissions: \{ create: 'permissions\.<action>' \}.*leave create out \(`has`\)/,
    );
  });

  it('gives each operation the permission the description names, and only the operations `has` lists', () => {
    const manage = 'permissions.manage' as const;
    const all = collectionOperations(NOTES, note, bodies, {
      extensions: [],
      permissions: { create: manage, update: manage, delete: manage },
    });
    expect(Object.fromEntries(Object.entries(all).map(([name, op]) => [name, op.access]))).toEqual({
      list: { permission: 'permissions.view' },
      get: { permission: 'permissions.view' },
      create: { permission: manage },
      update: { permission: manage },
      delete: { permission: manage },
    });
    expect(Object.keys(collectionOperations(NOTES, note, bodies, { extensions: [], has: ['list', 'get'] }))).toEqual(['list', 'get']);
  });

  it('imports and templates, whose groups have no update, say so with `has` and have none', () => {
    for (const key of ['imports', 'templates'] as const) expect(DESCRIPTIONS[key].operations, key).not.toHaveProperty('update');
    expect(DESCRIPTIONS.fields.operations.update.access).toEqual({ permission: 'contact_fields.create' });
  });
});

describe('a plain collection states its unique field', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wsm-collection-spec-'));
  const db = openDatabase(join(dir, 'wsm.db'));
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const manage = 'permissions.manage' as const;
  const operations = collectionOperations(NOTES, note, bodies, {
    extensions: [],
    permissions: { create: manage, update: manage, delete: manage },
  });
  const client = () => undefined;
  const specs = Object.fromEntries(Object.entries(operations).map(([name, op]) => [name, { ...op, client }]));
  const described = (unique: string | null | undefined) => describeResource('probe_notes', NOTES, { record: note, unique }, specs);

  it('the four plain collections of the catalog name theirs: name', () => {
    expect(['groups', 'fields', 'labels', 'roles'].map((key) => DESCRIPTIONS[key as 'groups'].unique)).toEqual([
      'name',
      'name',
      'name',
      'name',
    ]);
  });

  it('a collection with none (unique: null) keeps two records of the same title; one with a unique field finds its holder', () => {
    db.exec(
      'CREATE TABLE probe_notes (id INTEGER PRIMARY KEY AUTOINCREMENT, workspace_id TEXT NOT NULL, title TEXT, body TEXT, created_at TEXT, updated_at TEXT)',
    );
    const none = createCollectionRecords<{ id: number; title: string }>(db, collectionTable(described(null))!);
    const first = none.insert('ws', { title: 'Same', body: 'one' });
    const second = none.insert('ws', { title: 'Same', body: 'two' });
    expect([first.title, second.title]).toEqual(['Same', 'Same']);
    expect(none.idHolding('ws', 'Same')).toBeUndefined();
    const byTitle = createCollectionRecords(db, collectionTable(described('title'))!);
    expect(byTitle.idHolding('ws', 'Same')).toBe(first.id);
  });

  it('a description that states no unique field is no plain collection, and one naming a field no body writes stops start-up', () => {
    expect(collectionTable(described(undefined))).toBeUndefined();
    expect(() => collectionTable(described('name'))).toThrow(
      'probe_notes: its unique field "name" is in neither its create nor its update body',
    );
  });
});
