// `wsm groups update <id> --name <name>` (extension endpoint)
import { groupUpdateBody } from '../../api/schemas/index.js';
import { updateRun } from '../shared/crud.js';
import { pick, show } from './show.js';

export const run = updateRun(pick, show, groupUpdateBody, (opts) => ({ name: opts.name }), { name: '--name' });
