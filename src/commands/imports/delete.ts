// `wsm imports delete <id>`: removes the import and its file, never the contacts it made, and says so.
import { deleteRun } from '../shared/delete.js';

export const run = deleteRun('contact import', (client, id) => client.imports.delete(id), {
  leaves: 'the contacts it created or updated stay (`wsm contacts list` shows them)',
});
