// Every `delete <id>` verb: parse the id, confirm (a terminal asks; otherwise --yes is needed),
// delete, then say so. Data on stdout only for -o json/ndjson (the server's answer) and -q (the id).
import type { WsmClient } from '../../api/client.js';
import { parseId, verb, workspaceClient, type VerbRun } from './verb.js';

export function deleteRun(noun: string, remove: (client: WsmClient, id: number) => Promise<unknown>): VerbRun {
  return verb(async (ctx, { args }) => {
    const id = parseId(args[0]);
    const client = await workspaceClient(ctx);
    await ctx.confirm(`Delete ${noun} ${id}?`);
    const answer = await remove(client, id);
    const { format, quiet } = ctx.output;
    if (quiet) ctx.io.out(`${id}\n`);
    else if (format === 'json') ctx.io.out(JSON.stringify(answer ?? { id }, null, 2) + '\n');
    else if (format === 'ndjson') ctx.io.out(JSON.stringify(answer ?? { id }) + '\n');
    ctx.output.message(`Deleted ${noun} ${id}.`);
  });
}
