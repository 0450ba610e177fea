// The commands wsm suggests (`run \`wsm imports get 8 --wait\``, `\`wsm apply -f ws.yaml\` makes
// it`) must act on what the suggesting command acted on: run as printed, a suggestion that drops
// `-w <staging>` applies a file to the profile's own workspace, often production. So every
// message names its commands in backticks, and the two places that print messages (handleError
// and Output's stderr lines) pass their text through `withTarget`, which adds the --profile,
// --base-url and -w the user typed to each `wsm …` in it. The environment needs nothing: it is
// still set in the shell that runs the suggestion. A token never goes into a suggestion.
import type { GlobalOptions } from './context.js';

/** The target flags as typed on the command line. */
export type Target = Pick<GlobalOptions, 'profile' | 'baseUrl' | 'workspace'>;

type Flag = 'profile' | 'baseUrl' | 'workspace';

const FLAG_WORDS: Record<Flag, { name: string; spellings: string[] }> = {
  profile: { name: '--profile', spellings: ['--profile'] },
  baseUrl: { name: '--base-url', spellings: ['--base-url'] },
  workspace: { name: '-w', spellings: ['-w', '--workspace'] },
};

/**
 * Which target flags a suggested command takes, by its first words: the server and the profile
 * stand apart from any connection; `profile set` writes the profile --profile names (the other
 * profile verbs name theirs as an argument); `workspace
 * use|create` choose the workspace themselves, so a -w would contradict them.
 */
function flagsFor(words: string[]): Flag[] {
  const [first, second] = words;
  if (['serve', 'completion', 'version', 'help'].includes(first)) return [];
  if (first === 'profile') return second === 'set' ? ['profile'] : [];
  if (first === 'workspace' && (second === 'use' || second === 'create')) return ['profile', 'baseUrl'];
  return ['profile', 'baseUrl', 'workspace'];
}

/** Words that end the wsm command in a shell line (`wsm … < token.txt`, `… | wsm …`). */
const SHELL_OPERATOR = /^(<|>|>>|\||&&|\|\||;)$/;

/** `wsm <words>` with the target flags it takes and does not already name, before any redirection. */
export function targetCommand(target: Target, command: string): string {
  const words = command.trim().split(/\s+/);
  if (words[0] !== 'wsm') return command;
  const end = words.findIndex((word, i) => i > 0 && SHELL_OPERATOR.test(word));
  const own = end < 0 ? words.slice(1) : words.slice(1, end);
  const added: string[] = [];
  for (const flag of flagsFor(own)) {
    const value = target[flag];
    if (!value || own.some((word) => FLAG_WORDS[flag].spellings.some((s) => word === s || word.startsWith(`${s}=`)))) continue;
    added.push(FLAG_WORDS[flag].name, shellWord(value));
  }
  if (added.length === 0) return command;
  const rest = end < 0 ? [] : words.slice(end);
  return ['wsm', ...own, ...added, ...rest].join(' ');
}

/** Every backticked `wsm …` in `text`, with the target flags it takes. */
export function withTarget(text: string, target: Target | undefined): string {
  if (!target || (!target.profile && !target.baseUrl && !target.workspace)) return text;
  return text.replace(/`(wsm [^`]*)`/g, (_, command: string) => `\`${targetCommand(target, command)}\``);
}

/** A word a shell reads back as it is: quoted when it holds anything but plain characters. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}
