// The command tree reduced to what a completion script needs: words, flags, descriptions.
import type { Command, Option } from 'commander';
import { argumentLive, FLAG_LIVE, FLAG_VALUES } from './values.js';

export interface FlagSpec {
  short?: string;
  long?: string;
  description: string;
  takesValue: boolean;
  /** Fixed values (commander choices or an enum of the contract). */
  choices?: string[];
  /** Kind of live values `wsm __complete` lists (`profiles`, `ids groups`, ...). */
  live?: string;
}

export interface CommandSpec {
  name: string;
  description: string;
  flags: FlagSpec[];
  /** Choices of the first argument (e.g. the shell of `completion`), when fixed. */
  argumentChoices?: string[];
  /** Kind of live values the first argument takes (`ids contacts` for `contacts get`). */
  argumentLive?: string;
  children: CommandSpec[];
}

function flagOf(option: Option): FlagSpec {
  const spec: FlagSpec = { description: option.description, takesValue: option.required || option.optional };
  if (option.short) spec.short = option.short;
  if (option.long) spec.long = option.long;
  const name = option.long ?? option.short ?? '';
  const fixed = option.argChoices ?? FLAG_VALUES[name];
  if (spec.takesValue && fixed) spec.choices = [...fixed];
  const live = FLAG_LIVE[name] ?? (option.short ? FLAG_LIVE[option.short] : undefined);
  if (spec.takesValue && live) spec.live = live;
  return spec;
}

function visible(command: Command): boolean {
  return !(command as unknown as { _hidden?: boolean })._hidden && command.name() !== 'help';
}

export function describeTree(command: Command): CommandSpec {
  const first = command.registeredArguments[0];
  const live = first && command.parent?.parent ? argumentLive(command.parent.name(), command.name()) : undefined;
  return {
    name: command.name(),
    description: command.description(),
    flags: command.options.filter((o) => !o.hidden).map(flagOf),
    ...(first?.argChoices ? { argumentChoices: [...first.argChoices] } : {}),
    ...(live ? { argumentLive: live } : {}),
    children: command.commands.filter(visible).map(describeTree),
  };
}

/** Every flag in the tree with fixed or live values, once per flag word. */
export function valuedFlags(tree: CommandSpec): FlagSpec[] {
  const byWord = new Map<string, FlagSpec>();
  const walk = (node: CommandSpec) => {
    for (const f of node.flags) {
      if (!f.choices && !f.live) continue;
      for (const w of flagWords([f])) if (!byWord.has(w)) byWord.set(w, f);
    }
    node.children.forEach(walk);
  };
  walk(tree);
  return [...new Set(byWord.values())];
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
