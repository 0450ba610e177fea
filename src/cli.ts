// Entry point: builds the commander program (global flags + every resource's registration), runs
// it, and turns whatever is thrown into one stderr line and an exit code. Nothing heavy is
// imported here: `wsm --help` must stay as cheap as starting node.
import { Command, Help, Option } from 'commander';
import { deferRequiredOptions, setContextFactory } from './cli/action.js';
import type { CliDeps, Context } from './cli/context.js';
import { handleError, type ErrorSink } from './cli/error-report.js';
import { createProcessIO } from './cli/io.js';
import { OUTPUT_FORMATS } from './cli/output.js';
import { stopAllProgress } from './cli/progress.js';
import { packageVersion } from './cli/version.js';
import { declareResources, helpAsFlag, namedVerb } from './commands/index.js';
import { yieldGlobalTimeout } from './cli/timeout.js';

export type { CliDeps } from './cli/context.js';

export async function buildProgram(deps: Pick<CliDeps, 'io'>, argv: string[]): Promise<Command> {
  const { io } = deps;
  const program = new Command('wsm')
    .description('Manage a Workspace Messaging workspace: contacts, templates, users and more')
    .version(packageVersion(), '--version', 'print the version')
    .option('--profile <name>', 'use this saved profile (env WSM_PROFILE)')
    .option('--base-url <url>', 'API base URL, e.g. http://127.0.0.1:8080/api/v3 (env WSM_BASE_URL)')
    .option('--token <token>', 'API token (env WSM_TOKEN; prefer `wsm auth login --with-token`)')
    .option('-w, --workspace <uuid>', 'workspace to act on (env WSM_WORKSPACE)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(OUTPUT_FORMATS).default('table'))
    .option('--no-color', 'never colour the output (also NO_COLOR)')
    .option('-q, --quiet', 'print only ids, one a line; no progress chatter')
    .option('-v, --verbose', 'trace requests and responses on stderr (token redacted)')
    .option('-y, --yes', 'answer yes to confirmations (needed when stdin is not a terminal)')
    .option('--timeout <duration>', 'time one request may take, e.g. 10s or 2m (env WSM_TIMEOUT; default 30s)')
    // Subcommands inherit these settings when created with program.command(...).
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text),
      writeErr: (text) => io.err(text),
      // handleError prints commander's failures, reworded into one line of wsm's own style.
      outputError: () => {},
    })
    .configureHelp({ showGlobalOptions: true, sortSubcommands: true, minWidthToWrap: 20, formatItem: formatHelpItem })
    .showSuggestionAfterError();
  await declareResources(program, argv);
  yieldGlobalTimeout(program, namedVerb(program, argv));
  deferRequiredOptions(program);
  return program;
}

/** Commander's own columns need this much room for a description beside its term. */
const DESCRIPTION_BESIDE = 40;
const DESCRIPTION_INDENT = 6;

/**
 * A help line: the term, then its description wrapped beside it. Commander leaves the
 * description unwrapped when that column would be narrower than 40 (the terminal then breaks
 * words in the middle), so on a narrow terminal the description goes under its term, wrapped at
 * the terminal's width.
 */
function formatHelpItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  if (description === '' || width - termWidth - 4 >= DESCRIPTION_BESIDE || helper.preformatted(description)) {
    return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
  }
  const indent = ' '.repeat(DESCRIPTION_INDENT);
  return `  ${term}\n${indent}${helper.boxWrap(description, Math.max(1, width - DESCRIPTION_INDENT)).replace(/\n/g, `\n${indent}`)}`;
}

/** Runs `wsm <argv...>` and returns the exit code; never calls process.exit. */
export async function main(typed: string[], overrides: Partial<CliDeps> = {}): Promise<number> {
  const argv = helpAsFlag(typed);
  const env = overrides.env ?? process.env;
  const io = overrides.io ?? createProcessIO();
  const deps: CliDeps = { now: () => new Date(), args: typed, ...overrides, io, env };
  const program = await buildProgram(deps, argv);

  let ctx: Context | undefined;
  setContextFactory(program, async (globals) => {
    const { createContext } = await import('./cli/context.js');
    io.chooseColor(env, globals.color);
    if (globals.quiet) io.silenceProgress();
    ctx = createContext(deps, globals);
    return ctx;
  });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (thrown) {
    stopAllProgress();
    const err = ctx ? await diagnosed(ctx, thrown) : thrown;
    const sink: ErrorSink = ctx
      ? {
          io,
          env,
          outputFormat: ctx.globals.output,
          secrets: ctx.secrets,
          baseUrl: ctx.knownBaseUrl(),
          verbose: ctx.globals.verbose,
          target: ctx.globals,
          settings: ctx.knownSettings(),
        }
      : {
          io,
          env,
          // Commander failed before a context existed: the -o the user typed still decides.
          outputFormat: outputFlag(argv),
          secrets: () => [env.WSM_TOKEN?.trim(), program.opts().token].filter((s): s is string => !!s),
        };
    return handleError(err, sink);
  } finally {
    stopAllProgress();
  }
}

/** A failure a wrong base URL explains becomes that (base-url-check.ts); loaded only on failure. */
async function diagnosed(ctx: Context, error: unknown): Promise<unknown> {
  try {
    const { diagnoseFailure } = await import('./cli/base-url-check.js');
    return await diagnoseFailure(ctx, error);
  } catch {
    return error; // the diagnosis is a courtesy: never worse than the failure itself
  }
}

/** The value of -o/--output on the command line, read without commander (which may have failed). */
export function outputFlag(argv: string[]): string | undefined {
  let format: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') break;
    if (arg === '-o' || arg === '--output') format = argv[++i];
    else if (arg.startsWith('--output=')) format = arg.slice('--output='.length);
    else if (/^-o[a-z]+$/.test(arg)) format = arg.slice(2);
  }
  return format;
}
