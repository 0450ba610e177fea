// `wsm imports`: declarations only; each verb lives in ./imports/<verb>.ts and loads when run.
import type { Command } from 'commander';
import { SUMMARIES } from './summaries.js';
import { addVerb, deleteVerb, importWaitOptions, listOptions, uploadOptions } from './declare.js';

export function registerImports(program: Command): void {
  const imports = program.command('imports').description(SUMMARIES.imports);

  addVerb(imports, {
    name: 'list',
    description: 'list contact imports',
    configure: listOptions,
    examples: ['wsm imports list', 'wsm imports list --all -o json'],
    load: () => import('./imports/list.js'),
  });
  addVerb(imports, {
    name: 'get',
    description: 'show one import with its counts and row errors; --wait waits until it is finished (again, after a Ctrl-C)',
    configure: (c) => importWaitOptions(c.argument('<id>', 'import id')),
    examples: ['wsm imports get 5', 'wsm imports get 5 -o json | jq .errors', 'wsm imports get 5 --wait --timeout 1h'],
    load: () => import('./imports/get.js'),
  });
  addVerb(imports, {
    name: 'create',
    description: 'upload a CSV file (checked locally first, like `wsm contacts import`)',
    configure: (c) => uploadOptions(c.argument('<file>', 'CSV with a header row that names a number column')),
    examples: ['wsm imports create leads.csv --name "March leads" --group 3', 'wsm imports create leads.csv -q'],
    load: () => import('./imports/create.js'),
  });
  deleteVerb(imports, 'contact import', 'imports', () => import('./imports/delete.js'));
}
