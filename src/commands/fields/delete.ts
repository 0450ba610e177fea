// `wsm fields delete <id>`
import { deleteCollectionRun } from '../shared/crud.js';
import { pick, show } from './show.js';

export const run = deleteCollectionRun(pick, show);
