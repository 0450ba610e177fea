// `wsm imports create <file> [--name] [--group <id>] [--wait]`: the same checked upload as
// `wsm contacts import`, without the dry-run and strict switches.
export { renderUpload as render, settleUpload as settle, uploadImport as run } from './upload.js';
export { parseUpload as parse } from './upload-flags.js';
