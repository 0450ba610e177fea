// How labels print, and where the verbs find them on the client.
import type { WsmClient } from '../../api/client.js';
import type { Label } from '../../api/schemas/index.js';
import type { Presentation } from '../shared/crud.js';

export const pick = (client: WsmClient) => client.labels;

export const show: Presentation<Label> = {
  noun: 'label',
  describe: (l) => `${l.name} (id ${l.id})`,
  columns: [
    { key: 'id', header: 'ID' },
    { key: 'name', header: 'NAME' },
    { key: 'color', header: 'COLOR' },
    { key: 'created_at', header: 'CREATED' },
  ],
};
