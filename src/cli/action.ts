// The lazy-command pattern. A resource file declares commander commands; each action is
//   .action(lazy(() => import('./contacts/list.js')))
// so the verb's module (and what it imports: undici, zod, conf...) loads only when that verb runs.
import type { Command } from 'commander';
import type { Context, GlobalOptions } from './context.js';
import type { OutputFormat } from './output.js';

export interface VerbInput {
  /** Positional arguments in declaration order; a variadic argument is spread in. */
  args: string[];
  /** The verb's own options (commander camelCase keys); global flags are in ctx.globals. */
  opts: Record<string, unknown>;
}

export interface VerbModule {
  run(ctx: Context, input: VerbInput): Promise<void>;
}

/** Builds the Context once the flags are parsed; installed on the root program by main(). */
export type ContextFactory = (globals: GlobalOptions) => Promise<Context>;

const factories = new WeakMap<Command, ContextFactory>();

export function setContextFactory(program: Command, factory: ContextFactory): void {
  factories.set(program, factory);
}

export function lazy(load: () => Promise<VerbModule>): (...params: unknown[]) => Promise<void> {
  return async (...params: unknown[]) => {
    // Commander calls actions with (...declaredArgs, options, command).
    const command = params[params.length - 1] as Command;
    let root = command;
    while (root.parent) root = root.parent;
    const factory = factories.get(root);
    if (!factory) throw new Error('no context factory installed on the program');
    const [ctx, verb] = await Promise.all([factory(readGlobals(command)), load()]);
    const args = command.processedArgs.flatMap((a: unknown) =>
      a === undefined ? [] : Array.isArray(a) ? a.map(String) : [String(a)],
    );
    await verb.run(ctx, { args, opts: command.opts() });
  };
}

/** Global flags are declared on the program; commander accepts them before or after the verb. */
export function readGlobals(command: Command): GlobalOptions {
  const all = command.optsWithGlobals<Record<string, unknown>>();
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
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
  };
}

/** Every verb's help ends with an `Examples:` section. */
export function withExamples(command: Command, examples: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
}
