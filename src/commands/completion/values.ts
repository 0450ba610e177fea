// What the completion scripts offer as values: fixed lists for enum flags (the resources'
// descriptions name theirs), and kinds of live values that the scripts ask `wsm __complete <kind>` for.
import { CATALOG, DESCRIPTIONS, type ResourceDescription, type ResourceIdentity } from '../../api/descriptions/index.js';

/** Enum flags anywhere in the tree: their values are fixed. */
export const FLAG_VALUES: Record<string, readonly string[]> = {
  ...Object.assign({}, ...Object.values(DESCRIPTIONS).map((d: ResourceDescription) => d.completion ?? {})),
  '--provider-fault': ['unavailable', 'credentials', 'timeout'],
};

/** Flags whose values live in the config or on the server: `wsm __complete <kind>` lists them. */
export const FLAG_LIVE: Record<string, string> = {
  '--profile': 'profiles',
  '-w': 'workspaces',
  '--workspace': 'workspaces',
  '--permission': 'permissions',
  '--group': 'ids groups',
  '--add-group': 'ids groups',
  '--remove-group': 'ids groups',
  '--role': 'ids roles',
};

/** Resources whose `get`, `update` and `delete` take an id of the current workspace. */
export const ID_RESOURCES: readonly string[] = Object.values(CATALOG).flatMap((r: ResourceIdentity) =>
  r.cli !== undefined && r.idParam !== undefined ? [r.cli] : [],
);

/** The live values a verb's first argument takes, if any. */
export function argumentLive(resource: string, verb: string): string | undefined {
  if (resource === 'profile' && (verb === 'use' || verb === 'show')) return 'profiles';
  if (resource === 'workspace' && verb === 'use') return 'workspaces';
  if (resource === 'permissions' && verb === 'set') return 'permissions';
  if (ID_RESOURCES.includes(resource) && ['get', 'update', 'delete'].includes(verb)) return `ids ${resource}`;
  return undefined;
}
