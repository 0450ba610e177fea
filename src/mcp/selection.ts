// Which tools a `wsm mcp` session exposes: `--read-only` keeps the reading tools, `--toolsets`
// whole groups (`contacts,templates`), `--tools` names and patterns (`contacts.*,templates.sync`,
// as Stripe's MCP server takes them). Both lists together: a tool in either. A name or group that
// matches nothing is a usage error with the closest names, never an empty server.
import { UsageError } from '../cli/errors.js';
import { didYouMean } from '../cli/similar.js';
import type { ToolSpec } from './tool.js';

export interface Selection {
  readOnly: boolean;
  /** `--tools`: names, or patterns with `*` (`contacts.*`, `*.list`). */
  tools?: string[];
  /** `--toolsets`: groups of tools (a resource, or `workspace_file`). */
  toolsets?: string[];
}

/** `a, b,c` -> ['a', 'b', 'c']; an empty entry is a usage error naming the flag. */
export function splitList(value: string, flag: string): string[] {
  const items = value.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) throw new UsageError(`${flag} takes a comma-separated list without empty entries, got "${value}"`);
  return items;
}

function patternRegExp(pattern: string): RegExp {
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`);
}

export function selectTools(all: readonly ToolSpec[], selection: Selection): ToolSpec[] {
  const names = all.map((tool) => tool.name);
  const toolsets = [...new Set(all.map((tool) => tool.toolset))];
  for (const set of selection.toolsets ?? []) {
    if (!toolsets.includes(set))
      throw new UsageError(`--toolsets: no toolset "${set}"${didYouMean(set, toolsets)} (toolsets: ${toolsets.join(', ')})`);
  }
  const patterns = (selection.tools ?? []).map((pattern) => ({ pattern, regexp: patternRegExp(pattern) }));
  for (const { pattern, regexp } of patterns) {
    const matched = all.filter((tool) => regexp.test(tool.name));
    if (matched.length === 0)
      throw new UsageError(`--tools: no tool matches "${pattern}"${didYouMean(pattern, names)} (\`wsm mcp --list-tools\` lists them)`);
    // A tool named exactly is asked for: --read-only leaving it out would be a silent surprise.
    const exact = matched.find((tool) => tool.name === pattern);
    if (selection.readOnly && exact && !exact.hints.readOnly)
      throw new UsageError(`--tools names ${pattern}, which changes the workspace: --read-only exposes only reading tools`);
  }
  const everything = selection.tools === undefined && selection.toolsets === undefined;
  const selected = all.filter((tool) => {
    if (selection.readOnly && !tool.hints.readOnly) return false;
    if (everything) return true;
    return (selection.toolsets ?? []).includes(tool.toolset) || patterns.some(({ regexp }) => regexp.test(tool.name));
  });
  if (selected.length === 0)
    throw new UsageError(
      'this selection leaves no tool: --read-only keeps only reading tools, and every tool selected changes the workspace',
    );
  return selected;
}
