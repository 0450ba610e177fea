// `wsm roles update <id> [--name] [--permission <p>]...` (extension endpoint)
import { roleUpdateBody } from '../../api/schemas/index.js';
import { given, updateRun } from '../shared/crud.js';
import { pick, show } from './show.js';

export const run = updateRun(pick, show, roleUpdateBody, (opts) => given({ name: opts.name, permissions: opts.permission }), {
  name: '--name',
  permissions: '--permission',
});
