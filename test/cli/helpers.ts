// Shared harness: run the real CLI in-process with fake IO and a throw-away config directory.
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Dispatcher } from 'undici';
import { main } from '../../src/cli.js';
import type { GlobalOptions } from '../../src/cli/context.js';
import { createTestIO, type TestIO } from '../../src/cli/io.js';
import type { Prompter } from '../../src/cli/prompter.js';

export interface RunOptions {
  stdoutTTY?: boolean;
  stdinTTY?: boolean;
  stderrTTY?: boolean;
  stdin?: string | Buffer;
  /** Terminal width when stdoutTTY. */
  columns?: number;
  env?: Record<string, string | undefined>;
  configDir?: string;
  dispatcher?: Dispatcher;
  prompter?: Prompter;
  /** The IO to run with, when a test must watch it (createTestIO(options) otherwise). */
  io?: TestIO;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  io: TestIO;
}

export async function runCli(argv: string[], options: RunOptions = {}): Promise<RunResult> {
  const io = options.io ?? createTestIO(options);
  const code = await main(argv, {
    io,
    env: options.env ?? {},
    configDir: options.configDir,
    dispatcher: options.dispatcher,
    prompter: options.prompter,
  });
  return { code, stdout: io.stdoutText, stderr: io.stderrText, io };
}

/** A fresh config directory; call the returned cleanup in afterEach. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'wsm-cli-test-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function globals(overrides: Partial<GlobalOptions> = {}): GlobalOptions {
  return { output: 'table', color: true, quiet: false, verbose: false, yes: false, ...overrides };
}

/** A prompter that answers from a script and fails the test on any unexpected question. */
export function scriptedPrompter(answers: {
  input?: string[];
  password?: string[];
  confirm?: boolean[];
  select?: string[];
}): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const next = <T>(queue: T[] | undefined, message: string): T => {
    asked.push(message);
    if (!queue || queue.length === 0) throw new Error(`unexpected prompt: ${message}`);
    return queue.shift() as T;
  };
  return {
    asked,
    input: async (message) => next(answers.input, message),
    password: async (message) => next(answers.password, message),
    confirm: async (message) => next(answers.confirm, message),
    select: async (message, choices) => {
      const answer = next(answers.select, message);
      if (!choices.some((c) => c.value === answer)) throw new Error(`"${answer}" is not offered by: ${message}`);
      return answer;
    },
  };
}

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
/** The pages a user reads: README.md and docs/*.md, relative to the repository root. */
export const DOC_PAGES = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
