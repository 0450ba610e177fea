/** The success envelopes of the published API, with decisions.md §1's message texts. */
import type { Created, Deleted, Updated } from '../../api/schemas/index.js';

export const created = <T>(resource: string, data: T): Created<T> => ({
  status: 201,
  message: `${resource} created successfully.`,
  data,
});
export const updated = <T>(resource: string, data: T): Updated<T> => ({
  status: 200,
  message: `${resource} updated successfully.`,
  data,
});
export const deletedEnvelope = (resource: string): Deleted => ({
  message: `${resource} deleted successfully.`,
  status: 200,
});
