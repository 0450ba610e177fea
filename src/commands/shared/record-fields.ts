// The fields `--json` may name, per CLI resource: the keys of the record its description names
// (src/api/descriptions). Loaded only when --json or --jq is given.
import { describedByCli } from '../../api/descriptions/index.js';

/** Records the CLI shapes itself (not API records): their fields are listed by their command. */
const OWN: Record<string, readonly string[]> = {
  permissions: ['group', 'name'],
};

export function recordFields(resource: string): readonly string[] {
  const own = OWN[resource];
  if (own) return own;
  const record = describedByCli(resource)?.record;
  if (!record) throw new Error(`no record fields known for "${resource}"`);
  return Object.keys(record.shape);
}
