// `wsm imports create <file> [--name] [--group <id>] [--wait]`: the same checked upload as
// `wsm contacts import`, without the dry-run and strict switches.
import { typedRun, type VerbRun } from '../shared/verb.js';
import type { create } from '../imports.js';
import { parseUploadFlags, uploadImport } from './upload.js';

export const run: VerbRun = typedRun<typeof create>(async (ctx, { args, opts }) => {
  await uploadImport(ctx, parseUploadFlags(args[0], opts));
});
