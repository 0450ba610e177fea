// `wsm roles delete <id>` (extension endpoint)
import { deleteRun } from '../shared/delete.js';

export const run = deleteRun('role', (client, id) => client.roles.delete(id));
