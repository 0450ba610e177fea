// Contacts: the published API's list (with search), create, update (POST, JSON or a form) and delete; get one is ours.
import * as s from '../schemas/contacts.js';
import { GENDERS } from '../schemas/contacts.js';
import { CATALOG } from './catalog.js';
import { collectionOperations } from './crud.js';
import { describe, sends } from './types.js';

const identity = CATALOG.contacts;
const crud = collectionOperations(
  identity,
  s.contactRecord,
  { query: s.contactListQuery, create: s.contactCreateBody },
  {
    extensions: ['get'],
    instead: { get: 'find it with `wsm contacts list --search <number or name>`' },
  },
);

export const contacts = describe(
  'contacts',
  identity,
  { record: s.contactRecord, completion: { '--gender': GENDERS } },
  {
    list: {
      ...crud.list,
      client: (client, { query, options }) => client.contacts.list(query, options),
      description:
        '`search` matches name, number and e-mail; a query written as a phone number (`+351 912-345`) is searched as numbers are stored. ' +
        'Extension of wsm serve: `fields[<name>]=<value>` keeps the contacts holding that custom-field value exactly; several must all hold, and `meta.field_filter` echoes the filter applied.',
    },
    get: { ...crud.get, unsupported: 'getting one contact', client: (client, { id, options }) => client.contacts.get(id, options) },
    create: {
      ...crud.create,
      ...sends(s.contactCreateBody, (client, { body, files, options }) => client.contacts.create(body, { avatar: files.avatar }, options)),
      description: 'JSON carries number, name, email and gender; status, contact_groups and an avatar need the multipart form.',
      multipart: true,
      files: ['avatar'],
      // A browser form sends an empty part for a file input left empty: room for a few.
      fileParts: 4,
      errors: [413],
    },
    update: {
      method: 'POST',
      path: `${crud.get.path}`,
      access: { permission: 'contacts.update' },
      summary: 'Update a contact',
      description: 'Only the fields sent change. contact_groups (replacing every group) and an avatar need the multipart form.',
      ...sends(s.contactUpdateBody, (client, { id, body, files, options }) =>
        client.contacts.update(id, body, { avatar: files.avatar }, options),
      ),
      multipart: true,
      files: ['avatar'],
      fileParts: 4,
      response: s.contactUpdatedResponse,
      errors: [413],
      hints: { destructive: true, idempotent: true },
    },
    delete: { ...crud.delete, client: (client, { id, options }) => client.contacts.delete(id, options) },
  },
);
