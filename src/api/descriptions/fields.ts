// Custom contact fields: the published API lists, creates and deletes them; reading one and renaming are ours.
import * as s from '../schemas/fields.js';
import { plainCollection } from './crud.js';

export const fields = plainCollection(
  'fields',
  { record: s.fieldRecord, query: s.fieldListQuery, create: s.fieldCreateBody, update: s.fieldUpdateBody },
  {
    unique: 'name',
    // decisions.md §4 has no contact_fields.update: renaming a field needs the right to create one.
    permissions: { update: 'contact_fields.create' },
    extensions: ['get', 'update'],
    instead: { get: 'find it in `wsm fields list`', update: 'delete the field and create it under the new name' },
  },
);
