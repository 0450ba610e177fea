// Declaration helpers shared by the resource files (listed verbs, delete verbs, list flags).
// Loaded at start-up, so it sits beside them (not in a verb folder) and imports commander only.
import type { Command } from 'commander';
import { lazy, withExamples, type Selectable, type VerbModule } from '../cli/action.js';

/** `--page`, `--per-page`, `--all` (with `--concurrency`) on a list verb. */
export function listOptions(command: Command): Command {
  return concurrencyOption(
    command
      .option('--page <n>', 'page to show (starts at 1)')
      .option('--per-page <n>', 'rows a page, 1 to 100')
      .option('--all', 'every page, streamed out in order as the pages arrive'),
  );
}

/** `--concurrency <n>` on full walks and bulk verbs (env WSM_CONCURRENCY, default 8). */
export function concurrencyOption(command: Command): Command {
  return command.option('--concurrency <n>', 'requests in flight at once (env WSM_CONCURRENCY, default 8); halved on 429');
}

/** `--json [fields]` and `--jq <expr>` on a verb that prints records (every list and get). */
export function selectionOptions(command: Command): Command {
  return command
    .option('--json [fields]', 'print JSON with only these comma-separated fields (without a value: list the fields)')
    .option('--jq <expr>', 'filter the JSON output with a jq expression, e.g. \'.[] | select(.status == "APPROVED") | .name\'');
}

/** The fields of a resource's API record, for `--json` (loads the schemas only when asked). */
export function recordSelection(resource: string): Selectable {
  return { fields: async () => (await import('./shared/record-fields.js')).recordFields(resource) };
}

/** The flags of an import upload, shared by `contacts import` and `imports create`. */
export function uploadOptions(command: Command): Command {
  return importWaitOptions(
    command.option('--name <name>', 'name of the import (default: the file name)').option('--group <id>', 'contact group the imported contacts join'),
  );
}

/** `--wait` on an import (upload or `imports get`), with its poll interval and limit. */
export function importWaitOptions(command: Command): Command {
  return maxFailuresOption(
    command
      .option('--wait', 'wait until the server has processed the import, then print it (Ctrl-C stops waiting, not the import)')
      .option('--interval <duration>', 'with --wait: time between polls', '1s')
      .option('--timeout <duration>', 'with --wait: give up after this long (exit 6)', '30m'),
    'rows',
  );
}

/** `--max-failures`: the failed items a run tolerates before it exits 8. */
export function maxFailuresOption(command: Command, items: string): Command {
  return command.option('--max-failures <n>', `failed ${items} tolerated (a number, or a share such as 1%) before exit 8; default 0`);
}

/** commander collector for repeatable options: `--group 1 --group 2` -> ['1', '2']. */
export function repeatable(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export interface VerbSpec {
  name: string;
  description: string;
  examples: string[];
  load: () => Promise<VerbModule>;
  /** Adds arguments and options to the command. */
  configure?: (command: Command) => Command;
  /** `--json`/`--jq` with these fields; `list` and `get` get their resource's record fields by default. */
  selection?: Selectable;
}

/** Declares one verb: description, arguments/options, the Examples section, the lazy action. */
export function addVerb(parent: Command, spec: VerbSpec): Command {
  let command = parent.command(spec.name).description(spec.description);
  if (spec.configure) command = spec.configure(command);
  const selection = spec.selection ?? (spec.name === 'list' || spec.name === 'get' ? recordSelection(parent.name()) : undefined);
  if (selection) selectionOptions(command);
  command.action(lazy(spec.load, selection));
  return withExamples(command, spec.examples);
}

/** A delete verb: `<id>` and a confirmation (`--yes` without a terminal). */
export function deleteVerb(parent: Command, noun: string, resource: string, load: () => Promise<VerbModule>): Command {
  return addVerb(parent, {
    name: 'delete',
    description: `delete a ${noun} (asks first; pass --yes without a terminal)`,
    configure: (c) => c.argument('<id>', `${noun} id`),
    examples: [`wsm ${resource} delete 12`, `wsm ${resource} delete 12 --yes`],
    load,
  });
}
