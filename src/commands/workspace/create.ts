// `wsm workspace create <name>` (extension): not scoped to a workspace, so none is needed.
import { workspaceCreateBody } from '../../api/schemas/index.js';
import { showWritten } from '../shared/written.js';
import { checkLocal, typedRun, type VerbRun } from '../shared/verb.js';
import type { create } from '../workspace.js';
import { workspaceColumns } from './show.js';

export const run: VerbRun = typedRun<typeof create>(async (ctx, { args }) => {
  checkLocal(workspaceCreateBody, { name: args[0] }, 'workspace');
  const client = await ctx.client();
  await showWritten(ctx, await client.workspaces.create(args[0]), {
    noun: 'workspace',
    columns: workspaceColumns,
    line: (workspace) => `created workspace ${workspace.id}; use it with \`wsm workspace use ${workspace.id}\``,
  });
});
