// `wsm contacts`: each verb's declaration; its run lives in ./contacts/<verb>.ts and loads when run.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import {
  addVerb,
  APPLY_FLAGGED_FLAG,
  CONCURRENCY_FLAG,
  LIST_FLAGS,
  maxFailuresFlag,
  rejectsFlag,
  UPLOAD_FLAGS,
  verbSpec,
} from './declare.js';

const SHEET_FLAG = { flags: '--sheet <name>', description: 'the sheet of an .xlsx file to read (default: the first)' } as const;
const SEARCH_FLAG = { flags: '--search <q>', description: 'only contacts whose name, number or e-mail contains this' } as const;

export const CONTACT_LIST_FLAGS = {
  search: SEARCH_FLAG,
  field: {
    flags: '--field <name=value>',
    description: 'only contacts whose custom field holds exactly this value; repeat for several (all must hold)',
    repeatable: true,
  },
  ...LIST_FLAGS,
} as const;

export const list = verbSpec({
  name: 'list',
  description: 'list contacts (one page, or every page with --all)',
  flags: CONTACT_LIST_FLAGS,
  examples: [
    'wsm contacts list',
    'wsm contacts list --search ann --per-page 50',
    'wsm contacts list --field city=Lisbon --field tier=gold --all',
    'wsm contacts list --all -o csv > contacts.csv',
    'wsm contacts list --all -q',
  ],
  load: () => import('./contacts/list.js'),
});

export const get = verbSpec({
  name: 'get',
  description: 'show one contact',
  args: [['<id>', 'contact id']],
  examples: ['wsm contacts get 42', 'wsm contacts get 42 -o json'],
  load: () => import('./contacts/get.js'),
});

/** The flags create and update share (update adds --active, --add-group and --remove-group). */
export const CONTACT_BODY_FLAGS = {
  email: { flags: '--email <email>', description: "e-mail address (--email '' clears it)" },
  gender: { flags: '--gender <gender>', description: "male, female or other (--gender '' clears it)" },
  inactive: { flags: '--inactive', description: 'mark the contact inactive' },
  group: {
    flags: '--group <id>',
    description: "contact group id; repeat for several (replaces the groups on update; --group '' leaves none)",
    repeatable: true,
  },
  avatar: { flags: '--avatar <file>', description: 'image (PNG, JPEG, GIF or WebP, at most 2 MB); sends a multipart form' },
  field: {
    flags: '--field <name=value>',
    description: 'custom contact field value (--field name= removes it); repeat for several',
    repeatable: true,
  },
} as const;

/** `--from`, `--dry-run`, `--concurrency`, `--max-failures` and `--strict` of the bulk form of a verb; `what` the file holds. */
function bulkFlags(what: string, plan: string) {
  return {
    from: { flags: '--from <file>', description: `many contacts: ${what} ("-" for stdin), or the same as an .xlsx workbook` },
    sheet: SHEET_FLAG,
    dryRun: { flags: '--dry-run', description: `with --from: the plan against the workspace, ${plan}; send nothing` },
    concurrency: CONCURRENCY_FLAG,
    maxFailures: maxFailuresFlag('contacts (with --from)'),
    strict: {
      flags: '--strict',
      description: 'with --from: refuse a file naming one contact on several rows (002 and 2 are one), exit 2, nothing sent',
    },
  } as const;
}

/** What `runBulk` reads of the flags above. */
export type BulkFlags = ReturnType<typeof bulkFlags>;

export const CONTACT_CREATE_FLAGS = {
  number: { flags: '--number <number>', description: 'phone number, e.g. +14155550123', required: true },
  name: { flags: '--name <name>', description: 'display name (default "Unknown")' },
  ...CONTACT_BODY_FLAGS,
} as const;

export const create = verbSpec({
  name: 'create',
  description: 'create a contact',
  flags: CONTACT_CREATE_FLAGS,
  examples: [
    'wsm contacts create --number +14155550123 --name "Ann Lee" --email ann@example.com',
    'wsm contacts create --number 14155550124 --group 3 --group 4 --avatar ann.png',
    'wsm contacts create --number 14155550125 --field city=Lisbon -q',
  ],
  load: () => import('./contacts/create.js'),
});

export const CONTACT_UPDATE_FLAGS = {
  name: { flags: '--name <name>', description: 'display name' },
  active: { flags: '--active', description: 'mark the contact active' },
  ...CONTACT_BODY_FLAGS,
  addGroup: {
    flags: '--add-group <id>',
    description: 'add the contact to this group, keeping its others; repeat for several (one contact id: not with --from)',
    repeatable: true,
  },
  removeGroup: {
    flags: '--remove-group <id>',
    description: 'take the contact out of this group; repeat for several (one contact id: not with --from)',
    repeatable: true,
  },
  ...bulkFlags(
    'contact ids one a line (the flags give the changes), or a CSV with id and the columns to change, as `contacts export` writes them',
    "each contact's changes old -> new, spreadsheet damage marked ! (exit 8 when a row is invalid)",
  ),
  applyFlagged: APPLY_FLAGGED_FLAG,
} as const;

export const update = verbSpec({
  name: 'update',
  description:
    'update a contact, or many with --from; what is not given stays as it is (the current name is read from the server when --name is not given; ' +
    "--email '' and --gender '' clear them). With --from, an empty cell clears the value (a name or status is kept), rows naming one contact are merged, " +
    'only the contacts that change are sent, and changes that look made by a spreadsheet are left out, kept as stored (--apply-flagged applies them)',
  args: [['[id]', 'contact id']],
  flags: CONTACT_UPDATE_FLAGS,
  examples: [
    'wsm contacts update 42 --inactive',
    'wsm contacts update 42 --name "Ann Lee" --email ann@example.com',
    'wsm contacts update 42 --add-group 3 --remove-group 5',
    'wsm contacts update 42 --group 3 --group 4     # replaces every group',
    "wsm contacts update 42 --group ''              # takes it out of every group",
    'wsm contacts update --from changes.csv --dry-run   # a CSV with id and the columns to change',
    'wsm contacts update --from contacts.xlsx           # an exported workbook, edited',
  ],
  load: () => import('./contacts/update.js'),
});

export const CONTACT_DELETE_FLAGS = bulkFlags(
  'contact ids one a line (as `contacts list -q` prints them), or a CSV with an id column',
  'each contact to delete or already gone',
);

export const remove = verbSpec({
  name: 'delete',
  description:
    'delete a contact, or many with --from (asks first, unless the server says your role may not; pass --yes without a terminal)',
  args: [['[id]', 'contact id']],
  flags: CONTACT_DELETE_FLAGS,
  examples: [
    'wsm contacts delete 12',
    'wsm contacts delete 12 --yes',
    'wsm contacts list --search old.example --all -q | wsm contacts delete --from - --yes',
    'wsm contacts delete --from ids.txt --dry-run',
  ],
  load: () => import('./contacts/delete.js'),
});

export const importFile = verbSpec({
  name: 'import',
  description:
    'upload a spreadsheet (.xlsx) or CSV of contacts (checked locally first: needs a number column); a sheet is sent to the API as CSV. ' +
    'Rows are applied in file order: a known number is updated (rows naming one contact: the last row wins), an empty cell keeps the stored value. ' +
    'A cell whose change looks made by a spreadsheet (leading zeros lost, scientific notation...) is left out, the value kept as stored, unless --apply-flagged',
  args: [
    [
      '<file>',
      '.xlsx or CSV with a header row: number, and optionally name, email, gender, status, contact_groups (a JSON array of group names) and contact field names',
    ],
  ],
  flags: {
    ...UPLOAD_FLAGS,
    rejects: rejectsFlag('with --wait or --dry-run'),
    dryRun: {
      flags: '--dry-run',
      description:
        'check the file and print the plan against the workspace as it reads it (each contact at its last row: create / update old -> new, emptied cells kept), the groups to create, the counts, then the row report; send nothing (exit 8 when a row is invalid, 2 when none is valid; with --strict, 2 after the plan when the file would be refused)',
    },
    strict: { flags: '--strict', description: 'refuse the file (exit 2) when any row is invalid, or rows name the same contact' },
  },
  examples: [
    'wsm contacts import contacts.xlsx --dry-run',
    'wsm contacts import leads.xlsx --sheet "March" --wait',
    'wsm contacts import contacts.csv --dry-run',
    'wsm contacts import contacts.csv --name "March leads" --group 3 --wait',
    'wsm contacts import contacts.csv --strict -q',
    'wsm contacts import contacts.csv --wait --rejects rejects.csv   # every failed row, to fix and import again',
    'wsm contacts export > backup.csv && wsm -w <other-workspace> contacts import backup.csv --wait',
  ],
  load: () => import('./contacts/import.js'),
});

export const EXPORT_FLAGS = {
  search: SEARCH_FLAG,
  concurrency: CONCURRENCY_FLAG,
  outputFile: {
    flags: '--output-file <file>',
    description:
      'write to this file instead of standard output (- is standard output), put in place only once the export is whole (a name ending .xlsx writes a workbook)',
  },
} as const;

export const exportAll = verbSpec({
  name: 'export',
  description:
    'write every contact as CSV to standard output, page by page. Columns: id, number, name, email, gender, status, ' +
    'contact_groups (a JSON array of group names), created_at, updated_at, then one per contact field; the file imports back, ' +
    "groups included. Cells starting with = + - @ are prefixed with ' (the import takes it off) so spreadsheets do not run them; " +
    'a value with a comma, quote or line break is quoted (RFC 4180). Stopped part way, it says how many were written. -o json / -o ndjson write the records instead; ' +
    "-o xlsx a spreadsheet workbook with the same columns, every cell text holding exactly the stored value (no ' needed)",
  flags: EXPORT_FLAGS,
  writesXlsx: true,
  examples: [
    'wsm contacts export > contacts.csv',
    'wsm contacts export --output-file contacts.xlsx',
    'wsm contacts export -o xlsx > contacts.xlsx',
    'wsm contacts export --search example.com | wc -l',
    'wsm contacts export -o ndjson > contacts.ndjson',
    'wsm contacts export --concurrency 12 > contacts.csv',
  ],
  load: () => import('./contacts/export.js'),
});

export function registerContacts(program: Command): void {
  const contacts = program.command('contacts').description(SUMMARIES.contacts);
  for (const spec of [list, get, create, update, remove, importFile, exportAll]) addVerb(contacts, spec);
}
