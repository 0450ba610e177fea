// The fields `--json` may name, per CLI resource: the keys of the record its description names
// (src/api/descriptions). Loaded only when --json or --jq is given, and then only that resource's
// description.
import { CATALOG, descriptionOf, RESOURCE_KEYS, type ResourceIdentity } from '../../api/descriptions/catalog.js';

/** Records the CLI shapes itself (not API records): their fields are listed by their command. */
const OWN: Record<string, readonly string[]> = {
  permissions: ['group', 'name'],
};

export async function recordFields(resource: string): Promise<readonly string[]> {
  const own = OWN[resource];
  if (own) return own;
  const key = RESOURCE_KEYS.find((candidate) => (CATALOG[candidate] as ResourceIdentity).cli === resource);
  const record = key === undefined ? undefined : (await descriptionOf(key)).record;
  if (!record) throw new Error(`no record fields known for "${resource}"`);
  return Object.keys(record.shape);
}
