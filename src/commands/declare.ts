// Declaration helpers shared by the resource files (listed verbs, delete verbs, list flags).
// Loaded at start-up, so it sits beside them (not in a verb folder) and imports commander only.
import type { Command } from 'commander';
import { lazy, withExamples, type Selectable, type VerbModule } from '../cli/action.js';
import { DEFAULT_WAIT_TIMEOUT } from '../cli/timeout.js';

/** `--concurrency <n>` on full walks and bulk verbs (env WSM_CONCURRENCY, default 8). */
export const CONCURRENCY_FLAG = {
  flags: '--concurrency <n>',
  description: 'requests in flight at once (env WSM_CONCURRENCY, default 8); halved on 429',
} as const;

/** `--page`, `--per-page`, `--all` (with `--concurrency`) of a list verb. */
export const LIST_FLAGS = {
  page: { flags: '--page <n>', description: 'page to show (starts at 1)' },
  perPage: { flags: '--per-page <n>', description: 'rows a page, 1 to 100' },
  all: { flags: '--all', description: 'every page, streamed out in order as the pages arrive' },
  concurrency: CONCURRENCY_FLAG,
} as const;

/** `--json [fields]` and `--jq <expr>` on a verb that prints records (every list and get). */
function selectionOptions(command: Command): Command {
  return command
    .option('--json [fields]', 'print JSON with only these comma-separated fields (without a value: list the fields)')
    .option('--jq <expr>', 'filter the JSON output with a jq expression, e.g. \'.[] | select(.status == "APPROVED") | .name\'');
}

/** The fields of a resource's API record, for `--json` (loads the schemas only when asked). */
function recordSelection(resource: string): Selectable {
  return { fields: async () => (await import('./shared/record-fields.js')).recordFields(resource) };
}

/** `--max-failures` as a typed flag: the failed `items` a run tolerates before it exits 8. */
export function maxFailuresFlag(items: string) {
  return {
    flags: '--max-failures <n>',
    description: `failed ${items} tolerated (a number, or a share such as 1%) before exit 8; default 0`,
  } as const;
}

/** `--timeout` of a verb that waits (an import's `--wait`, `templates sync --wait`): the wait's limit, not a request's. */
export const WAIT_TIMEOUT_FLAG = {
  flags: '--timeout <duration>',
  description: 'with --wait: give up after this long (exit 6)',
  default: DEFAULT_WAIT_TIMEOUT,
} as const;

/** `--wait` on an import (upload or `imports get`), with its poll interval and limit, and the rows it tolerates failing. */
export const IMPORT_WAIT_FLAGS = {
  wait: {
    flags: '--wait',
    description: 'wait until the server has processed the import, then print it (Ctrl-C stops waiting, not the import)',
  },
  interval: {
    flags: '--interval <duration>',
    description: 'with --wait: time between polls (the first pauses are shorter: 0.1s, doubling)',
    default: '1s',
  },
  timeout: WAIT_TIMEOUT_FLAG,
  maxFailures: maxFailuresFlag('rows'),
} as const;

/** Changes that look made by a spreadsheet are left out by default (kept as stored); this applies them. */
export const APPLY_FLAGGED_FLAG = {
  flags: '--apply-flagged',
  description:
    'apply the changes that look made by a spreadsheet too (leading zeros lost, scientific notation, digits rounded, a number or date reformatted, CRLF made LF): by default those cells are left out (a stored value is kept)',
} as const;

/** `--rejects <file>` of an upload; `when` names the flags that make it write (only `contacts import` has --dry-run). */
export function rejectsFlag(when: 'with --wait' | 'with --wait or --dry-run') {
  return {
    flags: '--rejects <file>',
    description: `${when}: write every row that failed to <file>, with the file's header and cells plus import_error and import_line`,
  } as const;
}

/** The flags of an import upload, shared by `contacts import` and `imports create`. */
export const UPLOAD_FLAGS = {
  applyFlagged: APPLY_FLAGGED_FLAG,
  name: { flags: '--name <name>', description: 'name of the import (default: the file name)' },
  group: { flags: '--group <id>', description: 'contact group the imported contacts join' },
  rejects: rejectsFlag('with --wait'),
  sheet: { flags: '--sheet <name>', description: 'the sheet of an .xlsx file to import (default: the first)' },
  ...IMPORT_WAIT_FLAGS,
} as const;

/** commander collector for repeatable options: `--group 1 --group 2` -> ['1', '2']. */
function repeatable(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** One flag of a verb, declared where its verb is and read by that verb's parse typed (FlagOptions). */
export interface FlagSpec {
  /** commander's form: `--name <name>` (a value), `--all` (a switch), `--json [fields]` (an optional value). */
  flags: string;
  description: string;
  /** May be given again: every value, in order. */
  repeatable?: boolean;
  /** lazy() checks it after commander's unknown-option check. */
  required?: boolean;
  default?: string;
  /** The body field a create or update sends the value as (a 422 on that field then names the flag). */
  field?: string;
  /** A switch with a `--no-` form too, described so: the value is then false when that form is given. */
  negate?: string;
}

type FlagValue<F> = F extends { negate: string }
  ? boolean
  : F extends { repeatable: true }
    ? string[]
    : F extends { flags: `${string}<${string}>` }
      ? string
      : F extends { flags: `${string}[${string}]` }
        ? string | true
        : true;

/**
 * The values of the flags `F` declares (a verb's, or a shared set such as IMPORT_WAIT_FLAGS), by
 * commander's attribute name, each when given.
 */
export type FlagOptions<F> = { [K in keyof F]?: FlagValue<F[K]> };

/**
 * The command line a verb's `parse` reads: its arguments in order and the flags `F` declares
 * (its spec's `flags`, declared as a constant of their own: a verb module cannot read `typeof spec`,
 * whose `load` is the module itself).
 */
export interface CommandLine<F = Record<never, FlagSpec>> {
  args: string[];
  opts: FlagOptions<F>;
}

export interface VerbSpec<F extends Record<string, FlagSpec> = Record<string, FlagSpec>> {
  name: string;
  description: string;
  examples: string[];
  load: () => Promise<VerbModule>;
  /** Positional arguments in order: `<name>`, its description, and the body field a create sends it as. */
  args?: ReadonlyArray<readonly [name: string, description: string, field?: string]>;
  /** Its own flags, keyed by commander's attribute name (`--per-page` -> perPage). */
  flags?: F;
  /** Adds further arguments and options after `args` and `flags` (what a spec cannot say in `flags`). */
  configure?: (command: Command) => Command;
  /** `--json`/`--jq` with these fields; `list` and `get` get their resource's record fields by default. */
  selection?: Selectable;
  /** The verb writes `-o xlsx` (every other verb refuses it). */
  writesXlsx?: boolean;
  /** What the verb's failures become (diff: exit 1 for any of them, its 2 meaning "changes planned"). */
  recode?: (error: unknown) => unknown;
  /** The verb its resource runs when named alone (`wsm history` lists). */
  isDefault?: boolean;
}

/** A verb's declaration, typed by its flags (its parse reads `CommandLine<typeof FLAGS>`). */
export function verbSpec<const F extends Record<string, FlagSpec>>(spec: VerbSpec<F>): VerbSpec<F> {
  return spec;
}

function addFlag(command: Command, key: string, flag: FlagSpec): void {
  const collect = flag.repeatable ? repeatable : undefined;
  if (flag.required) command.requiredOption(flag.flags, flag.description, collect as never);
  else if (collect) command.option(flag.flags, flag.description, collect);
  else command.option(flag.flags, flag.description, flag.default);
  const declared = command.options[command.options.length - 1];
  // The key is what the run reads: a key that is not the flag's attribute would read nothing.
  if (declared.attributeName() !== key)
    throw new Error(`${command.name()}: flag ${flag.flags} is read as "${declared.attributeName()}", declared as "${key}"`);
  if (flag.negate !== undefined) command.option(`--no-${flag.flags.replace(/^--/, '')}`, flag.negate);
}

/** The declaration each verb was made from, for the test that every verb's flags are typed. */
const declarations = new WeakMap<Command, VerbSpec>();

/** The spec `addVerb` declared this command from; undefined for a command declared otherwise. */
export function declarationOf(command: Command): VerbSpec | undefined {
  return declarations.get(command);
}

/** Declares one verb: description, arguments/options, the Examples section, the lazy action. */
export function addVerb(parent: Command, spec: VerbSpec): Command {
  let command = parent.command(spec.name, spec.isDefault ? { isDefault: true } : {}).description(spec.description);
  declarations.set(command, spec);
  for (const [name, description] of spec.args ?? []) command.argument(name, description);
  for (const [key, flag] of Object.entries(spec.flags ?? {})) addFlag(command, key, flag);
  if (spec.configure) command = spec.configure(command);
  const selection = spec.selection ?? (spec.name === 'list' || spec.name === 'get' ? recordSelection(parent.name()) : undefined);
  if (selection) selectionOptions(command);
  const action = lazy(spec.load, selection, { writesXlsx: spec.writesXlsx === true });
  const { recode } = spec;
  command.action(
    recode === undefined
      ? action
      : async (...params: unknown[]) => {
          try {
            await action(...params);
          } catch (error) {
            throw recode(error);
          }
        },
  );
  return withExamples(command, spec.examples);
}

/** A delete verb: `<id>` and a confirmation (`--yes` without a terminal). */
export function deleteVerb(parent: Command, noun: string, resource: string, load: () => Promise<VerbModule>): Command {
  return addVerb(parent, {
    name: 'delete',
    description: `delete a ${noun} (asks first, unless the server says your role may not; pass --yes without a terminal)`,
    args: [['<id>', `${noun} id`]],
    examples: [`wsm ${resource} delete 12`, `wsm ${resource} delete 12 --yes`],
    load,
  });
}
