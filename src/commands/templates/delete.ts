// `wsm templates delete <id>`: irreversible; campaigns using the template stop working. On a
// terminal the question names the template and asks to type its name.
import { deleteVerb } from '../shared/delete.js';

export const { parse, run, render } = deleteVerb('templates', (client, id) => client.templates.delete(id), {
  read: async (client, id) => (await client.templates.get(id)).data,
  describe: (t) => `${t.name} (id ${t.id}, ${t.status})`,
  typeToConfirm: (t) => t.name,
});
