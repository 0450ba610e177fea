// A verb's declaration is what its run reads: a flag keyed by anything but commander's attribute
// name would be read as undefined, so declaring one fails at once (every declaration is made by
// the tests that build the whole program).
import { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { createTestIO } from '../../src/cli/io.js';
import { addVerb, declarationOf, LIST_FLAGS, verbSpec, type FlagSpec } from '../../src/commands/declare.js';

const load = async () => ({ parse: () => ({}), run: async () => {}, render: () => {} });

describe('verb declarations', () => {
  it('refuse a flag keyed by another name than the one its run reads', () => {
    const spec = verbSpec({
      name: 'list',
      description: 'list',
      examples: [],
      load,
      flags: { per_page: { flags: '--per-page <n>', description: 'rows' } },
    });
    expect(() => addVerb(new Command('things'), spec)).toThrow('flag --per-page <n> is read as "perPage", declared as "per_page"');
  });

  it('declare arguments, then typed flags, in order, with repeatable and required ones', () => {
    const spec = verbSpec({
      name: 'update',
      description: 'update',
      examples: ['wsm things update 1 --tag a --tag b'],
      load,
      args: [['<id>', 'thing id']],
      flags: {
        tag: { flags: '--tag <name>', description: 'tag', repeatable: true },
        name: { flags: '--name <name>', description: 'name', required: true },
        ...LIST_FLAGS,
      },
    });
    const command = addVerb(new Command('things'), spec);
    expect(command.registeredArguments.map((a) => a.name())).toEqual(['id']);
    expect(command.options.map((o) => o.long)).toEqual(['--tag', '--name', '--page', '--per-page', '--all', '--concurrency']);
    command.parseOptions(['--tag', 'a', '--tag', 'b', '--name', 'x']);
    expect(command.opts()).toEqual({ tag: ['a', 'b'], name: 'x' });
  });
});

/**
 * The groups whose every verb is one typed declaration. The others (auth, profile, api, serve,
 * completion, mcp, version, pull/diff/apply, and the collections' list) still add flags outside
 * verbSpec: each joins this list once it does not.
 */
const TYPED_GROUPS = [
  'contacts',
  'imports',
  'templates',
  'users',
  'permissions',
  'workspace',
  'auth',
  'profile',
  'groups',
  'fields',
  'labels',
  'roles',
];

/** A flag's options as commander holds them: the flag, then its `--no-` form where it has one. */
const declaredLongs = (flags: Record<string, FlagSpec>) =>
  Object.values(flags).flatMap((flag) => {
    const long = flag.flags.split(' ')[0];
    return flag.negate !== undefined ? [long, long.replace(/^--/, '--no-')] : [long];
  });

describe('every verb of the typed groups is declared by its verbSpec alone', () => {
  let program: Command;
  beforeAll(async () => {
    // The completion scripts' own command declares every resource in full.
    program = await buildProgram({ io: createTestIO() }, ['__complete']);
  });

  it.each(TYPED_GROUPS)('wsm %s', (group) => {
    const verbs = program.commands.find((c) => c.name() === group)?.commands ?? [];
    expect(verbs.length).toBeGreaterThan(0);
    for (const verb of verbs) {
      const where = `wsm ${group} ${verb.name()}`;
      const spec = declarationOf(verb);
      expect(spec, `${where} is not declared by addVerb`).toBeDefined();
      // `configure` adds arguments and options the run cannot read typed.
      expect(spec!.configure, `${where} adds flags through configure`).toBeUndefined();
      const selection = verb.options.some((o) => o.long === '--json') ? ['--json', '--jq'] : [];
      expect(
        verb.options.map((o) => o.long),
        where,
      ).toEqual([...declaredLongs(spec!.flags ?? {}), ...selection]);
      expect(
        verb.registeredArguments.map((a) => a.name()),
        where,
      ).toEqual((spec!.args ?? []).map(([name]) => name.replace(/^[<[](.*?)(\.\.\.)?[>\]]$/, '$1')));
    }
  });
});
