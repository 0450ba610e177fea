// Custom contact fields: api.md lists, creates and deletes them; reading one and renaming are ours.
import * as s from '../schemas/index.js';
import { CATALOG } from './catalog.js';
import { collectionOperations } from './crud.js';
import { describe } from './types.js';

export const fields = describe('fields', CATALOG.fields, { record: s.fieldRecord }, collectionOperations({
  identity: CATALOG.fields,
  // decisions.md §4 has no contact_fields.update: renaming a field needs the right to create one.
  permissions: { group: 'contact_fields', update: 'contact_fields.create' },
  schemas: {
    query: s.fieldListQuery,
    list: s.fieldListResponse,
    one: s.fieldResponse,
    create: s.fieldCreateBody,
    created: s.fieldCreatedResponse,
    update: s.fieldUpdateBody,
    updated: s.fieldUpdatedResponse,
    deleted: s.deleted,
  },
  extensions: ['get', 'update'],
  instead: { get: 'find it in `wsm fields list`', update: 'delete the field and create it under the new name' },
}));
