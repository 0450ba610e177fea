// `wsm contacts delete <id>`
import { deleteRun } from '../shared/delete.js';

export const run = deleteRun('contact', (client, id) => client.contacts.delete(id));
