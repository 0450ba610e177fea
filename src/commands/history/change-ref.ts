// The change a command line names: its id from `wsm history`, or `last`.
import { ChangeBeingWrittenError, UsageError } from '../../cli/errors.js';
import type { JournalStore } from '../../journal/store.js';
import type { ChangeMeta } from '../../journal/records.js';

export function findChange(store: JournalStore, ref: string): ChangeMeta {
  const change = store.find(ref);
  if (change !== undefined) return change;
  throw new UsageError(
    ref === 'last' ? 'no change kept yet: `wsm history` lists them' : `no change "${ref}" kept on this machine (see \`wsm history\`)`,
  );
}

/** Who is writing a change, as a sentence names them. */
export const writerOf = (change: ChangeMeta) => (change.pid !== undefined ? `process ${change.pid} (another wsm)` : 'another wsm');

/**
 * The change `ref` names, whole: one another wsm is still writing is refused (its records are still
 * coming, so an undo of it would leave the rest). A change whose writer died (Ctrl-C, SIGKILL, a
 * crash) holds no lock and is taken as far as it was written.
 */
export function findSettledChange(store: JournalStore, ref: string): ChangeMeta {
  const change = findChange(store, ref);
  if (change.ended !== undefined) return change;
  if (store.beingWritten(change))
    throw new ChangeBeingWrittenError(
      `change ${change.id} (${change.summary}) is still being written by ${writerOf(change)}: wait for it to end, or stop it, then undo it; nothing was sent`,
    );
  // Read again: a writer that ended between the two reads has said its failures by now.
  return findChange(store, change.id);
}
