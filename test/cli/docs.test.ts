// The docs cannot drift from --help: every `wsm …` command line in README.md and
// docs/*.md (in code blocks and in inline code) must name a real command and real flags, as the
// CLI's own command tree declares them (the tree `wsm completion` prints: every resource, in full).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command, Option } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { createTestIO } from '../../src/cli/io.js';
import { DOC_PAGES, REPO_ROOT } from './helpers.js';

interface CommandLine {
  page: string;
  line: number;
  /** The words after `wsm`, up to the end of the shell command. */
  words: string[];
}

/** Shell words (quotes kept together, then taken off), up to a comment or the end of the span. */
function shellWords(text: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of text.matchAll(pattern)) {
    const word = match[3];
    if (word?.startsWith('#')) break;
    words.push(match[1] ?? match[2] ?? word!);
  }
  return words;
}

/** A word that ends the wsm command: a pipe, a redirection, a list operator. */
const SHELL_END = /^(\||\|\||&&|;|>|>>|<|2>&1|\)|\]|`)$/;

/** Every `wsm …` of a page: in fenced code (after a line start, `npx`, `|`, `$(`, `run:`) and in inline code spans. */
function commandLines(page: string): CommandLine[] {
  const found: CommandLine[] = [];
  let fenced = false;
  readFileSync(join(REPO_ROOT, page), 'utf8')
    .split('\n')
    .forEach((text, index) => {
      if (text.trimStart().startsWith('```')) {
        fenced = !fenced;
        return;
      }
      const spans = fenced ? [text.replace(/`/g, ' ` ')] : [...text.matchAll(/(?<!`)`([^`]+)`(?!`)/g)].map((m) => m[1]);
      for (const span of spans) {
        for (const match of span.matchAll(/(?:^|[\s($|;&])wsm\s+(.*)$/g)) {
          const words = shellWords(match[1]);
          const end = words.findIndex((w) => SHELL_END.test(w));
          found.push({ page, line: index + 1, words: end < 0 ? words : words.slice(0, end) });
        }
      }
    });
  return found;
}

/** A placeholder where a command or verb would be (`wsm <resource> <verb>`): nothing to check. */
const isPlaceholder = (word: string) => /^[<[…]/.test(word);

function optionNamed(options: readonly Option[], word: string): Option | undefined {
  const name = word.split('=')[0].replace(/^\[/, '');
  return options.find(
    (o) => o.long === name || o.short === name || (o.negate && o.long === name) || (o.long && name === `--no-${o.long.slice(2)}`),
  );
}

/** What is wrong with a command line against the tree; undefined when it is a real command with real flags. */
function problemOf(program: Command, words: string[]): string | undefined {
  const scopes: Command[] = [program];
  let command: Command = program;
  const named = () =>
    [
      'wsm',
      ...scopes
        .slice(0, -1)
        .reverse()
        .map((c) => c.name()),
    ].join(' ');
  for (let i = 0; i < words.length; i++) {
    const word = words[i].replace(/^\[/, '').replace(/\]$/, '');
    if (word.startsWith('-') && word.length > 1) {
      if (['--help', '-h'].includes(word)) continue;
      const option = scopes.map((scope) => optionNamed(scope.options, word)).find(Boolean);
      if (!option) return `${named()} has no flag ${word.split('=')[0]}`;
      const takesValue = option.required || (option.optional && i + 1 < words.length && !words[i + 1].startsWith('-'));
      if (takesValue && !word.includes('=')) i += 1;
      continue;
    }
    const subcommands = command.commands.filter((c) => c.name() !== 'help');
    if (subcommands.length === 0) continue; // an argument
    if (isPlaceholder(word)) return undefined;
    if (command === program && word === 'help') continue;
    const next = subcommands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) return `${named()} has no command "${word}"`;
    command = next;
    scopes.unshift(next);
  }
  return undefined;
}

let program: Command;
beforeAll(async () => {
  // The completion scripts' own command declares every resource in full, and itself (hidden).
  program = await buildProgram({ io: createTestIO() }, ['__complete']);
});

describe('every wsm command line in the docs is a real command with real flags', () => {
  it('README.md and docs/*.md', () => {
    const lines = DOC_PAGES.flatMap(commandLines);
    // Enough to mean something: the tour, every command page, the CI examples.
    expect(lines.length).toBeGreaterThan(150);
    const problems = lines.flatMap(({ page, line, words }) => {
      const problem = problemOf(program, words);
      return problem ? [`${page}:${line}: ${problem} (wsm ${words.join(' ')})`] : [];
    });
    expect(problems).toEqual([]);
  });

  it('the check itself catches a wrong command, verb or flag, at any level', () => {
    const check = (line: string) => problemOf(program, shellWords(line));
    expect(check('contcts list')).toBe('wsm has no command "contcts"');
    expect(check('contacts lsit')).toBe('wsm contacts has no command "lsit"');
    expect(check('contacts list --serch ann')).toBe('wsm contacts list has no flag --serch');
    expect(check('-o json contacts list --search ann --all')).toBeUndefined();
    expect(check('--colour contacts list')).toBe('wsm has no flag --colour');
    expect(check('templates validate --strict welcome.yaml')).toBeUndefined();
    expect(check('serve [--host 127.0.0.1] [--db <file>|:memory:] [--api-only]')).toBeUndefined();
    expect(check('diff -f workspace.yaml --prunne')).toBe('wsm diff has no flag --prunne');
  });
});
