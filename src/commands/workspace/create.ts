// `wsm workspace create <name>` (extension): not scoped to a workspace, so none is needed.
import type { Written } from '../../api/answers.js';
import type { Workspace } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import type { CommandLine } from '../declare.js';
import { sendingClient } from '../shared/sending-client.js';
import { showWritten } from '../shared/written.js';
import { workspaceColumns } from './show.js';

/** The new workspace's name. */
export function parse({ args }: CommandLine): string {
  return args[0];
}

/** The client checks the name before anything is sent. */
export async function run(ctx: Context, name: string): Promise<Written<Workspace>> {
  const client = await sendingClient(ctx, 'account');
  return client.workspaces.create(name);
}

export async function render(ctx: Context, answer: Written<Workspace>): Promise<void> {
  await showWritten(ctx, answer, {
    noun: 'workspace',
    columns: workspaceColumns,
    line: (workspace) => `created workspace ${workspace.id}; use it with \`wsm workspace use ${workspace.id}\``,
  });
}
