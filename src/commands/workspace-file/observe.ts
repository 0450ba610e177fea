// Reading what the server holds, section by section: the whole list where the server has one,
// otherwise the records whose ids the state file kept. What cannot be seen is said in notes.
import type { WsmClient } from '../../api/client.js';
import { NotFoundError, UnsupportedEndpointError } from '../../api/errors.js';
import type { WorkspaceSection } from '../../api/schemas/index.js';
import type { Observation, SectionView } from './plan.js';
import { SECTIONS, type Observed } from './sections.js';
import type { StateFile } from './state.js';

/** The server has no such operation: the client says so (UnsupportedEndpointError), nothing here guesses. */
export function isUnsupported(error: unknown): boolean {
  return error instanceof UnsupportedEndpointError;
}

export interface ObserveResult {
  observation: Observation;
  /** Ids in the state file whose records are gone: apply forgets them. */
  stale: Array<{ section: WorkspaceSection; key: string }>;
}

async function listAll(client: WsmClient, section: WorkspaceSection): Promise<Observed[] | undefined> {
  const spec = SECTIONS[section];
  const items: Observed[] = [];
  try {
    for await (const record of spec.iterate(client)) items.push({ ...spec.observe(record), record });
  } catch (error) {
    if (isUnsupported(error)) return undefined;
    throw error;
  }
  return items;
}

async function readRecorded(
  client: WsmClient,
  section: WorkspaceSection,
  state: StateFile | undefined,
  stale: ObserveResult['stale'],
): Promise<SectionView> {
  const spec = SECTIONS[section];
  const cannot = `${section}: this server cannot list ${section}`;
  if (!state) {
    return {
      items: [],
      complete: false,
      notes: [`${cannot} and no state file is in use (--state), so none can be seen: the file's ${section} are planned as creates`],
    };
  }
  const items: Observed[] = [];
  const notes: string[] = [];
  for (const [key, id] of Object.entries(state.ids(section))) {
    try {
      const record = await spec.get(client, id);
      items.push({ ...spec.observe(record), record });
    } catch (error) {
      if (isUnsupported(error)) {
        return {
          items: [],
          complete: false,
          notes: [`${cannot} nor read one by id, so none can be seen: the file's ${section} are planned as creates`],
        };
      }
      if (!(error instanceof NotFoundError)) throw error;
      stale.push({ section, key });
      notes.push(`${section} ${key}: id ${id} in ${state.path} no longer exists`);
    }
  }
  const seen = `${cannot}: only the ${items.length} whose ids ${state.path} holds can be seen`;
  notes.unshift(`${seen}; the file's other ${section} are planned as creates, and ${section} made elsewhere are neither shown nor pruned`);
  return { items, complete: false, notes };
}

/** Reads the given sections (the ones the file declares, or all for pull). */
export async function observe(client: WsmClient, sections: readonly WorkspaceSection[], state?: StateFile): Promise<ObserveResult> {
  const observation: Observation = {};
  const stale: ObserveResult['stale'] = [];
  for (const section of sections) {
    const listed = await listAll(client, section);
    observation[section] = listed ? { items: listed, complete: true, notes: [] } : await readRecorded(client, section, state, stale);
  }
  return { observation, stale };
}
