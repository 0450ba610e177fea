// `wsm contacts import <file.csv> [--name] [--group <id>] [--dry-run] [--strict] [--wait]`
import { parseUploadFlags, uploadImport } from '../imports/upload.js';
import { verb } from '../shared/verb.js';

export const run = verb(async (ctx, { args, opts }) => {
  await uploadImport(ctx, parseUploadFlags(args[0], opts));
});
