// `wsm groups delete <id>` (extension endpoint): the contacts stay, they only leave the group.
import { deleteRun } from '../shared/delete.js';

export const run = deleteRun('contact group', (client, id) => client.groups.delete(id));
