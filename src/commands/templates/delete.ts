// `wsm templates delete <id>`: irreversible; campaigns using the template stop working.
import { deleteRun } from '../shared/delete.js';

export const run = deleteRun('template', (client, id) => client.templates.delete(id));
