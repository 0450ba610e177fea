// How contact fields print, and where the verbs find them on the client.
import type { WsmClient } from '../../api/client.js';
import type { ContactField } from '../../api/schemas/index.js';
import type { Presentation } from '../shared/crud.js';

export const pick = (client: WsmClient) => client.fields;

export const show: Presentation<ContactField> = {
  noun: 'contact field',
  describe: (f) => `${f.name} (id ${f.id})`,
  columns: [
    { key: 'id', header: 'ID' },
    { key: 'name', header: 'NAME' },
    { key: 'created_at', header: 'CREATED' },
  ],
};
