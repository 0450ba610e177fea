// The plain collections (groups, fields, labels, roles: each names the field unique in its workspace, or none)
// come from their description and catalog entry, with no line of their own in commands/index.ts,
// routes/index.ts or repositories/index.ts. This walks the catalog: each one that the CLI or the
// server takes by that loop is whole (its five verbs with its own words, `--json` fields its
// columns name, a table with the record's columns and its counter triggers, routes that list,
// create, read, rename and delete), and a piece that is missing or left over fails here.
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG, DESCRIPTIONS, type ResourceDescription } from '../../src/api/descriptions/index.js';
import { buildProgram } from '../../src/cli.js';
import { createTestIO } from '../../src/cli/io.js';
import { COLLECTIONS } from '../../src/commands/collections.js';
import { recordFields } from '../../src/commands/shared/record-fields.js';
import { collectionTable } from '../../src/server/repositories/collection.js';
import { createHarness, probeBody, type Harness } from '../server/harness.js';

const describedByCli = (cli: string) => Object.values(DESCRIPTIONS).find((d: ResourceDescription) => d.cli === cli);

describe('plain collections on the CLI', () => {
  let program: Command;
  beforeAll(async () => {
    // The completion scripts' own command declares every resource in full.
    program = await buildProgram({ io: createTestIO() }, ['__complete']);
  });

  it('have an entry in collections.ts only for a resource of the catalog, each declared from it with its own words', () => {
    const catalogCommands = Object.values(CATALOG).flatMap((identity) => ('cli' in identity ? [identity.cli as string] : []));
    expect(Object.keys(COLLECTIONS).filter((cli) => !catalogCommands.includes(cli))).toEqual([]);
    for (const [cli, command] of Object.entries(COLLECTIONS)) {
      const parent = program.commands.find((c) => c.name() === cli);
      expect(
        parent?.commands.map((c) => c.name()),
        cli,
      ).toEqual(['list', 'get', 'create', 'update', 'delete']);
      // The words are the entry's: a command module of its own would shadow the entry and fail here.
      for (const verb of ['list', 'get', 'create', 'update'] as const) {
        expect(parent!.commands.find((c) => c.name() === verb)!.description(), `${cli} ${verb}`).toBe(command[verb].description);
      }
      const update = parent!.commands.find((c) => c.name() === 'update')!;
      for (const flag of Object.values(command.update.flags))
        expect(
          update.options.map((o) => o.flags),
          `${cli} update`,
        ).toContain(flag.flags);
      const noun = describedByCli(cli)!.noun;
      expect(parent!.commands.find((c) => c.name() === 'delete')!.description(), cli).toBe(
        `delete a ${noun} (asks first, unless the server says your role may not; pass --yes without a terminal)`,
      );
    }
  });

  it('print only fields of their record, the ones --json offers, and set only fields of their bodies', async () => {
    for (const [cli, command] of Object.entries(COLLECTIONS)) {
      const fields = await recordFields(cli);
      expect(fields.length, cli).toBeGreaterThan(0);
      const columns = [...command.columns, ...(command.detail ?? [])].map((column) => column.key);
      expect(
        columns.filter((key) => !fields.includes(key)),
        cli,
      ).toEqual([]);
      const { operations } = describedByCli(cli)!;
      for (const verb of ['create', 'update'] as const) {
        const shape = (operations[verb].body as unknown as { shape: Record<string, unknown> }).shape;
        const set = [
          ...(command[verb].args ?? []).map(([, , field]) => field),
          ...Object.values(command[verb].flags ?? {}).map((flag) => flag.field),
        ];
        expect(
          set.filter((field) => field !== undefined && !(field in shape)),
          `${cli} ${verb}`,
        ).toEqual([]);
      }
    }
  });
});

describe('plain collections on the server', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h?.close());

  const served = () => Object.keys(h.app.repositories.collections).map((key) => DESCRIPTIONS[key as keyof typeof DESCRIPTIONS]);

  it('take every described resource without a repository of its own that is a plain collection', () => {
    const { collections, ...own } = h.app.repositories;
    const expected = Object.values(DESCRIPTIONS).filter((d: ResourceDescription) => !(d.key in own) && collectionTable(d) !== undefined);
    expect(expected.length).toBeGreaterThan(0);
    for (const description of expected) expect(collections[description.key], description.key).toBeDefined();
    for (const description of served()) expect(collectionTable(description), description.key).toBeDefined();
  });

  it('read and write tables that have the record’s columns', () => {
    for (const description of served()) {
      const table = collectionTable(description)!;
      const columns = (h.db.prepare(`PRAGMA table_info(${table.table})`).all() as { name: string }[]).map((c) => c.name);
      expect(columns.length, table.table).toBeGreaterThan(0);
      expect(
        [...table.select, ...table.writes].filter((column) => !columns.includes(column)),
        table.table,
      ).toEqual([]);
      // Ids are never reused (decisions.md §7): only AUTOINCREMENT keeps a deleted last id from coming back.
      const created = h.db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(table.table) as string;
      expect(created, table.table).toMatch(/INTEGER PRIMARY KEY AUTOINCREMENT/i);
    }
  });

  it('list, create, read, rename and delete through routes made from the description, counted by the table’s triggers', async () => {
    for (const description of served()) {
      const base = `/api/v3/workspaces/${h.ws}/${description.segment}`;
      const total = async () => (await h.call({ method: 'GET', url: base })).json().meta.total as number;
      const before = await total();
      const probe = probeBody(description);
      const made = await h.create(base, probe);
      expect(made, description.key).toMatchObject({ ...probe, workspace_id: h.ws });
      expect(Object.keys(made), description.key).toEqual(Object.keys(description.record!.shape));
      expect(await total(), description.key).toBe(before + 1);
      const again = await h.call({ method: 'POST', url: base, payload: probe });
      if (description.unique) {
        expect(again.statusCode, description.key).toBe(422);
        expect(again.json().errors, description.key).toHaveProperty(description.unique);
      } else {
        expect(again.statusCode, `${description.key} states no unique field: the same body twice is two records`).toBe(201);
        await h.call({ method: 'DELETE', url: `${base}/${again.json().data.id}` });
      }
      const field = description.unique ?? Object.keys(probe)[0];
      const renamed = await h.call({ method: 'PUT', url: `${base}/${made.id}`, payload: { [field]: 'walk_renamed' } });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json().data, description.key).toMatchObject({ id: made.id, [field]: 'walk_renamed' });
      expect((await h.call({ method: 'GET', url: `${base}/${made.id}` })).json().data[field], description.key).toBe('walk_renamed');
      expect((await h.call({ method: 'DELETE', url: `${base}/${made.id}` })).statusCode, description.key).toBe(200);
      expect((await h.call({ method: 'GET', url: `${base}/${made.id}` })).statusCode, description.key).toBe(404);
      expect(await total(), description.key).toBe(before);
    }
  });
});
