// `wsm fields delete <id>`
import { deleteRun } from '../shared/delete.js';

export const run = deleteRun('contact field', (client, id) => client.fields.delete(id));
