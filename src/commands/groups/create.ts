// `wsm groups create <name>`
import { groupCreateBody } from '../../api/schemas/index.js';
import { createRun } from '../shared/crud.js';
import { pick, show } from './show.js';

export const run = createRun(pick, show, groupCreateBody, (args) => ({ name: args[0] }));
