// Contact imports: a CSV uploaded as a form, processed in the background; reading one (to poll it) is ours.
import * as s from '../schemas/imports.js';
import { CATALOG } from './catalog.js';
import { collectionOperations } from './crud.js';
import { describe } from './types.js';

const crud = collectionOperations(CATALOG.imports, s.importRecord, { query: s.importListQuery, create: s.importCreateBody }, {
  extensions: ['get'],
  instead: { get: 'find it in `wsm imports list`' },
});

export const imports = describe('imports', CATALOG.imports, { record: s.importRecord }, {
  list: crud.list,
  get: { ...crud.get, summary: 'Get a contact import (poll its progress)', unsupported: 'getting one contact import' },
  create: {
    ...crud.create,
    summary: 'Start a contact import',
    description: 'A CSV file with a `number` column; rows are processed in the background after the 201.',
    multipart: 'only',
    files: ['file'],
    fileParts: 1,
    errors: [413],
  },
  delete: crud.delete,
});
