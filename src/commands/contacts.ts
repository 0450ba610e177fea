// `wsm contacts`: declarations only; each verb lives in ./contacts/<verb>.ts and loads when run.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, concurrencyOption, LIST_FLAGS, maxFailuresOption, repeatable, uploadOptions, verbSpec } from './declare.js';

export const list = verbSpec({
  name: 'list',
  description: 'list contacts (one page, or every page with --all)',
  flags: { search: { flags: '--search <q>', description: 'only contacts whose name, number or e-mail contains this' }, ...LIST_FLAGS },
  examples: ['wsm contacts list', 'wsm contacts list --search ann --per-page 50', 'wsm contacts list --all -o csv > contacts.csv', 'wsm contacts list --all -q'],
  load: () => import('./contacts/list.js'),
});

/** `--from`, `--dry-run` and `--concurrency` of the bulk form of a verb. */
function bulkOptions(command: Command, what: string): Command {
  return maxFailuresOption(
    concurrencyOption(
      command
        .option('--from <file>', `many contacts: ${what} ("-" for stdin)`)
        .option('--dry-run', 'with --from: report what would be done; send nothing'),
    ),
    'contacts (with --from)',
  );
}

/** The flags create and update share (update adds --active, --add-group and --remove-group). */
function contactFlags(command: Command): Command {
  return command
    .option('--email <email>', 'e-mail address')
    .option('--gender <gender>', 'male, female or other')
    .option('--inactive', 'mark the contact inactive')
    .option('--group <id>', 'contact group id; repeat for several (replaces the groups on update)', repeatable)
    .option('--avatar <file>', 'image (PNG, JPEG, GIF or WebP, at most 2 MB); sends a multipart form')
    .option('--field <name=value>', 'custom contact field value; repeat for several', repeatable);
}

export function registerContacts(program: Command): void {
  const contacts = program.command('contacts').description(SUMMARIES.contacts);

  addVerb(contacts, list);
  addVerb(contacts, {
    name: 'get',
    description: 'show one contact',
    configure: (c) => c.argument('<id>', 'contact id'),
    examples: ['wsm contacts get 42', 'wsm contacts get 42 -o json'],
    load: () => import('./contacts/get.js'),
  });
  addVerb(contacts, {
    name: 'create',
    description: 'create a contact',
    configure: (c) => contactFlags(c.requiredOption('--number <number>', 'phone number, e.g. +14155550123').option('--name <name>', 'display name (default "Unknown")')),
    examples: [
      'wsm contacts create --number +14155550123 --name "Ann Lee" --email ann@example.com',
      'wsm contacts create --number 14155550124 --group 3 --group 4 --avatar ann.png',
      'wsm contacts create --number 14155550125 --field city=Lisbon -q',
    ],
    load: () => import('./contacts/create.js'),
  });
  addVerb(contacts, {
    name: 'update',
    description: 'update a contact, or many with --from; what is not given stays as it is (the current name is read from the server when --name is not given)',
    configure: (c) =>
      bulkOptions(
        contactFlags(
          c
            .argument('[id]', 'contact id')
            .option('--name <name>', 'display name')
            .option('--active', 'mark the contact active'),
        )
          .option('--add-group <id>', 'add the contact to this group, keeping its others; repeat for several', repeatable)
          .option('--remove-group <id>', 'take the contact out of this group; repeat for several', repeatable),
        'contact ids one a line (the flags give the changes), or a CSV with id and the columns to change, as `contacts export` writes them',
      ),
    examples: [
      'wsm contacts update 42 --inactive',
      'wsm contacts update 42 --name "Ann Lee" --email ann@example.com',
      'wsm contacts update 42 --add-group 3 --remove-group 5',
      'wsm contacts update 42 --group 3 --group 4     # replaces every group',
      'wsm contacts update --from changes.csv --dry-run   # a CSV with id and the columns to change',
    ],
    load: () => import('./contacts/update.js'),
  });
  addVerb(contacts, {
    name: 'delete',
    description: 'delete a contact, or many with --from (asks first; pass --yes without a terminal)',
    configure: (c) => bulkOptions(c.argument('[id]', 'contact id'), 'contact ids one a line (as `contacts list -q` prints them), or a CSV with an id column'),
    examples: [
      'wsm contacts delete 12',
      'wsm contacts delete 12 --yes',
      'wsm contacts list --search old.example -q | wsm contacts delete --from - --yes',
      'wsm contacts delete --from ids.txt --dry-run',
    ],
    load: () => import('./contacts/delete.js'),
  });
  addVerb(contacts, {
    name: 'import',
    description: 'upload a CSV of contacts (checked locally first: needs a number column)',
    configure: (c) =>
      uploadOptions(c.argument('<file.csv>', 'CSV with a header row: number, and optionally name, email, gender, status, contact_groups (a JSON array of group names) and contact field names'))
        .option('--dry-run', 'check the file and print the row report; send nothing (exit 8 when a row is invalid, 2 when none is valid)')
        .option('--strict', 'refuse the file (exit 2) when any row is invalid'),
    examples: [
      'wsm contacts import contacts.csv --dry-run',
      'wsm contacts import contacts.csv --name "March leads" --group 3 --wait',
      'wsm contacts import contacts.csv --strict -q',
      'wsm contacts export > backup.csv && wsm -w <other-workspace> contacts import backup.csv --wait',
    ],
    load: () => import('./contacts/import.js'),
  });
  addVerb(contacts, {
    name: 'export',
    description:
      'write every contact as CSV to standard output, page by page. Columns: id, number, name, email, gender, status, ' +
      'contact_groups (a JSON array of group names), created_at, updated_at, then one per contact field; the file imports back, ' +
      'groups included. Cells starting with = + - @ are prefixed with \' (the import takes it off) so spreadsheets do not run them; ' +
      'a value with a comma, quote or line break is quoted (RFC 4180). Stopped part way, it says how many were written. -o json / -o ndjson write the records instead',
    configure: (c) => concurrencyOption(c.option('--search <q>', 'only contacts whose name, number or e-mail contains this')),
    examples: ['wsm contacts export > contacts.csv', 'wsm contacts export --search example.com | wc -l', 'wsm contacts export -o ndjson > contacts.ndjson', 'wsm contacts export --concurrency 12 > contacts.csv'],
    load: () => import('./contacts/export.js'),
  });
}
