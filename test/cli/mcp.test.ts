// `wsm mcp`'s tool selection, in-process: --read-only, --toolsets, --tools patterns and the
// usage errors a wrong selection gets, read through --list-tools (which starts no server and
// sends no request: no base URL is configured here).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';
import { isLoopbackHost } from '../../src/api/loopback.js';
import { bearerToken } from '../../src/mcp/http.js';
import { AGENT_RESOURCES } from '../../src/api/descriptions/catalog.js';
import { DESCRIPTIONS } from '../../src/api/descriptions/index.js';
import { MCP_FLAGS } from '../../src/commands/mcp.js';

let config: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  config = await tempDir();
});
afterEach(async () => {
  await config?.cleanup();
});

interface Listed {
  name: string;
  toolset: string;
  access: string;
  confirm: boolean;
  published: boolean;
}

async function listed(...flags: string[]): Promise<Listed[]> {
  const run = await runCli(['mcp', ...flags, '--list-tools', '-o', 'json'], { configDir: config.dir });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Listed[];
}

async function refused(...flags: string[]): Promise<string> {
  const run = await runCli(['mcp', ...flags, '--list-tools'], { configDir: config.dir });
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  return run.stderr;
}

describe('wsm mcp --list-tools', () => {
  let toolsets: string[];
  beforeEach(async () => {
    toolsets = [...new Set((await listed()).map((tool) => tool.toolset))];
  });

  it("--toolsets' help names every resource toolset the tools have, from the catalog", () => {
    const resources = toolsets.filter((name) => name !== 'workspace_file' && name !== 'history');
    expect(resources).toEqual(AGENT_RESOURCES);
    expect(MCP_FLAGS.toolsets.description).toContain(`a resource (${[...resources].sort().join(', ')}), workspace_file or history`);
  });

  it('lists every tool by default: a write needing confirmation says so, an extension names wsm serve', async () => {
    const tools = await listed();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('contacts.delete')).toEqual({
      name: 'contacts.delete',
      toolset: 'contacts',
      access: 'write, destructive',
      confirm: true,
      published: true,
      title: 'Delete a contact',
    });
    expect(byName.get('contacts.create')).toMatchObject({ access: 'write', confirm: false });
    expect(byName.get('labels.list')).toMatchObject({ access: 'read', published: false });
    expect(byName.get('contacts.import')).toMatchObject({ confirm: true });
    expect(byName.get('workspace_file.apply')).toMatchObject({ confirm: true });
    expect(byName.get('permissions.setPartnerDefaults')).toMatchObject({ confirm: true });
    expect(tools.some((tool) => tool.toolset === 'auth' || tool.toolset === 'files')).toBe(false);
    expect(tools.map((tool) => tool.name)).toEqual([...tools.map((tool) => tool.name)].sort());
  });

  it('--read-only keeps the reading tools only', async () => {
    const tools = await listed('--read-only');
    expect(tools.every((tool) => tool.access === 'read')).toBe(true);
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['contacts.list', 'contacts.get', 'workspace_file.pull', 'workspace_file.diff', 'permissions.list']),
    );
    expect(tools.map((tool) => tool.name)).not.toContain('templates.sync');
  });

  it('--toolsets and --tools: a tool named by either; patterns with *', async () => {
    expect((await listed('--toolsets', 'labels,workspace_file')).map((tool) => tool.name)).toEqual([
      'labels.create',
      'labels.delete',
      'labels.get',
      'labels.list',
      'labels.update',
      'workspace_file.apply',
      'workspace_file.diff',
      'workspace_file.pull',
    ]);
    // Every resource with a get, as the catalog and the descriptions say (permissions has none).
    expect((await listed('--tools', '*.get', '--read-only')).map((tool) => tool.toolset)).toEqual(
      AGENT_RESOURCES.filter((key) => 'get' in DESCRIPTIONS[key].operations),
    );
    expect((await listed('--toolsets', 'roles', '--tools', 'templates.sync')).map((tool) => tool.name)).toEqual([
      'roles.create',
      'roles.delete',
      'roles.get',
      'roles.list',
      'roles.update',
      'templates.sync',
    ]);
  });

  it('a selection that names nothing real, or contradicts --read-only, is a usage error (exit 2)', async () => {
    expect(await refused('--toolsets', 'label')).toMatch(
      `error: --toolsets: no toolset "label" (did you mean "labels"?) (toolsets: ${toolsets.join(', ')})\n`,
    );
    expect(await refused('--tools', 'contact.lst')).toBe(
      'error: --tools: no tool matches "contact.lst" (did you mean "contacts.list"?) (`wsm mcp --list-tools` lists them)\n',
    );
    expect(await refused('--tools', 'contacts.list,')).toBe(
      'error: --tools takes a comma-separated list without empty entries, got "contacts.list,"\n',
    );
    expect(await refused('--read-only', '--tools', 'contacts.delete')).toBe(
      'error: --tools names contacts.delete, which changes the workspace: --read-only exposes only reading tools\n',
    );
    expect(await refused('--read-only', '--tools', 'contacts.d*')).toBe(
      'error: this selection leaves no tool: --read-only keeps only reading tools, and every tool selected changes the workspace\n',
    );
  });
});

describe('wsm mcp --http: its flags and its token', () => {
  it('--host, --port and --auth-token go with --http; a bad port or a short token is exit 2', async () => {
    expect(await refused('--port', '9000')).toBe('error: --port goes with --http\n');
    expect(await refused('--auth-token', 'abcdefghijklmnopq')).toBe('error: --auth-token goes with --http\n');
    expect(await refused('--http', '--port', 'http')).toBe('error: --port takes a whole number from 0 to 65535, got "http"\n');
    expect(await refused('--http', '--auth-token', 'short')).toBe('error: --auth-token must be at least 16 characters long\n');
  });

  it('off loopback a token is always required: the one given, or one generated to print', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '192.168.1.5', '::', 'example.com']) expect(isLoopbackHost(host), host).toBe(false);
    expect(bearerToken('127.0.0.1', undefined)).toEqual({});
    expect(bearerToken('127.0.0.1', 'given-token-0123456789')).toEqual({ token: 'given-token-0123456789' });
    expect(bearerToken('0.0.0.0', 'given-token-0123456789')).toEqual({ token: 'given-token-0123456789' });
    const generated = bearerToken('0.0.0.0', undefined);
    expect(generated.token).toMatch(/^[\w-]{32}$/);
    expect(generated.generated).toBe(generated.token);
    expect(bearerToken('0.0.0.0', undefined).token).not.toBe(generated.token);
  });
});
