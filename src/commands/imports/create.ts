// `wsm imports create <file> [--name] [--group <id>] [--wait]`: the same checked upload as
// `wsm contacts import`, without the dry-run and strict switches.
import { verb } from '../shared/verb.js';
import { parseUploadFlags, uploadImport } from './upload.js';

export const run = verb(async (ctx, { args, opts }) => {
  await uploadImport(ctx, parseUploadFlags(args[0], { ...opts, dryRun: false, strict: false }));
});
