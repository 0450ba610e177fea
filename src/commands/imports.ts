// `wsm imports`: each verb's declaration; its run lives in ./imports/<verb>.ts and loads when run.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, deleteVerb, IMPORT_WAIT_FLAGS, LIST_FLAGS, UPLOAD_FLAGS, verbSpec } from './declare.js';

export const list = verbSpec({
  name: 'list',
  description: 'list contact imports',
  flags: LIST_FLAGS,
  examples: ['wsm imports list', 'wsm imports list --all -o json'],
  load: () => import('./imports/list.js'),
});

export const get = verbSpec({
  name: 'get',
  description: 'show one import with its counts and row errors; --wait waits until it is finished (again, after a Ctrl-C)',
  args: [['<id>', 'import id']],
  flags: IMPORT_WAIT_FLAGS,
  examples: ['wsm imports get 5', 'wsm imports get 5 -o json | jq .errors', 'wsm imports get 5 --wait --timeout 1h'],
  load: () => import('./imports/get.js'),
});

export const errors = verbSpec({
  name: 'errors',
  description: 'list every error of an import, every page (the import itself shows the first 100)',
  args: [['<id>', 'import id']],
  examples: [
    'wsm imports errors 5',
    'wsm imports errors 5 -o csv > errors.csv',
    "wsm imports errors 5 --jq '.[] | select(.failed) | .line'",
  ],
  selection: { fields: async () => ['row', 'line', 'failed', 'message'] },
  load: () => import('./imports/errors.js'),
});

export const create = verbSpec({
  name: 'create',
  description: 'upload a CSV or .xlsx file (checked locally first, like `wsm contacts import`; a sheet is sent as CSV)',
  args: [['<file>', 'CSV or .xlsx with a header row that names a number column']],
  flags: UPLOAD_FLAGS,
  examples: ['wsm imports create leads.csv --name "March leads" --group 3', 'wsm imports create leads.csv -q'],
  load: () => import('./imports/create.js'),
});

export function registerImports(program: Command): void {
  const imports = program.command('imports').description(SUMMARIES.imports);
  for (const spec of [list, get, errors, create]) addVerb(imports, spec);
  deleteVerb(imports, 'contact import', 'imports', () => import('./imports/delete.js'));
}
