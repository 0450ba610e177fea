// `wsm contacts delete <id>`: on a terminal the question names the contact (read through the
// GET-one extension; a server without it is asked about the bare id).
import { deleteRun } from '../shared/delete.js';
import { describeContact } from './columns.js';

export const run = deleteRun('contact', (client, id) => client.contacts.delete(id), {
  read: async (client, id) => (await client.contacts.get(id)).data,
  describe: describeContact,
});
