// `wsm labels update <id> [--name] [--color]`: either or both (neither is refused locally).
import { labelUpdateBody } from '../../api/schemas/index.js';
import { given, updateRun } from '../shared/crud.js';
import { pick, show } from './show.js';

export const run = updateRun(pick, show, labelUpdateBody, (opts) => given({ name: opts.name, color: opts.color }), {
  name: '--name',
  color: '--color',
});
