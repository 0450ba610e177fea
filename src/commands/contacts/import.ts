// `wsm contacts import <file.csv> [--name] [--group <id>] [--dry-run] [--strict] [--wait]`
export { parseUpload as parse, renderUpload as render, settleUpload as settle, uploadImport as run } from '../imports/upload.js';
