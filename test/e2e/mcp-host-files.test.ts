/**
 * `wsm mcp --http` reads no file of the machine it runs on and tells nothing about one. Every tool
 * (with and without --read-only), every string its arguments can hold (nested ones too, and a
 * workspace file's media header inside `content`), is given three paths of a bait folder: a file
 * whose text an upload would carry, a folder, and a path that does not exist. A spy on node:fs in
 * the wsm mcp process (test/fixtures/file-spy.mjs) must see none of them touched, and the three
 * answers must be the same but for the path, so that no answer is an oracle on the host's paths.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttp, textOf, type McpHttpServer } from './mcp-helpers.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup } from './processes.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const SPY = pathToFileURL(resolve(import.meta.dirname, '../fixtures/file-spy.mjs')).href;
const SECRET = 'number,name\n+15550001234,bait-secret-row\n';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  minLength?: number;
}

/** One step down a schema: a property, an array's item, or one of its variants. */
type Step = { key: string } | { item: true } | { variant: number };

const variantsOf = (schema: Schema) => schema.anyOf ?? schema.oneOf;
const typeOf = (schema: Schema) => (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type);

/** Every place in the schema that takes a free string (no enum or const): where a path could be put. */
function stringSlots(schema: Schema, at: Step[] = []): Step[][] {
  const variants = variantsOf(schema);
  if (variants) return variants.flatMap((variant, i) => stringSlots(variant, [...at, { variant: i }]));
  if (schema.enum !== undefined || schema.const !== undefined) return [];
  const type = typeOf(schema);
  if (type === 'string') return [at];
  if (type === 'array' && schema.items) return stringSlots(schema.items, [...at, { item: true }]);
  if (type === 'object' || schema.properties)
    return Object.entries(schema.properties ?? {}).flatMap(([key, sub]) => stringSlots(sub, [...at, { key }]));
  return [];
}

/** The smallest value a schema takes, as far as a generic reading goes (the arguments a call needs anyway). */
function minimal(schema: Schema, key?: string): unknown {
  if (key === 'confirm') return true;
  if (key === 'plan_id') return '0'.repeat(16);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum !== undefined) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = variantsOf(schema);
  if (variants) return minimal(variants.find((v) => typeOf(v) !== 'null') ?? variants[0]);
  switch (typeOf(schema)) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name) => [name, minimal(schema.properties?.[name] ?? {}, name)]));
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    default:
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

/** The arguments with `leaf` at the slot, everything around it as small as the schema allows. */
function argumentsWith(schema: Schema, steps: Step[], leaf: unknown, key?: string): unknown {
  const [step, ...rest] = steps;
  if (step === undefined) return leaf;
  if ('variant' in step) return argumentsWith(variantsOf(schema)![step.variant], rest, leaf, key);
  if ('item' in step) return [argumentsWith(schema.items!, rest, leaf)];
  const base = (typeof minimal(schema, key) === 'object' ? minimal(schema, key) : {}) as Record<string, unknown>;
  if (schema.properties?.confirm) base.confirm = true;
  return { ...base, [step.key]: argumentsWith(schema.properties![step.key], rest, leaf, step.key) };
}

const slotName = (steps: Step[]) =>
  steps.map((step) => ('key' in step ? step.key : 'item' in step ? '[]' : `|${step.variant}`)).join('.') || '(root)';

/** A workspace file whose one template has a media header naming `path`. */
const workspaceFileNaming = (path: string) =>
  JSON.stringify({
    templates: [
      {
        name: 'bait_media',
        language: 'en',
        category: 'MARKETING',
        header: { type: 'media', media: { type: 'document', file: path } },
        body: { text: 'Hello' },
      },
    ],
  });

let server: Backend;
let bait: string;
let log: string;
const mcp: Record<'open' | 'readOnly', McpHttpServer | undefined> = { open: undefined, readOnly: undefined };
beforeAll(async () => {
  server = await serveBackend();
  bait = mkdtempSync(join(tmpdir(), 'wsm-bait-'));
  log = join(bait, 'reads.log');
  writeFileSync(log, '');
  const env = {
    ...server.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${SPY}`.trim(),
    WSM_FILE_SPY_DIR: join(bait, ''),
    WSM_FILE_SPY_LOG: log,
  };
  [mcp.open, mcp.readOnly] = await Promise.all([startMcpHttp(env), startMcpHttp(env, ['--read-only'])]);
});
afterAll(async () => {
  for (const served of Object.values(mcp)) expect(await served?.stop()).toBe(0);
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
  rmSync(bait, { recursive: true, force: true });
});

let slots = 0;
/**
 * A folder of its own for each slot (a name set by one call never meets the next slot's): three
 * paths of one length, so that a rule on length answers all three alike.
 */
function baitPaths(): string[] {
  const dir = join(bait, String(++slots));
  mkdirSync(join(dir, 'fold.csv'), { recursive: true });
  writeFileSync(join(dir, 'file.csv'), SECRET);
  return ['file.csv', 'fold.csv', 'none.csv'].map((name) => join(dir, name));
}

/** An answer with the path (and every number: ids, times) taken out, to compare the three calls. */
function shape(result: CallToolResult, path: string): string {
  return JSON.stringify({ isError: result.isError ?? false, text: textOf(result) })
    .replaceAll(path, '<path>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\d+/g, 'N');
}

async function walk(which: 'open' | 'readOnly'): Promise<{ calls: number; differing: string[] }> {
  const client = new Client({ name: 'wsm-e2e-host-files', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp[which]!.url)));
  const differing: string[] = [];
  let calls = 0;
  try {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const schema = tool.inputSchema as Schema;
      for (const steps of stringSlots(schema)) {
        const leaves: Array<(path: string) => string> = [(path) => path];
        if (steps.length === 1 && 'key' in steps[0] && steps[0].key === 'content') leaves.push(workspaceFileNaming);
        for (const leaf of leaves) {
          const answers = new Set<string>();
          for (const path of baitPaths()) {
            const args = argumentsWith(schema, steps, leaf(path)) as Record<string, unknown>;
            const result = (await client.callTool({ name: tool.name, arguments: args })) as CallToolResult;
            calls++;
            expect(textOf(result), `${tool.name} ${slotName(steps)}`).not.toContain('bait-secret-row');
            answers.add(shape(result, path));
          }
          if (answers.size > 1) differing.push(`${tool.name} ${slotName(steps)}: ${[...answers].join(' | ')}`);
        }
      }
    }
  } finally {
    await client.close();
  }
  return { calls, differing };
}

describe('wsm mcp --http and the files of its machine', () => {
  it.each(['open', 'readOnly'] as const)('%s: no tool reads, looks at or tells of a path it is given, whatever it names', async (which) => {
    writeFileSync(log, '');
    const { calls, differing } = await walk(which);
    expect(calls).toBeGreaterThan(which === 'open' ? 100 : 20);
    expect(differing).toEqual([]);
    expect(readFileSync(log, 'utf8')).toBe('');
  });

  it('a media header named in a workspace file is refused in words that name no path', async () => {
    writeFileSync(log, '');
    const client = new Client({ name: 'wsm-e2e-host-files', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.readOnly!.url)));
    try {
      const said = await Promise.all(
        baitPaths().map(async (path) =>
          textOf(
            (await client.callTool({ name: 'workspace_file.diff', arguments: { content: workspaceFileNaming(path) } })) as CallToolResult,
          ),
        ),
      );
      expect(new Set(said).size).toBe(1);
      expect(said[0]).toContain("over HTTP, a media header's `file` is refused");
      expect(said[0]).toContain('give a text header or none');
      expect(said[0]).not.toContain(bait);
    } finally {
      await client.close();
    }
    expect(readFileSync(log, 'utf8')).toBe('');
  });
});

describe('what a caller over HTTP still gives as text', () => {
  it('a CSV: wsm writes it to a file of its own, which it reads, whatever the import is called', async () => {
    const client = new Client({ name: 'wsm-e2e-host-files', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.open!.url)));
    try {
      for (const name of ['..', 'people.csv']) {
        const result = (await client.callTool({
          name: 'contacts.import',
          arguments: { csv: 'number,name\n+15550004321,Ada\n', name, confirm: true, poll_interval: '0.1s' },
        })) as CallToolResult;
        expect(result.isError ?? false, textOf(result)).toBe(false);
        expect(result.structuredContent).toMatchObject({ import: { status: 'completed', processed_rows: 1 } });
      }
    } finally {
      await client.close();
    }
  });
});
