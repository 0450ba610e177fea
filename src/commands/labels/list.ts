// `wsm labels list [--page] [--per-page] [--all]` (extension endpoint)
import { listRun } from '../shared/crud.js';
import { pick, show } from './show.js';

export const run = listRun(pick, show);
