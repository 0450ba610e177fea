// What `tools/list` tells an agent: every argument described (on its schema's field), no command of the CLI
// (an agent cannot run one), the hosted-service caveat once in the instructions rather than in
// each tool, enums where the API has them, and the whole listing within its byte budget.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers.js';
import { allTools } from '../../src/mcp/catalog.js';
import { toolListing } from '../../src/mcp/listing.js';
import { selectTools } from '../../src/mcp/selection.js';
import { INSTRUCTIONS } from '../../src/mcp/texts.js';
import { inToolWords } from '../../src/mcp/tool-words.js';

type Schema = { properties?: Record<string, { description?: string; enum?: string[]; items?: { enum?: string[] } }> };
type Nested = { description?: string; properties?: Record<string, Nested>; items?: Nested; anyOf?: Nested[]; oneOf?: Nested[] };
const listing = async () => toolListing(await allTools());

/** Every property, at any depth (in an array's items and each variant of a union), without a description of some words. */
function undescribedIn(schema: Nested, at: string): string[] {
  const inner = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.items ? [schema.items] : [])].flatMap((sub) =>
    undescribedIn(sub, at),
  );
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const described = typeof property.description === 'string' && property.description.trim().length >= 8;
    if (!described) inner.push(`${at}.${name}`);
    inner.push(...undescribedIn(property, `${at}.${name}`));
  }
  return [...new Set(inner)];
}
type Field = { description?: string; def: { innerType?: Field } };
/** A field's description: its own, or that of the schema it makes optional, nullable or defaulted. */
const descriptionOf = (field: Field | undefined): string | undefined => field && (field.description ?? descriptionOf(field.def.innerType));
/** Arguments a tool declares itself in place of the API's field (src/mcp/operations.ts), with a description of their own. */
const TOOL_OWN = ['contacts.update.name', 'templates.create.header'];
/** `wsm contacts list`, `wsm serve`: a command of the CLI, which an agent cannot run. */
const CLI_COMMAND = /\bwsm\s+[a-z]/i;

/**
 * The cap on a tool's average share of `tools/list`: a resource adds its own tools' bytes and
 * stays within it, never another resource's room (the total per mode is docs/mcp.md's table).
 */
const AVERAGE_TOOL_BYTES = 900;

/** The modes docs/mcp.md measures, by the command line an operator types. */
const MODES: Array<[command: string, selection: Parameters<typeof selectTools>[1]]> = [
  ['wsm mcp', { readOnly: false }],
  ['wsm mcp --toolsets contacts,templates', { readOnly: false, toolsets: ['contacts', 'templates'] }],
  ['wsm mcp --read-only', { readOnly: true }],
  ['wsm mcp --toolsets contacts', { readOnly: false, toolsets: ['contacts'] }],
];

/** docs/mcp.md's table of what each mode costs, written from the tools as they are (padded as the formatter pads it). */
async function costTable(): Promise<string> {
  const all = await allTools();
  const rows = MODES.map(([command, selection]) => {
    const tools = selectTools(all, selection);
    const bytes = JSON.stringify({ tools: toolListing(tools) }).length;
    return [`\`${command}\``, String(tools.length), bytes.toLocaleString('en-US'), `${(bytes / 4000).toFixed(1)}k tokens`];
  });
  const header = ['Mode', 'Tools', 'Bytes', 'About'];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

describe('tools/list, as an agent reads it', () => {
  it('every argument of every tool is described, the properties nested in one too', async () => {
    const undescribed = (await listing()).flatMap((tool) =>
      undescribedIn(tool.inputSchema as Nested, tool.name).map(
        (name) => `${name}: step 1 of "Adding a resource" (docs/architecture.md): describe the field on its schema`,
      ),
    );
    expect(undescribed).toEqual([]);
  });

  it("an operation tool's argument says what its schema field says: the description lives on the field (step 1)", async () => {
    const { DESCRIPTIONS } = await import('../../src/api/descriptions/index.js');
    const tools = new Map((await listing()).map((tool) => [tool.name, (tool.inputSchema as Schema).properties ?? {}]));
    const differing: string[] = [];
    let compared = 0;
    for (const resource of Object.values(DESCRIPTIONS)) {
      for (const op of Object.values(resource.operations)) {
        const properties = tools.get(`${resource.key}.${op.name}`);
        if (properties === undefined) continue;
        for (const schema of [op.body, op.query]) {
          const shape = (schema as { shape?: Record<string, Field> } | undefined)?.shape ?? {};
          for (const [name, field] of Object.entries(shape)) {
            if (name === 'page' || name === 'per_page') continue;
            const argument = properties[name === 'fields' && schema === op.query ? 'field_values' : name];
            if (argument === undefined) continue;
            compared += 1;
            // A tool's own argument (a name it fills in, a header it cannot upload) says more than the field, never nothing.
            const own = TOOL_OWN.includes(`${resource.key}.${op.name}.${name}`);
            const said = descriptionOf(field);
            if (said === undefined || (!own && argument.description !== said))
              differing.push(
                `${resource.key}.${op.name}.${name}: field says ${JSON.stringify(said)}, tool ${JSON.stringify(argument.description)}`,
              );
          }
        }
      }
    }
    expect(differing).toEqual([]);
    expect(compared).toBeGreaterThan(50);
  });

  it('no text names a CLI command, a multipart form, or repeats the hosted-service caveat', async () => {
    const problems = (await listing()).flatMap((tool) => {
      const texts = [
        tool.description ?? '',
        ...Object.values((tool.inputSchema as Schema).properties ?? {}).map((p) => p.description ?? ''),
      ];
      return texts
        .filter((text) => CLI_COMMAND.test(text) || /multipart|hosted service/i.test(text))
        .map((text) => `${tool.name}: ${text}`);
    });
    expect(problems).toEqual([]);
    expect(INSTRUCTIONS).toMatch(/hosted service/);
  });

  it("a call's error and messages name the tool that goes on, not the CLI command the CLI's sentence names; each tool exists", async () => {
    const said = [
      'import 12: 3 of 4 rows failed (`wsm imports errors 12` lists them)',
      'import 12 keeps running on the server: `wsm imports get 12 --wait`',
      'no import 9 in this workspace (`wsm imports list` shows the imports there are)',
      'the contacts it created or updated stay (`wsm contacts list` shows them)',
      'import 7 is `wsm imports get 7` away',
    ].map(inToolWords);
    expect(said).toEqual([
      'import 12: 3 of 4 rows failed (`imports.errors` with id 12 lists them)',
      'import 12 keeps running on the server: `contacts.import` with import_id 12',
      'no import 9 in this workspace (`imports.list` shows the imports there are)',
      'the contacts it created or updated stay (`contacts.list` shows them)',
      'import 7 is `imports.get` with id 7 away',
    ]);
    const names = new Set((await allTools()).map((tool) => tool.name));
    const named = said.flatMap((text) => [...text.matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((match) => match[1]));
    expect(named.filter((name) => !names.has(name))).toEqual([]);
    // A command no tool does stays as it is: the person behind the agent can run it.
    expect(inToolWords('run `wsm auth login`')).toBe('run `wsm auth login`');
    // A flag is the import tool's argument.
    expect(
      [
        'sent anyway: the server skips the 3 invalid rows (use --strict to refuse the file)',
        'warning: 3 of 4 rows failed (tolerated: --max-failures 100%)',
        '25 more invalid rows not listed (-o json or --rejects FILE gives every one)',
      ].map(inToolWords),
    ).toEqual([
      'sent anyway: the server skips the 3 invalid rows (use strict: true to refuse the file)',
      'warning: 3 of 4 rows failed (tolerated: max_failures 100%)',
      "25 more invalid rows not listed (`imports.errors` with the import's id lists every one once the server has read the file)",
    ]);
  });

  it('enums where the API has them: template statuses, permission names, categories', async () => {
    const tools = await listing();
    const properties = (name: string) => (tools.find((tool) => tool.name === name)!.inputSchema as Schema).properties!;
    expect(properties('templates.list').status.enum).toEqual(expect.arrayContaining(['PENDING', 'APPROVED', 'REJECTED']));
    expect(properties('templates.list').category.enum).toEqual(['MARKETING', 'UTILITY', 'AUTHENTICATION']);
    expect(properties('roles.create').permissions.items?.enum).toEqual(expect.arrayContaining(['contacts.view', 'templates.sync']));
    expect(properties('contacts.list').fields.items?.enum).toEqual(expect.arrayContaining(['name', 'number', 'fields']));
    expect(properties('contacts.list').fields.items?.enum).not.toContain('workspace_id');
  });

  it(`fits its budget: at most ${AVERAGE_TOOL_BYTES} bytes a tool on average, every tool and the reading ones alone`, async () => {
    const all = await allTools();
    const bytes = (tools: typeof all) => JSON.stringify({ tools: toolListing(tools) }).length;
    expect(bytes(all) / all.length).toBeLessThanOrEqual(AVERAGE_TOOL_BYTES);
    const reading = selectTools(all, { readOnly: true });
    expect(bytes(reading) / reading.length).toBeLessThanOrEqual(AVERAGE_TOOL_BYTES);
    // Nothing costs bytes and tells nothing: the ±2^53-1 bounds and the UUID pattern are gone.
    const text = JSON.stringify(toolListing(all));
    expect(text).not.toContain('9007199254740991');
    expect(text).not.toContain('"$schema"');
  });

  it("docs/mcp.md's table states what each mode costs today", async () => {
    const table = await costTable();
    const page = readFileSync(join(REPO_ROOT, 'docs/mcp.md'), 'utf8');
    expect(page.includes(table), `docs/mcp.md's cost table is stale; it is now:\n${table}`).toBe(true);
  });
});
