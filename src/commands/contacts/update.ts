// `wsm contacts update <id> ...` (update-one.ts) or `wsm contacts update --from <file|-> ...`
// (update-many.ts): the command line chooses the module.
import { chosenVerb } from '../shared/chosen-verb.js';

export const { parse, run, render, settle } = chosenVerb(({ opts }) =>
  opts.from !== undefined ? () => import('./update-many.js') : () => import('./update-one.js'),
);
