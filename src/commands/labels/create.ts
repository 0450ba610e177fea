// `wsm labels create <name> [--color <hex>]`
import { labelCreateBody } from '../../api/schemas/index.js';
import { createRun, given } from '../shared/crud.js';
import { pick, show } from './show.js';

export const run = createRun(pick, show, labelCreateBody, (args, opts) => given({ name: args[0], color: opts.color }), {
  color: '--color',
});
