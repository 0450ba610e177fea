// Stored uploads (avatars): the URL in a record is the capability, so the download needs no token.
import { CATALOG } from './catalog.js';
import { describe } from './types.js';

export const files = describe(
  'files',
  CATALOG.files,
  {},
  {
    download: {
      method: 'GET',
      path: '/files/{file}',
      access: 'public',
      published: false,
      summary: 'Download a stored file',
      description:
        'The URL itself is the capability; no token needed. Stored files are avatars, served as the image type their bytes show.',
      response: 'binary',
      // A record's avatar_url is followed by whoever reads it; the client and the CLI never fetch it.
      client: null,
    },
  },
);
