// The command tree reduced to what a completion script needs: words, flags, descriptions.
import type { Command, Option } from 'commander';

export interface FlagSpec {
  short?: string;
  long?: string;
  description: string;
  takesValue: boolean;
  choices?: string[];
}

export interface CommandSpec {
  name: string;
  description: string;
  flags: FlagSpec[];
  /** Choices of the first argument (e.g. the shell of `completion`), when fixed. */
  argumentChoices?: string[];
  children: CommandSpec[];
}

function flagOf(option: Option): FlagSpec {
  const spec: FlagSpec = { description: option.description, takesValue: option.required || option.optional };
  if (option.short) spec.short = option.short;
  if (option.long) spec.long = option.long;
  if (option.argChoices) spec.choices = [...option.argChoices];
  return spec;
}

function visible(command: Command): boolean {
  return !(command as unknown as { _hidden?: boolean })._hidden && command.name() !== 'help';
}

export function describeTree(command: Command): CommandSpec {
  const first = command.registeredArguments[0];
  return {
    name: command.name(),
    description: command.description(),
    flags: command.options.filter((o) => !o.hidden).map(flagOf),
    ...(first?.argChoices ? { argumentChoices: [...first.argChoices] } : {}),
    children: command.commands.filter(visible).map(describeTree),
  };
}

export function flagWords(flags: FlagSpec[]): string[] {
  return flags.flatMap((f) => [f.short, f.long].filter((w): w is string => w !== undefined));
}

/** Every flag anywhere that takes a value: its next word is not a resource or verb. */
export function valueFlags(tree: CommandSpec): string[] {
  const words = new Set<string>();
  const walk = (node: CommandSpec) => {
    for (const f of node.flags) if (f.takesValue) for (const w of flagWords([f])) words.add(w);
    node.children.forEach(walk);
  };
  walk(tree);
  return [...words].sort();
}
