// Message templates: the published API creates, reads, deletes and syncs them with the provider; the filtered list is ours.
import * as s from '../schemas/templates.js';
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES } from '../schemas/templates.js';
import { CATALOG } from './catalog.js';
import { collectionOperations, WORKSPACE } from './crud.js';
import { can, describe, sends } from './types.js';

// The published API's template answers carry `success` beside the record.
const crud = collectionOperations(
  CATALOG.templates,
  s.templateRecord,
  {
    query: s.templateListQuery,
    create: s.templateCreateBody,
    one: s.templateResponse,
    created: s.templateCreatedResponse,
    deleted: s.templateDeletedResponse,
  },
  {
    // A template is never changed once submitted to the provider: templates has no update permission.
    has: ['list', 'get', 'create', 'delete'],
    extensions: ['list'],
    instead: { list: 'read each with `wsm templates get <id>`' },
  },
);

export const templates = describe(
  'templates',
  CATALOG.templates,
  {
    record: s.templateRecord,
    completion: { '--category': TEMPLATE_CATEGORIES, '--status': TEMPLATE_STATUSES, '--header-type': ['image', 'video', 'document'] },
  },
  {
    list: {
      ...crud.list,
      description: 'Filters: `status`, `category`, `search` (part of the name).',
      client: (client, { query, options }) => client.templates.list(query, options),
    },
    get: { ...crud.get, client: (client, { id, options }) => client.templates.get(id, options) },
    create: {
      ...crud.create,
      ...sends(s.templateCreateBody, (client, { body, files, options }) =>
        client.templates.create(body, { headerFile: files['header[media][file]'] }, options),
      ),
      description:
        'Submits the template to the provider for review; it starts PENDING. A media header is sent as multipart ' +
        'with the file in `header[media][file]` (image JPEG/PNG up to 5 MB, video MP4 up to 16 MB, document PDF up to 100 MB).',
      multipart: true,
      files: ['header[media][file]'],
      fileParts: 1,
      errors: [413, 500],
    },
    delete: {
      ...crud.delete,
      client: (client, { id, options }) => client.templates.delete(id, options),
      description: 'Removes the template at once; the deletion at the provider follows in the background and is retried until it succeeds.',
    },
    sync: {
      method: 'POST',
      path: `${WORKSPACE}/templates/sync`,
      access: can('templates.sync'),
      summary: 'Synchronise template statuses with the provider',
      description:
        "Fetches the provider's review of every PENDING template and updates their statuses. 404 when nothing is pending; " +
        '500 (naming the cause) when the provider cannot be reached, with every status left as it was.',
      response: s.templateSyncResponse,
      client: (client, { options }) => client.templates.sync(options),
      errors: [404, 500],
      hints: { idempotent: true },
    },
  },
);
