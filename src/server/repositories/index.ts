/** Every repository of one database, made once per app (buildApp decorates it as `app.repositories`). */
import type { Db } from '../db.js';
import { createContactsRepository } from './contacts.js';
import { createFieldsRepository } from './fields.js';
import { createFilesRepository } from './files.js';
import { createGroupsRepository } from './groups.js';
import { createImportsRepository } from './imports.js';
import { createLabelsRepository } from './labels.js';
import { createMembersRepository } from './members.js';
import { createOutboxRepository } from './outbox.js';
import { createRolesRepository } from './roles.js';
import { createSearchIndex } from './search-index.js';
import { createTemplatesRepository } from './templates.js';
import { createUsersRepository } from './users.js';
import { createWorkspacesRepository } from './workspaces.js';

export function createRepositories(db: Db) {
  // One search index for the contacts' writes and the worker that catches it up.
  const searchIndex = createSearchIndex(db);
  return {
    contacts: createContactsRepository(db, searchIndex),
    fields: createFieldsRepository(db),
    files: createFilesRepository(db),
    groups: createGroupsRepository(db),
    imports: createImportsRepository(db),
    labels: createLabelsRepository(db),
    members: createMembersRepository(db),
    outbox: createOutboxRepository(db),
    roles: createRolesRepository(db),
    searchIndex,
    templates: createTemplatesRepository(db),
    users: createUsersRepository(db),
    workspaces: createWorkspacesRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
