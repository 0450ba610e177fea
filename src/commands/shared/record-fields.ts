// The fields `--json` may name, per resource: the keys of the record the contract describes
// (src/api/schemas). Loaded only when --json or --jq is given.
import {
  contactRecord,
  fieldRecord,
  groupRecord,
  importRecord,
  labelRecord,
  roleRecord,
  templateRecord,
  userRecord,
  workspaceRecord,
} from '../../api/schemas/index.js';

const RECORDS: Record<string, { shape: object }> = {
  contacts: contactRecord,
  fields: fieldRecord,
  groups: groupRecord,
  imports: importRecord,
  labels: labelRecord,
  roles: roleRecord,
  templates: templateRecord,
  users: userRecord,
  workspace: workspaceRecord,
};

/** Records the CLI shapes itself (not API records): their fields are listed by their command. */
const OWN: Record<string, readonly string[]> = {
  permissions: ['group', 'name'],
};

export function recordFields(resource: string): readonly string[] {
  const own = OWN[resource];
  if (own) return own;
  const record = RECORDS[resource];
  if (!record) throw new Error(`no record fields known for "${resource}"`);
  return Object.keys(record.shape);
}
