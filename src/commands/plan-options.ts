// The flags `wsm diff` and `wsm apply` share, so that diff shows exactly the plan apply would make.
import type { FlagOptions } from './declare.js';

export const PLAN_FLAGS = {
  file: { flags: '-f, --file <path>', description: 'the workspace file, YAML or JSON ("-" reads stdin)', required: true },
  prune: { flags: '--prune', description: 'delete what the file does not list, in the sections it declares' },
  replaceTemplates: {
    flags: '--replace-templates',
    description: 'a template whose content changed is deleted and created again (the API has no template update)',
  },
  state: { flags: '--state <path>', description: 'ids of what apply created where the server cannot list (default: <file>.state.json)' },
} as const;

/** The plan flags as diff and apply read them. */
export type PlanOptions = FlagOptions<typeof PLAN_FLAGS>;
