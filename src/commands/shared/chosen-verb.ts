// A command whose command line picks one of two verb modules (`contacts update 42` or
// `contacts update --from ids.txt`): parse loads the module the line asks for and parses with
// it; run, render and settle are then that module's own, each given its own options and result,
// so neither module checks which form it is in at each phase.
import type { VerbInput, VerbModule } from '../../cli/action.js';
import type { Context } from '../../cli/context.js';

/** The module the command line chose, and its options. */
interface Chosen {
  verb: VerbModule;
  options: unknown;
}

/** The chosen module's result. */
interface Ran {
  verb: VerbModule;
  result: unknown;
}

/** A verb module made of the module `pick` loads for the command line. */
export function chosenVerb(pick: (input: VerbInput) => () => Promise<VerbModule>) {
  return {
    async parse(input: VerbInput, ctx: Context): Promise<Chosen> {
      const verb = await pick(input)();
      return { verb, options: await verb.parse(input, ctx) };
    },
    async run(ctx: Context, { verb, options }: Chosen): Promise<Ran> {
      return { verb, result: await verb.run(ctx, options, verb.live?.(ctx, options)) };
    },
    render(ctx: Context, { verb, result }: Ran, { options }: Chosen): void | Promise<void> {
      return verb.render(ctx, result, options);
    },
    settle(ctx: Context, { verb, result }: Ran, { options }: Chosen): void | Promise<void> {
      return verb.settle?.(ctx, result, options);
    },
  };
}
