// The CLI's sentences name the command that goes on from them in backticks (`wsm imports errors
// 12` lists a failed import's rows, suggest.ts); an agent cannot run a command, so what a tool
// call says (its error, its messages) names the tool that does the same instead. A command no
// tool does is left as it is: the person behind the agent can still run it. A flag the sentence
// names is the argument of the tool that does the same.

/** The commands a tool's sentence can name, and the tool call that does each. */
const TOOL_FOR_COMMAND: ReadonlyArray<readonly [RegExp, (id: string) => string]> = [
  [/^wsm imports errors (\d+)$/, (id) => `\`imports.errors\` with id ${id}`],
  // Picking up a wait is the import tool's import_id.
  [/^wsm imports get (\d+) --wait$/, (id) => `\`contacts.import\` with import_id ${id}`],
  [/^wsm imports get (\d+)$/, (id) => `\`imports.get\` with id ${id}`],
  [/^wsm imports list$/, () => '`imports.list`'],
  [/^wsm contacts list$/, () => '`contacts.list`'],
];

/** The flags an import's sentences name, and the import tool's argument for each. */
const ARGUMENT_FOR_FLAG: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /\(-o json or --rejects FILE gives every one\)/g,
    "(`imports.errors` with the import's id lists every one once the server has read the file)",
  ],
  [/--strict\b/g, 'strict: true'],
  [/--max-failures\b/g, 'max_failures'],
];

/** `text` with every backticked command a tool does named as that tool call, and each flag a tool argument names as that argument. */
export function inToolWords(text: string): string {
  const argued = ARGUMENT_FOR_FLAG.reduce((said, [flag, argument]) => said.replace(flag, argument), text);
  return argued.replace(/`(wsm [^`]*)`/g, (whole, command: string) => {
    for (const [pattern, tool] of TOOL_FOR_COMMAND) {
      const match = pattern.exec(command.trim());
      if (match) return tool(match[1] ?? '');
    }
    return whole;
  });
}
