// The header row of an `update|delete --from` file: each column named once.
import { RequestValidationError } from '../../cli/errors.js';

/**
 * A column named twice (`id,name,name`, or `Name` beside `name`) would be read by its last cell
 * alone, the other dropped unseen: which one the file means is not for wsm to guess.
 */
export function refuseRepeatedColumns(header: string[], source: string): void {
  const errors: Record<string, string[]> = {};
  for (const name of new Set(header.filter((each) => each !== ''))) {
    const at = header.flatMap((each, index) => (each === name ? [index + 1] : []));
    if (at.length > 1) errors[name] = [`columns ${at.join(' and ')} are both "${name}": keep one.`];
  }
  if (Object.keys(errors).length > 0) throw new RequestValidationError(`${source} names a column twice: nothing was sent`, errors);
}
