// `wsm mcp`'s tool selection, in-process: --read-only, --toolsets, --tools patterns and the
// usage errors a wrong selection gets, read through --list-tools (which starts no server and
// sends no request: no base URL is configured here).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

let config: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  config = await tempDir();
});
afterEach(async () => {
  await config.cleanup();
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
  it('lists every tool by default: a write needing confirmation says so, an extension names wsm serve', async () => {
    const tools = await listed();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('contacts.delete')).toEqual({ name: 'contacts.delete', toolset: 'contacts', access: 'write, destructive', confirm: true, published: true, title: 'Delete a contact' });
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
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['contacts.list', 'contacts.get', 'workspace_file.pull', 'workspace_file.diff', 'permissions.list']));
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
    expect((await listed('--tools', '*.get', '--read-only')).map((tool) => tool.toolset)).toEqual(['contacts', 'fields', 'groups', 'imports', 'labels', 'roles', 'templates', 'users', 'workspaces']);
    expect((await listed('--toolsets', 'roles', '--tools', 'templates.sync')).map((tool) => tool.name)).toEqual(['roles.create', 'roles.delete', 'roles.get', 'roles.list', 'roles.update', 'templates.sync']);
  });

  it('a selection that names nothing real, or contradicts --read-only, is a usage error (exit 2)', async () => {
    expect(await refused('--toolsets', 'label')).toMatch(/^error: --toolsets: no toolset "label" \(did you mean "labels"\?\) \(toolsets: contacts, fields, /);
    expect(await refused('--tools', 'contact.lst')).toBe('error: --tools: no tool matches "contact.lst" (did you mean "contacts.list"?) (`wsm mcp --list-tools` lists them)\n');
    expect(await refused('--tools', 'contacts.list,')).toBe('error: --tools takes a comma-separated list without empty entries, got "contacts.list,"\n');
    expect(await refused('--read-only', '--tools', 'contacts.delete')).toBe('error: --tools names contacts.delete, which changes the workspace: --read-only exposes only reading tools\n');
    expect(await refused('--read-only', '--tools', 'contacts.d*')).toBe('error: this selection leaves no tool: --read-only keeps only reading tools, and every tool selected changes the workspace\n');
  });
});
