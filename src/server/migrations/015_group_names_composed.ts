/**
 * Contact group names are matched and stored composed (NFC), as contact text is (migration 009):
 * `Café` written with `e` and a combining accent names the group written with `é`. Names stored
 * before are composed here, each where its workspace has no group of the composed name yet; where
 * it has one (two groups that only look alike), both stay as they are, for their owner to merge.
 */
import type { Db } from '../db.js';
import { nfc } from '../../api/schemas/common.js';

export function run(db: Db): void {
  // Only a name with a character outside printable ASCII can be written otherwise than composed.
  const names = db
    .prepare<[], { id: number; workspace_id: string; name: string }>(
      "SELECT id, workspace_id, name FROM contact_groups WHERE name GLOB '*[^ -~]*' ORDER BY id",
    )
    .all();
  const taken = db.prepare<[string, string], number>('SELECT id FROM contact_groups WHERE workspace_id = ? AND name = ?').pluck();
  const rename = db.prepare('UPDATE contact_groups SET name = ? WHERE id = ?');
  for (const { id, workspace_id, name } of names) {
    const composed = nfc(name);
    if (composed !== name && taken.get(workspace_id, composed) === undefined) rename.run(composed, id);
  }
}
