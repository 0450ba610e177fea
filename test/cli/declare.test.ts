// A verb's declaration is what its run reads: a flag keyed by anything but commander's attribute
// name would be read as undefined, so declaring one fails at once (every declaration is made by
// the tests that build the whole program).
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addVerb, LIST_FLAGS, verbSpec } from '../../src/commands/declare.js';

const load = async () => ({ run: async () => {} });

describe('verb declarations', () => {
  it('refuse a flag keyed by another name than the one its run reads', () => {
    const spec = verbSpec({ name: 'list', description: 'list', examples: [], load, flags: { per_page: { flags: '--per-page <n>', description: 'rows' } } });
    expect(() => addVerb(new Command('things'), spec)).toThrow('flag --per-page <n> is read as "perPage", declared as "per_page"');
  });

  it('declare arguments, then typed flags, in order, with repeatable and required ones', () => {
    const spec = verbSpec({
      name: 'update',
      description: 'update',
      examples: ['wsm things update 1 --tag a --tag b'],
      load,
      args: [['<id>', 'thing id']],
      flags: { tag: { flags: '--tag <name>', description: 'tag', repeatable: true }, name: { flags: '--name <name>', description: 'name', required: true }, ...LIST_FLAGS },
    });
    const command = addVerb(new Command('things'), spec);
    expect(command.registeredArguments.map((a) => a.name())).toEqual(['id']);
    expect(command.options.map((o) => o.long)).toEqual(['--tag', '--name', '--page', '--per-page', '--all', '--concurrency']);
    command.parseOptions(['--tag', 'a', '--tag', 'b', '--name', 'x']);
    expect(command.opts()).toEqual({ tag: ['a', 'b'], name: 'x' });
  });
});
