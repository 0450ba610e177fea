// The flags `wsm diff` and `wsm apply` share, so that diff shows exactly the plan apply would make.
import type { Command } from 'commander';

export function planOptions(command: Command): Command {
  return command
    .requiredOption('-f, --file <path>', 'the workspace file, YAML or JSON ("-" reads stdin)')
    .option('--prune', 'delete what the file does not list, in the sections it declares')
    .option('--replace-templates', 'a template whose content changed is deleted and created again (the API has no template update)')
    .option('--state <path>', 'ids of what apply created where the server cannot list (default: <file>.state.json)');
}
