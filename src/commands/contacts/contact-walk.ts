// The workspace's contact list walked on the page engine (several pages in flight), with a
// progress line on a terminal while it lasts.
import type { WsmClient } from '../../api/client.js';
import type { Contact } from '../../api/schemas/index.js';
import type { Context } from '../../cli/context.js';

/** Every contact of the list, one by one; the progress line ends when the walk does, or when the caller stops early. */
export async function* walkContacts(
  ctx: Context,
  client: WsmClient,
  concurrency: number,
  label: string,
  pages?: number,
): AsyncGenerator<Contact> {
  const progress = ctx.io.progress(label, pages);
  try {
    yield* client.contacts.list().rows({ concurrency, progress: (event) => progress.update(event.done, event.total) });
  } finally {
    progress.done();
  }
}
