// Contact imports: a CSV uploaded as a form, processed in the background; reading one (to poll it) is ours.
import { paginated } from '../schemas/common.js';
import * as s from '../schemas/imports.js';
import { CATALOG } from './catalog.js';
import { collectionOperations, WORKSPACE } from './crud.js';
import { can, describe, sends } from './types.js';

const crud = collectionOperations(
  CATALOG.imports,
  s.importRecord,
  { query: s.importListQuery, create: s.importCreateBody },
  {
    // contact_imports has no update permission (decisions.md §4): an import is made and deleted, never changed.
    has: ['list', 'get', 'create', 'delete'],
    extensions: ['get'],
    instead: { get: 'find it in `wsm imports list`' },
  },
);

export const imports = describe(
  'imports',
  CATALOG.imports,
  { record: s.importRecord },
  {
    list: { ...crud.list, client: (client, { query, options }) => client.imports.list(query, options) },
    get: {
      ...crud.get,
      summary: 'Get a contact import (poll its progress)',
      unsupported: 'getting one contact import',
      client: (client, { id, options }) => client.imports.get(id, options),
    },
    create: {
      ...crud.create,
      ...sends(s.importCreateBody, (client, { body, files, options }) => {
        if (files.file === undefined) throw new TypeError('a contact import needs its CSV file (the part `file`)');
        return client.imports.create({ ...body, filePath: files.file }, options);
      }),
      summary: 'Start a contact import',
      description: 'A CSV file with a `number` column; rows are processed in the background after the 201.',
      multipart: 'only',
      files: ['file'],
      fileParts: 1,
      errors: [413],
    },
    delete: {
      ...crud.delete,
      description: 'Removes the import record and its stored file; the contacts it created or updated stay.',
      client: (client, { id, options }) => client.imports.delete(id, options),
    },
    errors: {
      method: 'GET',
      path: `${WORKSPACE}/${CATALOG.imports.segment}/{${CATALOG.imports.idParam}}/errors`,
      access: can('contact_imports.view'),
      published: false,
      summary: 'List every error of a contact import',
      description:
        "Every error the import noted, in file order, paginated like every list (the import record's `errors` holds the first 100, " +
        '`errors_total` says how many there are). `row` is the spreadsheet row (header = 1), `line` the line it starts on, ' +
        '`failed` whether the row was skipped (false for a note, such as a column ignored or a group created).',
      query: s.importErrorListQuery,
      response: paginated(s.importError),
      client: (client, { id, query, options }) => client.imports.errors(id, query, options),
      unsupported: 'listing every error of a contact import',
      instead: 'only the first 100 are known, from `wsm imports get <id>`',
    },
  },
);
