// `wsm version`: the version of wsm and of the Node.js running it (`wsm --version` prints wsm's alone).
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb } from './declare.js';

export function registerVersion(program: Command): void {
  // A leaf: `wsm version` itself is the verb.
  addVerb(program, {
    name: 'version',
    description: SUMMARIES.version,
    examples: ['wsm version', 'wsm version -o json'],
    load: async () => ({
      parse: () => undefined,
      run: async () => {
        const { packageVersion } = await import('../cli/version.js');
        return { version: packageVersion(), node: process.versions.node };
      },
      render: async (ctx, info: { version: string; node: string }) => {
        if (ctx.output.structured) await ctx.output.record(info);
        else ctx.output.text(`wsm ${info.version} (Node.js ${info.node})\n`);
      },
    }),
  });
}
