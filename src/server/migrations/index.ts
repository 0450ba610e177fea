/** Numbered migrations, applied in order and tracked in PRAGMA user_version. */
import { sql as initial } from './001_initial.js';
import { sql as explicitSearchIndex } from './002_explicit_search_index.js';
import { sql as searchIndexMerging } from './003_search_index_merging.js';

export const migrations: Array<{ version: number; name: string; sql: string }> = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'explicit_search_index', sql: explicitSearchIndex },
  { version: 3, name: 'search_index_merging', sql: searchIndexMerging },
];
