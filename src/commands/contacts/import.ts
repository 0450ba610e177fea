// `wsm contacts import <file.csv> [--name] [--group <id>] [--dry-run] [--strict] [--wait]`
import { parseUploadFlags, uploadImport } from '../imports/upload.js';
import { typedRun, type VerbRun } from '../shared/verb.js';
import type { importFile } from '../contacts.js';

export const run: VerbRun = typedRun<typeof importFile>(async (ctx, { args, opts }) => {
  await uploadImport(ctx, parseUploadFlags(args[0], opts));
});
