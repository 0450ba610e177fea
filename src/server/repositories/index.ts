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
import { createTemplatesRepository } from './templates.js';
import { createUsersRepository } from './users.js';
import { createWorkspacesRepository } from './workspaces.js';

export function createRepositories(db: Db) {
  return {
    contacts: createContactsRepository(db),
    fields: createFieldsRepository(db),
    files: createFilesRepository(db),
    groups: createGroupsRepository(db),
    imports: createImportsRepository(db),
    labels: createLabelsRepository(db),
    members: createMembersRepository(db),
    outbox: createOutboxRepository(db),
    roles: createRolesRepository(db),
    templates: createTemplatesRepository(db),
    users: createUsersRepository(db),
    workspaces: createWorkspacesRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
