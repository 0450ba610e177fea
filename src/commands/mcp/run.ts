// `wsm mcp [--read-only] [--tools …] [--toolsets …] [--list-tools]`: an MCP server on stdio whose
// tools are the API's operations and the CLI's workflows (src/mcp). Nothing is asked of the
// server at start: the first tool call resolves the settings, as any command does.
import type { Column } from '../../cli/output.js';
import type { ToolSpec } from '../../mcp/tool.js';
import type { mcp } from '../mcp.js';
import { typedRun, type VerbRun } from '../shared/verb.js';

interface ToolRow {
  name: string;
  toolset: string;
  access: string;
  confirm: boolean;
  published: boolean;
  title: string;
}

const columns: Column<ToolRow>[] = [
  { key: 'name', header: 'TOOL' },
  { key: 'access', header: 'ACCESS' },
  { key: 'confirm', header: 'CONFIRM', get: (row) => (row.confirm ? 'yes' : 'no') },
  { key: 'published', header: 'SERVER', get: (row) => (row.published ? 'any' : 'wsm serve') },
  { key: 'title', header: 'DESCRIPTION' },
];

function rowOf(tool: ToolSpec): ToolRow {
  const access = tool.hints.readOnly ? 'read' : tool.hints.destructive ? 'write, destructive' : 'write';
  return { name: tool.name, toolset: tool.toolset, access, confirm: tool.confirm !== undefined, published: tool.published, title: tool.title };
}

export const run: VerbRun = typedRun<typeof mcp>(async (ctx, { opts }) => {
  const [{ allTools }, { selectTools, splitList }] = await Promise.all([import('../../mcp/catalog.js'), import('../../mcp/selection.js')]);
  const { tools, toolsets } = opts;
  const selected = selectTools(await allTools(), {
    readOnly: opts.readOnly === true,
    ...(tools !== undefined ? { tools: splitList(tools, '--tools') } : {}),
    ...(toolsets !== undefined ? { toolsets: splitList(toolsets, '--toolsets') } : {}),
  });
  if (opts.listTools === true) {
    await ctx.output.list(selected.map(rowOf), { columns });
    return;
  }
  const { serveMcp } = await import('../../mcp/server.js');
  await serveMcp(ctx, selected);
});
