/**
 * Every repository of one database, made once per app (buildApp decorates it as `app.repositories`).
 * `collections` holds the records of every plain collection the routes serve alike
 * (routes/workspace-records.ts): groups and fields, whose repositories add their own reads, and
 * every other one the catalog names (labels) on the table its description names (collection.ts),
 * so adding such a resource needs no line here. Roles, a plain collection with rules of its own on
 * the server, have their repository.
 */
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import type { Db } from '../db.js';
import { collectionTable, createCollectionRecords, type CollectionRecords } from './collection.js';
import { createContactsRepository } from './contacts.js';
import { createFieldsRepository } from './fields.js';
import { createFilesRepository } from './files.js';
import { generationsOf } from './generations.js';
import { createGroupsRepository } from './groups.js';
import { createImportsRepository } from './imports.js';
import { createMembersRepository } from './members.js';
import { createOutboxRepository } from './outbox.js';
import { createRolesRepository } from './roles.js';
import { createSearchIndex } from './search-index.js';
import { createTemplatesRepository } from './templates.js';
import { createUsersRepository } from './users.js';
import { createWorkspacesRepository } from './workspaces.js';

function ownRepositories(db: Db) {
  // One search index for the contacts' writes and the worker that catches it up.
  const searchIndex = createSearchIndex(db);
  return {
    contacts: createContactsRepository(db, searchIndex),
    fields: createFieldsRepository(db),
    files: createFilesRepository(db),
    generations: generationsOf(db),
    groups: createGroupsRepository(db),
    imports: createImportsRepository(db),
    members: createMembersRepository(db),
    outbox: createOutboxRepository(db),
    roles: createRolesRepository(db),
    searchIndex,
    templates: createTemplatesRepository(db),
    users: createUsersRepository(db),
    workspaces: createWorkspacesRepository(db),
  };
}

export function createRepositories(db: Db) {
  const own = ownRepositories(db);
  const collections: Record<string, CollectionRecords> = { groups: own.groups, fields: own.fields };
  for (const description of Object.values(DESCRIPTIONS)) {
    if (!description.collection || description.key in own) continue;
    const table = collectionTable(description);
    if (!table)
      throw new TypeError(
        `${description.key} is a plain collection in the catalog, but its description has no record, five operations or stated unique field (unique)`,
      );
    collections[description.key] = createCollectionRecords(db, table);
  }
  return { ...own, collections: collections as Readonly<Record<string, CollectionRecords>> };
}

export type Repositories = ReturnType<typeof createRepositories>;
