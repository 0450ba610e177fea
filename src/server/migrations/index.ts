/** Numbered migrations, applied in order and tracked in PRAGMA user_version. */
import type { Db } from '../db.js';
import { sql as initial } from './001_initial.js';
import { sql as explicitSearchIndex } from './002_explicit_search_index.js';
import { sql as searchIndexMerging } from './003_search_index_merging.js';
import { run as idsNeverReused } from './004_ids_never_reused.js';
import { sql as importClaims } from './005_import_claims.js';
import { run as usersManage } from './006_users_manage.js';
import { sql as tokenExpiry } from './007_token_expiry.js';
import { sql as importGroupCreation } from './008_import_group_creation.js';
import { run as unicodeSearch } from './009_unicode_search.js';
import { sql as membershipAuthority } from './010_membership_authority.js';
import { sql as deferredSearchIndex } from './011_deferred_search_index.js';
import { sql as nulKeys } from './012_nul_keys.js';
import { sql as fieldValueFilter } from './013_field_value_filter.js';
import { run as importErrors } from './014_import_errors.js';
import { run as groupNamesComposed } from './015_group_names_composed.js';

export interface Migration {
  version: number;
  name: string;
  /** SQL text, or a function for a change that reads the schema as it is. */
  sql?: string;
  run?: (db: Db) => void;
  /** Tables are rebuilt: foreign keys off while it runs, checked before it commits. */
  foreignKeysOff?: boolean;
}

export const migrations: Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'explicit_search_index', sql: explicitSearchIndex },
  { version: 3, name: 'search_index_merging', sql: searchIndexMerging },
  { version: 4, name: 'ids_never_reused', run: idsNeverReused, foreignKeysOff: true },
  { version: 5, name: 'import_claims', sql: importClaims },
  { version: 6, name: 'users_manage', run: usersManage },
  { version: 7, name: 'token_expiry', sql: tokenExpiry },
  { version: 8, name: 'import_group_creation', sql: importGroupCreation },
  { version: 9, name: 'unicode_search', run: unicodeSearch },
  { version: 10, name: 'membership_authority', sql: membershipAuthority },
  { version: 11, name: 'deferred_search_index', sql: deferredSearchIndex },
  { version: 12, name: 'nul_keys', sql: nulKeys },
  { version: 13, name: 'field_value_filter', sql: fieldValueFilter },
  { version: 14, name: 'import_errors', run: importErrors },
  { version: 15, name: 'group_names_composed', run: groupNamesComposed },
];
