// `wsm contacts delete <id>` (delete-one.ts) or `wsm contacts delete --from <file|-> ...`
// (delete-many.ts): the command line chooses the module.
import { chosenVerb } from '../shared/chosen-verb.js';

export const { parse, run, render, settle } = chosenVerb(({ opts }) =>
  opts.from !== undefined ? () => import('./delete-many.js') : () => import('./delete-one.js'),
);
