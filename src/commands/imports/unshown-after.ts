// After `--wait`, on a server whose contacts do not show groups or custom fields (the plan did not
// promise them: contacts/plan-unshown.ts), what the published API can show of the file's such
// cells is checked and said: the groups the file named that the import did not create (one read of
// the group list), and the custom fields as `contacts update --field` says them there. A warning,
// exit 0: the plan promised neither.
import type { WsmClient } from '../../api/client.js';
import { nfc } from '../../api/schemas/common.js';
import type { Context } from '../../cli/context.js';
import { sentenceIn } from '../../cli/error-report.js';
import type { CheckedRow, CheckOptions } from '../../cli/csv-check.js';
import { unkeptFieldsSentence } from '../contacts/body.js';
import { shownByFirst } from '../contacts/plan-unshown.js';
import { countText } from '../../cli/text.js';
import { quotedNames } from './check-report.js';

/** Group names noted at most: past them a hostile file's millions of names are not held, and the check says so. */
const GROUPS_NOTED = 10_000;

/** The groups and custom fields a file's valid rows send, noted as the check reads them. */
export class SentColumns {
  readonly groups = new Set<string>();
  readonly fields = new Set<string>();
  /** More group names were sent than were noted. */
  groupsPast = false;

  /** `options` with each row noted as it is checked, after the row's own `onRow`. */
  noting(options: CheckOptions): CheckOptions {
    const onRow = options.onRow;
    return {
      ...options,
      onRow: (row: CheckedRow) => {
        onRow?.(row);
        for (const name of row.value?.contact_groups ?? []) {
          if (this.groups.size < GROUPS_NOTED) this.groups.add(name);
          else if (!this.groups.has(name)) this.groupsPast = true;
        }
        for (const name of Object.keys(row.value?.fields ?? {})) this.fields.add(name);
      },
    };
  }
}

/** After a finished import: the groups it did not create and the fields not kept, where the server's contacts show neither. */
export async function sayUnshownAfterImport(
  ctx: Context,
  client: WsmClient,
  file: string,
  importId: unknown,
  sent: SentColumns,
  signal?: AbortSignal,
): Promise<void> {
  if (sent.groups.size === 0 && sent.fields.size === 0) return;
  try {
    const shown = await shownByFirst(client, signal);
    if (!shown.contact_groups && sent.groups.size > 0) {
      // Composed as the file's names are read (NFC): a server that stores a name decomposed has the group all the same.
      const names = new Set<string>();
      for await (const group of client.groups.list({}, { signal })) names.add(nfc(String(group.name)));
      const missing = [...sent.groups].filter((name) => !names.has(name));
      if (missing.length > 0) ctx.output.warn(groupsNotCreated(file, importId, missing));
      if (sent.groupsPast)
        ctx.output.warn(`${file} names more than ${countText(GROUPS_NOTED)} contact groups: only the first were checked`);
    }
    if (!shown.fields && sent.fields.size > 0) ctx.output.warn(unkeptFieldsSentence([...sent.fields]));
  } catch (error) {
    if (signal?.aborted) throw error;
    ctx.output.warn(`the groups and custom fields of ${file} were not checked after the import: ${sentenceIn(ctx, error)}`);
  }
}

/** `import 5 did not create the contact group "VIP" named in people.csv: …`. */
function groupsNotCreated(file: string, importId: unknown, missing: string[]): string {
  const groups = `contact group${missing.length === 1 ? '' : 's'} ${quotedNames(missing.map((name) => JSON.stringify(name).slice(1, -1)))}`;
  return (
    `import ${String(importId)} did not create the ${groups} named in ${file}: this server's contacts do not show groups, ` +
    'and its import does not create them (`wsm groups create` makes one)'
  );
}
