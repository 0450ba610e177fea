// Every tool `wsm mcp` can expose: one per operation of the resource descriptions, and the CLI
// workflows (an import or a sync with its wait, the workspace file), which take the place of the
// bare operation of the same name. Sorted by name, so lists and tests read the same every time.
import { operationTools, type DescribedResource } from './operations.js';
import type { ToolSpec } from './tool.js';
import { WORKFLOW_TOOLS } from './workflows.js';

function toolsOf(resources: readonly DescribedResource[]): ToolSpec[] {
  const workflows = new Set(WORKFLOW_TOOLS.map((tool) => tool.name));
  const tools = [...operationTools(resources).filter((tool) => !workflows.has(tool.name)), ...WORKFLOW_TOOLS];
  return tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The tools of this build's descriptions (loads zod and the schemas). */
export async function allTools(): Promise<ToolSpec[]> {
  const { DESCRIPTIONS } = await import('../api/descriptions/index.js');
  return toolsOf(Object.values(DESCRIPTIONS));
}
