// The resource descriptions (src/api/descriptions): what they say of the published API holds against the
// stand-in of the published API (which imports nothing of src/), they stay light enough for the
// client, the CLI and the MCP server to load, and the walk below finds every operation a client
// method, a command, a route and an OpenAPI operation, and every record its `--json` fields:
// a resource added without one of them fails here, not at run time.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WsmClient } from '../../src/api/client.js';
import { CATALOG, DESCRIPTIONS, OPERATIONS, findOperation } from '../../src/api/descriptions/index.js';
import { pathParameters } from '../../src/api/descriptions/paths.js';
import { buildProgram } from '../../src/cli.js';
import { createTestIO } from '../../src/cli/io.js';
import { recordFields } from '../../src/commands/shared/record-fields.js';
import { createHarness, type Harness } from '../server/harness.js';
import { Router } from '../standin/http.js';
import { initialState } from '../standin/index.js';
import { registerRoutes } from '../standin/routes.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A concrete path of an operation: its workspace and every id filled in. */
const concrete = (path: string) => path.replace('{workspace}', initialState().workspace.id).replace(/\{[^}]+\}/g, '1');

describe('resource descriptions', () => {
  it('mark as published exactly the operations of the published API: its stand-in has those and no other', () => {
    const router = new Router();
    registerRoutes(router, { state: initialState(), quirks: {}, importDelayMs: 0 });
    // A literal segment of the operation's path matched as a parameter is another route (GET …/partner/permissions is no workspace's listing).
    const onStandin = (method: string, path: string) => {
      const found = router.match(method, concrete(path));
      return typeof found === 'object' && Object.values(found.params).every((value) => !path.split('/').includes(value));
    };
    const wrong = OPERATIONS.filter((o) => onStandin(o.method, o.path) !== o.published).map(
      (o) => `${o.method} ${o.path} (${o.published ? 'published' : 'extension'})`,
    );
    expect(wrong).toEqual([]);
    expect(OPERATIONS.filter((o) => o.published)).toHaveLength(26);
  });

  it('give every operation what a route, an OpenAPI operation and an MCP tool need', () => {
    for (const operation of OPERATIONS) {
      const where = `${operation.resource}.${operation.name}`;
      expect(operation.path, where).toMatch(/^\/[a-z{]/);
      expect(operation.summary, where).toMatch(/^[A-Z].{5,}[^.]$/);
      expect(operation.status, where).toBeGreaterThanOrEqual(200);
      expect(operation.status, where).toBeLessThan(300);
      expect(operation.hints.readOnly, where).toBe(operation.method === 'GET');
      if (operation.hints.readOnly) expect(operation.hints.destructive, where).toBe(false);
      if (operation.method === 'DELETE') expect(operation.hints.destructive, where).toBe(true);
      if (operation.method === 'GET' || operation.method === 'DELETE') expect(operation.body, where).toBeUndefined();
      if (operation.files) expect(operation.multipart, where).toBeTruthy();
      // Everything under a workspace is governed by a permission of that workspace (decisions.md §4).
      if (operation.path.startsWith('/workspaces/{workspace}')) expect(operation.access, where).toHaveProperty('permission');
      if (operation.instead !== undefined) expect(operation.published, where).toBe(false);
      expect(findOperation(operation.method, operation.path.replace(/\{([^}]+)\}/g, ':$1')), where).toBe(operation);
    }
  });

  it('name each record by the path parameter its resource declares', () => {
    for (const description of Object.values(DESCRIPTIONS)) {
      for (const operation of Object.values(description.operations)) {
        const params = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).filter((p) => p !== 'workspace');
        expect(
          params.every((p) => p === description.idParam),
          `${description.key}.${operation.name}: ${operation.path}`,
        ).toBe(true);
      }
    }
  });

  it('take every identity from the catalog, which start-up reads without loading zod', () => {
    for (const [key, description] of Object.entries(DESCRIPTIONS)) {
      expect(description.key).toBe(key);
      expect(CATALOG[key as keyof typeof CATALOG]).toBeDefined();
      expect(description.noun).toBe(CATALOG[key as keyof typeof CATALOG].noun);
    }
    // Start-up reads the catalog: it loads nothing until a description is asked for.
    expect(imports(join(root, 'src/api/descriptions/catalog.ts'))).toEqual([]);
  });

  it('load no undici, fastify, SQLite, server or CLI code: the client, the CLI and the MCP server read them', () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const specifier of [...imports(file), ...dynamicImports(file)]) {
        if (specifier.startsWith('.')) walk(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
        else packages.add(specifier);
      }
    };
    walk(join(root, 'src/api/descriptions/index.ts'));
    expect([...seen].filter((file) => file.includes('/src/api/descriptions/')).length).toBe(Object.keys(CATALOG).length + 5);
    expect([...packages].sort()).toEqual(['zod']);
    // The contract and the file formats it reads (src/formats/, node built-ins only), nothing else.
    expect([...seen].filter((file) => !file.includes('/src/api/') && !file.includes('/src/formats/'))).toEqual([]);
  });
});

describe('walking every description', () => {
  let h: Harness;
  let program: Command;
  let document: { paths: Record<string, Record<string, unknown>> };
  beforeAll(async () => {
    h = await createHarness();
    // The completion scripts' own command declares every resource in full.
    program = await buildProgram({ io: createTestIO() }, ['__complete']);
    document = (await h.call({ method: 'GET', url: '/api/v3/openapi.json', token: null })).json();
  });
  afterAll(() => h?.close());

  it('calls each operation through its typed client call, which reaches the client method of its name', async () => {
    const reached: { method: string; args: unknown[] }[] = [];
    const recorder = (resource: string) =>
      new Proxy(
        {},
        {
          get:
            (_, method) =>
            (...args: unknown[]) =>
              reached.push({ method: `${resource}.${String(method)}`, args }),
        },
      );
    const client = new Proxy({}, { get: (_, resource) => recorder(String(resource)) }) as WsmClient;
    const options = { signal: new AbortController().signal };
    const body = { name: 'Ana', permissions: ['contacts.view'] };
    const wrong = OPERATIONS.flatMap((o) => {
      if (o.client === null) return [];
      reached.length = 0;
      o.client(client, { id: 7, query: { page: 2 }, body, files: { file: 'people.csv' }, options });
      const [call] = reached;
      const hasId = pathParameters(o.path).some((name) => name !== 'workspace');
      const ok =
        reached.length === 1 &&
        call.method === `${o.resource}.${o.name}` &&
        call.args.at(-1) === options &&
        (call.args[0] === 7) === hasId &&
        (o.body === undefined || /"Ana"|contacts\.view/.test(JSON.stringify(call.args))) &&
        (!o.query || JSON.stringify(call.args).includes('{"page":2}'));
      return ok ? [] : [`${o.resource}.${o.name}: ${JSON.stringify(reached)}`];
    });
    expect(wrong).toEqual([]);
    // The operations the client leaves to others: a stored file is a URL, the partner defaults are read back by whoever set them.
    expect(OPERATIONS.filter((o) => o.client === null).map((o) => `${o.resource}.${o.name}`)).toEqual([
      'permissions.getPartnerDefaults',
      'files.download',
    ]);
  });

  it('finds the command that runs each operation', () => {
    const commandAt = (words: string[]) =>
      words.reduce<Command | undefined>((parent, word) => parent?.commands.find((c) => c.name() === word), program);
    const missing = OPERATIONS.filter((o) => o.verb !== null && commandAt(o.verb.split(' ')) === undefined);
    expect(missing.map((o) => `${o.resource}.${o.name}: wsm ${o.verb}`)).toEqual([]);
    for (const description of Object.values(DESCRIPTIONS)) {
      if (description.cli !== undefined) expect(commandAt([description.cli]), description.key).toBeDefined();
    }
  });

  it('finds the route of each operation on the server', () => {
    const missing = OPERATIONS.filter((o) => !h.app.hasRoute({ method: o.method, url: '/api/v3' + o.path.replace(/\{([^}]+)\}/g, ':$1') }));
    expect(missing.map((o) => `${o.method} ${o.path}`)).toEqual([]);
  });

  it('finds each operation in the OpenAPI document, with its summary', () => {
    const missing = OPERATIONS.filter((o) => {
      const operation = document.paths[o.path]?.[o.method.toLowerCase()] as { summary?: string } | undefined;
      return operation?.summary !== o.summary;
    });
    expect(missing.map((o) => `${o.method} ${o.path}`)).toEqual([]);
  });

  it('finds the --json fields of every resource the CLI lists or shows', async () => {
    for (const description of Object.values(DESCRIPTIONS)) {
      if (description.cli === undefined || !('list' in description.operations || 'get' in description.operations)) continue;
      expect((await recordFields(description.cli)).length, description.key).toBeGreaterThan(0);
    }
  });
});

/** The modules a source file loads when asked (`import('./x.js')`): the descriptions the catalog loads on first use. */
function dynamicImports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/\bimport\('([^']+)'\)/g)].map((m) => m[1]);
}

/** The modules a source file loads at run time (`import type` loads nothing). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export) (?!type )[^;]*? from '([^']+)'/gms)].map((m) => m[1]);
}
