// `wsm fields create <name>`
import { fieldCreateBody } from '../../api/schemas/index.js';
import { createRun } from '../shared/crud.js';
import { pick, show } from './show.js';

export const run = createRun(pick, show, fieldCreateBody, (args) => ({ name: args[0] }));
