// The change a command line names: its id from `wsm history`, or `last`.
import { UsageError } from '../../cli/errors.js';
import type { JournalStore } from '../../journal/store.js';
import type { ChangeMeta } from '../../journal/records.js';

export function findChange(store: JournalStore, ref: string): ChangeMeta {
  const change = store.find(ref);
  if (change !== undefined) return change;
  throw new UsageError(
    ref === 'last' ? 'no change kept yet: `wsm history` lists them' : `no change "${ref}" kept on this machine (see \`wsm history\`)`,
  );
}
