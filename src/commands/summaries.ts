// One line per resource for `wsm --help`: the only text start-up needs from the resource files,
// so the top-level help never loads them (see index.ts).
export const SUMMARIES = {
  auth: 'log in to a server and check the saved credentials',
  profile: 'list, switch and edit saved profiles',
  serve: 'run the embedded API server on SQLite (saves the `local` profile so wsm works next); -w sets the id of the workspace seeded into an empty database',
  workspace: 'the workspace in use, or a new one',
  permissions: 'workspace permissions and the partner defaults',
  contacts: 'list, create, update, import and export contacts',
  groups: 'contact groups',
  fields: 'custom contact fields (lowercase letters and underscores)',
  imports: 'contact imports: upload CSV files and follow their progress',
  labels: 'labels that categorise contacts',
  roles: 'roles: the permissions a member has in the workspace',
  users: 'users of the workspace',
  templates: 'message templates: create, validate offline, sync approval statuses',
  api: 'call any endpoint and print the JSON answer ({workspace} in the path is the current workspace)',
  completion: 'print a shell completion script',
} as const;
