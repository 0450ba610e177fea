// Commander's own error lines, rewritten into wsm's style: one line, flags named as users type
// them, choices and the bad value said the way the rest of wsm says them. handleError prints the
// result; commander itself prints nothing (cli.ts silences its outputError).
import type { CommanderError } from 'commander';

type Rewrite = (message: string) => string | undefined;

/** `-o, --output <format>` -> `--output`; `<shell>` stays as it is. */
function flagName(flags: string): string {
  return /--[\w-]+/.exec(flags)?.[0] ?? flags.split(/[ ,]+/)[0];
}

const REWRITES: Record<string, Rewrite> = {
  'commander.invalidArgument': (message) => {
    const choices = /Allowed choices are (.*)\.$/.exec(message)?.[1];
    const option = /^option '([^']+)' argument '(.*)' is invalid\./.exec(message);
    const argument = /^command-argument value '(.*)' is invalid for argument '([^']+)'\./.exec(message);
    const [name, value] = option ? [flagName(option[1]), option[2]] : argument ? [`<${argument[2]}>`, argument[1]] : [];
    if (name === undefined) return undefined;
    // A custom parser's own sentence follows commander's prefix: it alone is kept.
    if (choices === undefined) return message.replace(/^.*? is invalid(?: for argument '[^']+')?\.\s*/, '') || undefined;
    return `${name} takes one of ${choices}, got "${value}"`;
  },
  'commander.optionMissingArgument': (message) => {
    const flags = /^option '([^']+)' argument missing/.exec(message)?.[1];
    return flags && `${flagName(flags)} needs a value`;
  },
  'commander.missingMandatoryOptionValue': (message) => {
    const flags = /^required option '([^']+)' not specified/.exec(message)?.[1];
    return flags && `${flagName(flags)} is required`;
  },
  'commander.conflictingOption': (message) => message.replace(/option '([^']+)'/g, (_, flags: string) => flagName(flags)),
};

/** The sentence to print after `error: ` for a commander failure (never several lines). */
export function commanderSentence(err: CommanderError): string {
  const message = err.message.replace(/^error: /, '');
  const rewritten = REWRITES[err.code]?.(message) ?? message;
  // Suggestions come on their own line: `(Did you mean --number?)` joins the sentence.
  return rewritten.replace(/\s*\n\s*\(Did you mean/g, ' (did you mean').replace(/\s*\n\s*/g, ' ');
}
