// The workspace's contact fields by name, for the commands that check a file's columns against
// them before anything is sent (`contacts import`, `contacts update --from`).
import { AuthenticationError } from '../../api/errors.js';
import type { WsmClient } from '../../api/client.js';
import type { Context } from '../../cli/context.js';
import type { FieldIds } from '../../cli/csv-check.js';

/**
 * The fields by lowercase name, or undefined when they cannot be read (a role without the
 * permission, a server without them): `say` warns that their columns are left to the server.
 */
export async function fieldIdsOf(ctx: Context, client: WsmClient, say: boolean): Promise<FieldIds | undefined> {
  try {
    const ids: FieldIds = new Map();
    for await (const field of client.fields.list()) ids.set(String(field.name).toLowerCase(), Number(field.id));
    return ids;
  } catch (error) {
    // A token the server refuses fails here as it fails every other command (exit 3).
    if (error instanceof AuthenticationError) throw error;
    if (say) ctx.output.warn(`contact field columns are left to the server: the fields could not be read (${(error as Error).message})`);
    return undefined;
  }
}
