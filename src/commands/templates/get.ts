// `wsm templates get <id>`
import type { Template } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';
import type { CommandLine } from '../declare.js';
import { parseId, workspaceClient } from '../shared/verb.js';
import { templateDetailColumns } from './show.js';

export function parse({ args }: CommandLine): number {
  return parseId(args[0], 'template id');
}

export async function run(ctx: Context, id: number): Promise<Template> {
  const client = await workspaceClient(ctx);
  return (await client.templates.get(id)).data;
}

export function render(ctx: Context, template: Template): Promise<void> {
  return ctx.output.record(template, { columns: templateDetailColumns });
}
