// `wsm imports delete <id>`: removes the import and its file, never the contacts it made, and says so.
import { deleteVerb } from '../shared/delete.js';

export const { parse, run, render } = deleteVerb('imports', (client, id) => client.imports.delete(id), {
  leaves: 'the contacts it created or updated stay (`wsm contacts list` shows them)',
});
