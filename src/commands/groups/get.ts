// `wsm groups get <id>` (extension endpoint)
import { getRun } from '../shared/crud.js';
import { pick, show } from './show.js';

export const run = getRun(pick, show);
