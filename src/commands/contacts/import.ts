// `wsm contacts import <file.csv> [--name] [--group <id>] [--dry-run] [--strict] [--wait]`
export { renderUpload as render, settleUpload as settle, uploadImport as run } from '../imports/upload.js';
export { parseContactsImport as parse } from '../imports/upload-flags.js';
