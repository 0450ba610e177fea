// The lazy-command pattern. A resource file declares commander commands; each action is
//   .action(lazy(() => import('./contacts/list.js')))
// so the verb's module (and what it imports: undici, zod, inquirer...) loads only when that verb runs.
import type { Command, Option } from 'commander';
import type { Context, GlobalOptions } from './context.js';
import { UsageError } from './errors.js';
import { checkOutputConflicts } from './flag-conflicts.js';
import { unknownFieldsError, type OutputFormat } from './output.js';

export interface VerbInput {
  /** Positional arguments in declaration order; a variadic argument is spread in. */
  args: string[];
  /** The verb's own options (commander camelCase keys); global flags are in ctx.globals. */
  opts: Record<string, unknown>;
}

/**
 * A verb as gh splits it: `parse` turns the command line into the verb's options, `run` does the
 * work and returns data (records, a report, a plan), `render` puts that data on the output path
 * (ctx.output: table, JSON, ids, text). `wsm mcp` and the workspace-file commands call `run` and
 * read its data; only the command line renders. A verb module exports these as functions.
 */
export interface Verb<Options = never, Result = unknown, Live = never> {
  /** The command line into options: a bad value is exit 2, before anything is read or sent. */
  parse(input: VerbInput, ctx: Context): Options | Promise<Options>;
  /** The work. Notices and warnings go to stderr as it goes (ctx.output); data is returned, never printed. */
  run(ctx: Context, options: Options, live?: Live): Promise<Result>;
  /** The result on stdout, as the output format asks. */
  render(ctx: Context, result: Result, options: Options): void | Promise<void>;
  /**
   * What the result means once its data is out: a closing line on stderr, and the exit it ends
   * with (diff's "changes planned", exit 8 for failed rows). `wsm mcp` calls it too.
   */
  settle?(ctx: Context, result: Result, options: Options): void | Promise<void>;
  /**
   * What a person watches while `run` works (apply's plan before its question, each change as it
   * ends; where a server listens, once it does), and where run sends what is too large to return
   * (export's rows, written as each page arrives). Run's data is then what it did: a count, the
   * server it ran.
   */
  live?(ctx: Context, options: Options): Live;
}

/**
 * What a verb's module exports: its Verb's functions. The options and result they take are the
 * module's own (typed there, as Verb<O, R> says); any here, where every verb is loaded alike.
 */
export interface VerbModule {
  parse(input: VerbInput, ctx: Context): unknown;
  run(ctx: Context, options: any, live?: any): Promise<unknown>;
  render(ctx: Context, result: any, options: any): void | Promise<void>;
  settle?(ctx: Context, result: any, options: any): void | Promise<void>;
  live?(ctx: Context, options: any): unknown;
}

/** A verb on the command line: parse, run, render, settle, in that order. */
async function perform<O, R, L>(verb: Verb<O, R, L>, ctx: Context, input: VerbInput): Promise<void> {
  const options = await verb.parse(input, ctx);
  const result = await verb.run(ctx, options, verb.live?.(ctx, options));
  await verb.render(ctx, result, options);
  await verb.settle?.(ctx, result, options);
}

/** Builds the Context once the flags are parsed; installed on the root program by main(). */
export type ContextFactory = (globals: GlobalOptions) => Promise<Context>;

const factories = new WeakMap<Command, ContextFactory>();

export function setContextFactory(program: Command, factory: ContextFactory): void {
  factories.set(program, factory);
}

/** A verb that prints records: `--json` is checked against these fields before anything is sent. */
export interface Selectable {
  fields: () => Promise<readonly string[]>;
}

/** Required options lazy() checks itself, after commander's unknown-option check. */
const requiredOptions = new WeakSet<Option>();

/**
 * Commander checks required options before unknown ones, so `--numbr 1` would be reported as a
 * missing --number. Every required option of the tree is checked in lazy() instead.
 */
export function deferRequiredOptions(command: Command): void {
  for (const option of command.options) {
    if (!option.mandatory) continue;
    option.mandatory = false;
    requiredOptions.add(option);
  }
  for (const sub of command.commands) deferRequiredOptions(sub);
}

function checkRequired(command: Command): void {
  const missing = command.options.find((o) => requiredOptions.has(o) && command.getOptionValue(o.attributeName()) === undefined);
  if (missing) throw new UsageError(`${missing.long ?? missing.flags} is required`);
}

/** `writesXlsx`: the verb writes `-o xlsx` (contacts export); every other verb refuses it before anything is sent. */
export function lazy(
  load: () => Promise<VerbModule>,
  selectable?: Selectable,
  options: { writesXlsx?: boolean } = {},
): (...params: unknown[]) => Promise<void> {
  return async (...params: unknown[]) => {
    // Commander calls actions with (...declaredArgs, options, command).
    const command = params[params.length - 1] as Command;
    let root = command;
    while (root.parent) root = root.parent;
    const factory = factories.get(root);
    if (!factory) throw new Error('no context factory installed on the program');
    checkRequired(command);
    const globals = readGlobals(command);
    checkOutputConflicts(globals);
    if (globals.output === 'xlsx' && options.writesXlsx !== true) {
      throw new UsageError('-o xlsx is written by `wsm contacts export` only (a spreadsheet of contacts); here use -o csv, json or ndjson');
    }
    await checkSelection(globals, selectable);
    const [ctx, verb] = await Promise.all([factory(globals), load()]);
    const args = command.processedArgs.flatMap((a: unknown) => (a === undefined ? [] : Array.isArray(a) ? a.map(String) : [String(a)]));
    const input = { args, opts: command.opts() };
    await perform(verb as Verb<unknown, unknown, unknown>, ctx, input);
  };
}

/** `--json` fields the records have and a `--jq` that compiles, or exit 2 before any request. */
async function checkSelection(globals: GlobalOptions, selectable: Selectable | undefined): Promise<void> {
  if (globals.fields !== undefined && selectable) {
    const available = await selectable.fields();
    if (globals.fields.length === 0)
      throw new UsageError(`--json takes a comma-separated list of fields; available: ${available.join(', ')}`);
    const unknown = globals.fields.filter((f) => !available.includes(f));
    if (unknown.length > 0) throw unknownFieldsError(unknown, [...available]);
  } else if (globals.fields?.length === 0) {
    throw new UsageError('--json takes a comma-separated list of fields, such as --json id,name');
  }
  if (globals.jq !== undefined) {
    const { checkJq } = await import('./jq.js');
    await checkJq(globals.jq);
  }
}

/** Global flags are declared on the program; commander accepts them before or after the verb. */
export function readGlobals(command: Command): GlobalOptions {
  const all = command.optsWithGlobals<Record<string, unknown>>();
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  let root = command;
  while (root.parent) root = root.parent;
  // `--profile "$NAME"` with NAME unset must not fall back to the current profile (or, for
  // `wsm serve`, overwrite `local`); the same for the other settings that pick what is acted on.
  for (const [key, flag] of [
    ['profile', '--profile'],
    ['baseUrl', '--base-url'],
    ['token', '--token'],
    ['workspace', '--workspace'],
  ] as const) {
    if (typeof all[key] === 'string' && all[key].trim() === '') throw new UsageError(`${flag} needs a value, got an empty one`);
  }
  return {
    profile: str(all.profile),
    baseUrl: str(all.baseUrl),
    token: str(all.token),
    workspace: str(all.workspace),
    output: (str(all.output) ?? 'table') as OutputFormat,
    color: all.color !== false,
    quiet: all.quiet === true,
    verbose: all.verbose === true,
    yes: all.yes === true,
    // Read from the program itself: `templates sync --timeout 30m` is the verb's own wait limit.
    timeout: str(root.opts().timeout),
    // `--json` without a value asks for the list of fields: an empty selection says so.
    fields:
      typeof all.json === 'string'
        ? all.json
            .split(',')
            .map((f) => f.trim())
            .filter(Boolean)
        : all.json === true
          ? []
          : undefined,
    jq: str(all.jq),
  };
}

/** Every verb's help ends with an `Examples:` section. */
export function withExamples(command: Command, examples: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
}
