// The CLI's sentences name the command that goes on from them in backticks (`wsm imports errors
// 12` lists a failed import's rows, suggest.ts); an agent cannot run a command, so what a tool
// call says (its error, its messages) names the tool that does the same instead. A command no
// tool does is left as it is: the person behind the agent can still run it.

/** The commands a tool's sentence can name, and the tool call that does each. */
const TOOL_FOR_COMMAND: ReadonlyArray<readonly [RegExp, (id: string) => string]> = [
  [/^wsm imports errors (\d+)$/, (id) => `\`imports.errors\` with id ${id}`],
  // Picking up a wait is the import tool's import_id.
  [/^wsm imports get (\d+) --wait$/, (id) => `\`contacts.import\` with import_id ${id}`],
  [/^wsm imports get (\d+)$/, (id) => `\`imports.get\` with id ${id}`],
  [/^wsm imports list$/, () => '`imports.list`'],
  [/^wsm contacts list$/, () => '`contacts.list`'],
];

/** `text` with every backticked command a tool does named as that tool call. */
export function inToolWords(text: string): string {
  return text.replace(/`(wsm [^`]*)`/g, (whole, command: string) => {
    for (const [pattern, tool] of TOOL_FOR_COMMAND) {
      const match = pattern.exec(command.trim());
      if (match) return tool(match[1] ?? '');
    }
    return whole;
  });
}
