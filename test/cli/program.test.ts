import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { lazy, readGlobals, setContextFactory } from '../../src/cli/action.js';
import { createContext } from '../../src/cli/context.js';
import { createTestIO } from '../../src/cli/io.js';
import { globals, runCli, scriptedPrompter, tempDir } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

describe('usage errors exit 2 and print one line', () => {
  it.each([
    [['frobnicate'], /error: unknown command 'frobnicate'/],
    [['profile', 'list', '--frob'], /error: unknown option '--frob'/],
    [['profile', 'list', '-o', 'xml'], /^error: --output takes one of table, json, ndjson, csv, xlsx, got "xml"\n$/],
    [['profile', 'use'], /error: missing required argument 'name'/],
    [['profile', 'use', 'a', 'b'], /error: too many arguments/],
    [['profile', 'list', '--profile'], /^error: --profile needs a value\n$/],
  ])('wsm %j', async (argv, message) => {
    const { code, stderr, stdout } = await runCli(argv, { configDir: dir });
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
  });

  it('a resource without a verb shows its help on stderr, exit 2', async () => {
    const { code, stderr } = await runCli(['profile'], { configDir: dir });
    expect(code).toBe(2);
    expect(stderr).toContain('Usage: wsm profile');
  });
});

describe('help and version', () => {
  it('--help lists the resources and global flags on stdout, exit 0', async () => {
    const { code, stdout, stderr } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    for (const text of ['auth', 'profile', '--base-url <url>', '-o, --output <format>', '--no-color', '-y, --yes']) {
      expect(stdout).toContain(text);
    }
  });

  it('every verb help has an Examples section and shows the global flags', async () => {
    for (const verb of [
      ['auth', 'login'],
      ['auth', 'status'],
      ['auth', 'logout'],
      ['profile', 'list'],
      ['profile', 'use'],
      ['profile', 'show'],
      ['profile', 'set'],
    ]) {
      const { code, stdout } = await runCli([...verb, '--help']);
      expect(code).toBe(0);
      expect(stdout).toContain('Examples:\n  $ wsm ' + verb.join(' '));
      expect(stdout).toContain('Global Options:');
    }
  });

  it('--version prints the package version', async () => {
    const { code, stdout } = await runCli(['--version']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe('global flags', () => {
  it('are accepted before and after the subcommand', async () => {
    await runCli(['profile', 'set', 'base-url', 'http://a/api/v3', '--profile', 'a'], { configDir: dir });
    const before = await runCli(['-o', 'json', '--profile', 'a', 'profile', 'show'], { configDir: dir });
    const middle = await runCli(['profile', '--output=json', 'show', '--profile=a'], { configDir: dir });
    const after = await runCli(['profile', 'show', '-o', 'json', '--profile', 'a'], { configDir: dir });
    for (const run of [before, middle, after]) {
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ name: 'a', base_url: 'http://a/api/v3' });
    }
  });

  it('reach the verb through ctx.globals, and verb options through opts', async () => {
    const program = new Command('t')
      .exitOverride()
      .option('-o, --output <f>', '', 'table')
      .option('-q, --quiet')
      .option('-w, --workspace <id>');
    const seen: unknown[] = [];
    setContextFactory(program, async (g) => ({ globals: g }) as never);
    program
      .command('x')
      .argument('<a>')
      .argument('[rest...]')
      .option('--flag <v>')
      .action(
        lazy(async () => ({ parse: (input) => input, run: async (ctx, input) => void seen.push(ctx.globals, input), render: () => {} })),
      );
    await program.parseAsync(['x', 'one', '--flag', 'F', 'two', '-q', 'three', '-w', 'W', '-o', 'table'], { from: 'user' });
    expect(seen[0]).toMatchObject({ output: 'table', quiet: true, workspace: 'W' });
    expect(seen[1]).toEqual({ args: ['one', 'two', 'three'], opts: { flag: 'F' } });
  });

  it('readGlobals fills defaults', () => {
    const program = new Command('t').option('--no-color');
    program.parse([], { from: 'user' });
    expect(readGlobals(program)).toEqual({
      output: 'table',
      color: true,
      quiet: false,
      verbose: false,
      yes: false,
      profile: undefined,
      baseUrl: undefined,
      token: undefined,
      workspace: undefined,
    });
  });
});

describe('confirm', () => {
  const deps = (stdinTTY: boolean, prompter = scriptedPrompter({})) => ({
    io: createTestIO({ stdinTTY }),
    env: {},
    now: () => new Date(),
    configDir: dir,
    prompter,
  });

  it('without a terminal and without --yes fails with exit 2 and says to pass --yes', async () => {
    const ctx = createContext(deps(false), globals());
    await expect(ctx.confirm('Delete contact 7?', 'deleting contact 7')).rejects.toMatchObject({
      exitCode: 2,
      message: 'deleting contact 7 needs --yes when not on a terminal',
    });
  });

  it('--yes skips the question, on a terminal or not', async () => {
    const prompter = scriptedPrompter({});
    await createContext(deps(false, prompter), globals({ yes: true })).confirm('Delete?', 'deleting');
    await createContext(deps(true, prompter), globals({ yes: true })).confirm('Delete?', 'deleting');
    expect(prompter.asked).toEqual([]);
  });

  it('on a terminal asks; "no" cancels with exit 2', async () => {
    const yes = scriptedPrompter({ confirm: [true] });
    await createContext(deps(true, yes), globals()).confirm('Delete contact 7?', 'deleting contact 7');
    expect(yes.asked).toEqual(['Delete contact 7?']);
    const no = scriptedPrompter({ confirm: [false] });
    await expect(createContext(deps(true, no), globals()).confirm('Delete?', 'deleting')).rejects.toMatchObject({
      name: 'CancelledError',
      exitCode: 2,
    });
  });
});

describe('workspace()', () => {
  const ctxWith = (g: Parameters<typeof globals>[0], env: Record<string, string> = {}) =>
    createContext({ io: createTestIO(), env, now: () => new Date(), configDir: dir }, globals(g));

  const LOGGED_IN = { WSM_BASE_URL: 'http://127.0.0.1:9/api/v3', WSM_TOKEN: 't' };

  it('returns the -w / WSM_WORKSPACE UUID', async () => {
    const uuid = '9b2f0c4e-5d7a-4c1e-9a8b-2f3e4d5c6b7a';
    expect(await ctxWith({ workspace: uuid }, LOGGED_IN).workspace()).toBe(uuid);
    expect(await ctxWith({}, { ...LOGGED_IN, WSM_WORKSPACE: uuid }).workspace()).toBe(uuid);
  });

  it('fails with exit 2 when missing or not a UUID', async () => {
    await expect(ctxWith({}, LOGGED_IN).workspace()).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('no workspace'),
    });
    await expect(ctxWith({ workspace: 'abc' }, LOGGED_IN).workspace()).rejects.toMatchObject({ exitCode: 2 });
  });

  it('not logged in comes before no workspace', async () => {
    await expect(ctxWith({}).workspace()).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('not logged in') });
  });

  it('client() without base URL or token says how to log in (exit 2)', async () => {
    await expect(ctxWith({}).client()).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('wsm auth login') });
  });
});
