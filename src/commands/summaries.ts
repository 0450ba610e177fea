// One line per command for `wsm --help`: the only text start-up needs from the command files, so
// the top-level help never loads them (see index.ts). The API resources' lines come from their
// descriptions' catalog (src/api/descriptions/catalog.ts, which imports nothing); the others are the CLI's own.
import { CATALOG } from '../api/descriptions/catalog.js';

export const SUMMARIES = {
  auth: CATALOG.auth.summary,
  profile: 'list, switch and edit saved profiles',
  serve: 'run the embedded API server on SQLite (saves the `local` profile so wsm works next); -w sets the id of the workspace seeded into an empty database',
  workspace: CATALOG.workspaces.summary,
  permissions: CATALOG.permissions.summary,
  contacts: CATALOG.contacts.summary,
  groups: CATALOG.groups.summary,
  fields: CATALOG.fields.summary,
  imports: CATALOG.imports.summary,
  labels: CATALOG.labels.summary,
  roles: CATALOG.roles.summary,
  users: CATALOG.users.summary,
  templates: CATALOG.templates.summary,
  pull: 'print the workspace as a workspace file (YAML or JSON) for diff and apply',
  diff: 'show what apply would change to make the workspace match a file (exit 2 when it would)',
  apply: 'change the workspace to match a file: create, update, and with --prune delete',
  api: 'call any endpoint and print the JSON answer ({workspace} in the path is the current workspace)',
  completion: 'print a shell completion script',
  version: 'print the version of wsm and of Node.js',
} as const;
