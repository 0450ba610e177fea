// `wsm groups delete <id>` (extension endpoint): the contacts stay, they only leave the group.
import { deleteCollectionRun } from '../shared/crud.js';
import { pick, show } from './show.js';

export const run = deleteCollectionRun(pick, show);
