// `wsm fields update <id> --name <name>` (extension endpoint)
import { fieldUpdateBody } from '../../api/schemas/index.js';
import { updateRun } from '../shared/crud.js';
import { pick, show } from './show.js';

export const run = updateRun(pick, show, fieldUpdateBody, (opts) => ({ name: opts.name }), { name: '--name' });
