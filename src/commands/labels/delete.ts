// `wsm labels delete <id>` (extension endpoint)
import { deleteRun } from '../shared/delete.js';

export const run = deleteRun('label', (client, id) => client.labels.delete(id));
