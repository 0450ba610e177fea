// One line per command for `wsm --help`: the only text start-up needs from the command files, so
// the top-level help never loads them (see index.ts). Every API resource's line comes from its
// identity (src/api/descriptions/catalog.ts, which imports nothing); the others are the CLI's own.
import { CATALOG, type ResourceIdentity } from '../api/descriptions/catalog.js';

type Catalog = typeof CATALOG;
/** The CLI name of every API resource that has a command (`workspace`, `groups`, ...). */
type ResourceCommand = { [K in keyof Catalog]: Catalog[K] extends { cli: infer C extends string } ? C : never }[keyof Catalog];

const OWN = {
  profile: 'list, switch and edit saved profiles',
  serve:
    'run the embedded API server on SQLite (saves the `local` profile, made current if none is); -w sets the id of the workspace seeded into an empty database',
  pull: 'print the workspace as a workspace file (YAML or JSON) for diff and apply',
  diff: 'show what apply would change to make the workspace match a file (exit 2 when it would)',
  apply: 'change the workspace to match a file: create, update, and with --prune delete',
  history: 'the changes wsm made from this machine, each with what it changed and what was there before (list, show, clear)',
  undo: 'take a change of `wsm history` back, shown first as a plan: values set back, created contacts deleted, deleted ones made again',
  mcp: 'serve the workspace to AI agents: a Model Context Protocol server on stdio (--read-only and --tools limit it)',
  api: 'call any endpoint and print the JSON answer ({workspace} in the path is the current workspace)',
  completion: 'print a shell completion script',
  version: 'print the version of wsm and of Node.js',
} as const;

const fromCatalog = Object.fromEntries(
  (Object.values(CATALOG) as ResourceIdentity[]).flatMap((identity) =>
    identity.cli && identity.summary ? [[identity.cli, identity.summary]] : [],
  ),
) as Record<ResourceCommand, string>;

export const SUMMARIES: Record<ResourceCommand | keyof typeof OWN, string> = { ...fromCatalog, ...OWN };
