// The header row of a file wsm reads contacts from (`contacts import`, `update|delete --from`): each column named once.
import { RequestValidationError } from './errors.js';

/**
 * A column named twice (`id,name,name`, or `Name` beside `name`) is read by one reader from its
 * first cell and by another from its last, the other dropped unseen: which one the file means is not
 * for wsm to guess. `header`: the names as the reader matches them, '' for a column no reader reads.
 * One pass over the header, whose width the file decides.
 */
export function refuseRepeatedColumns(header: string[], source: string): void {
  const places = new Map<string, number[]>();
  header.forEach((name, index) => {
    if (name === '') return;
    const at = places.get(name);
    if (at === undefined) places.set(name, [index + 1]);
    else at.push(index + 1);
  });
  const errors: Record<string, string[]> = {};
  for (const [name, at] of places) if (at.length > 1) errors[name] = [`columns ${at.join(' and ')} are both "${name}": keep one.`];
  if (Object.keys(errors).length > 0) throw new RequestValidationError(`${source} names a column twice: nothing was sent`, errors);
}
