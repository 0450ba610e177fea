// Output flags that ask for two different outputs. Each pair is refused (exit 2, one line, nothing
// sent) instead of one silently winning. README "Global flags" documents this table.
import { UsageError } from './errors.js';
import type { GlobalOptions } from './context.js';

type Flag = '-q' | '--json' | '--jq' | `-o ${string}`;

/** The pairs that conflict; `-o table` (the default) and `-o json` with --json/--jq do not. */
const OUTPUT_CONFLICTS: ReadonlyArray<readonly [Flag, Flag]> = [
  ['--json', '-o csv'],
  ['--json', '-o ndjson'],
  ['--json', '-o yaml'],
  ['--jq', '-o csv'],
  ['--jq', '-o ndjson'],
  ['--jq', '-o yaml'],
  ['-q', '-o json'],
  ['-q', '-o ndjson'],
  ['-q', '-o csv'],
  ['-q', '-o yaml'],
  ['--json', '-o xlsx'],
  ['--jq', '-o xlsx'],
  ['-q', '-o xlsx'],
  ['-q', '--json'],
  ['-q', '--jq'],
];

function given(globals: GlobalOptions): Set<Flag> {
  const flags = new Set<Flag>([`-o ${globals.output}`]);
  if (globals.quiet) flags.add('-q');
  if (globals.fields !== undefined) flags.add('--json');
  if (globals.jq !== undefined) flags.add('--jq');
  return flags;
}

/** `-q cannot be used with -o json`, for the first conflicting pair given. */
export function checkOutputConflicts(globals: GlobalOptions): void {
  const flags = given(globals);
  const pair = OUTPUT_CONFLICTS.find(([a, b]) => flags.has(a) && flags.has(b));
  if (pair) throw new UsageError(`${pair[0]} cannot be used with ${pair[1]}: they ask for different output`);
}
