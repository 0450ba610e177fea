// `wsm roles create <name> [--permission <p>]...`
import { roleCreateBody } from '../../api/schemas/index.js';
import { createRun, given } from '../shared/crud.js';
import { pick, show } from './show.js';

export const run = createRun(pick, show, roleCreateBody, (args, opts) => given({ name: args[0], permissions: opts.permission }), {
  permissions: '--permission',
});
