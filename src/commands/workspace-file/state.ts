// The state file: where the ids that apply created are kept for the sections a server cannot
// list (the published API has no list of labels or templates), so that the next diff reads them by id.
// One file can serve several servers and workspaces (staging and production applying the same
// workspace file): the ids are kept per workspace URL.
import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { WORKSPACE_SECTIONS, check, type WorkspaceSection } from '../../api/schemas/index.js';
import { RequestValidationError, UsageError } from '../../cli/errors.js';
import { replaceFile } from '../../cli/replace-file.js';

const idsByKey = z.record(z.string(), z.number().int().positive());
const target = z.object(Object.fromEntries(WORKSPACE_SECTIONS.map((s) => [s, idsByKey.optional()]))).partial();
const stateSchema = z.object({
  version: z.literal(1),
  /** Keyed by `<base URL>/workspaces/<uuid>`. */
  workspaces: z.record(z.string(), target),
});

type Ids = Record<string, number>;
type TargetState = Partial<Record<WorkspaceSection, Ids>>;

export interface StateFile {
  readonly path: string;
  /** The ids recorded for one section of the target workspace (empty when none). */
  ids(section: WorkspaceSection): Ids;
  record(section: WorkspaceSection, key: string, id: number): Promise<void>;
  forget(section: WorkspaceSection, key: string): Promise<void>;
}

/** `workspace.yaml` -> `workspace.yaml.state.json`; stdin has no default. */
export function defaultStatePath(filePath: string): string | undefined {
  return filePath === '-' ? undefined : `${filePath}.state.json`;
}

function targetKey(baseUrl: string, workspace: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/workspaces/${workspace}`;
}

async function load(path: string): Promise<z.infer<typeof stateSchema>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, workspaces: {} };
    throw new UsageError(`cannot read the state file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new RequestValidationError(`the state file ${path} is not JSON: fix or remove it`, {});
  }
  const parsed = check(stateSchema, data);
  if (!parsed.ok) throw new RequestValidationError(`the state file ${path} is not a wsm state file: fix or remove it`, parsed.errors);
  return parsed.value;
}

/**
 * Opens the state file for one workspace. Nothing is written until an id is recorded or
 * forgotten; each write replaces the file whole (write, then rename), so an interrupted apply
 * leaves the ids of everything it had created.
 */
export async function openState(path: string, baseUrl: string, workspace: string): Promise<StateFile> {
  const state = await load(path);
  const key = targetKey(baseUrl, workspace);
  const mine = (): TargetState => (state.workspaces[key] ??= {});
  const save = async () => {
    await replaceFile(path, JSON.stringify(state, null, 2) + '\n');
  };
  return {
    path,
    ids: (section) => ({ ...(state.workspaces[key]?.[section] ?? {}) }),
    async record(section, item, id) {
      const target = mine();
      if (target[section]?.[item] === id) return;
      (target[section] ??= {})[item] = id;
      await save();
    },
    async forget(section, item) {
      const ids = state.workspaces[key]?.[section];
      if (ids?.[item] === undefined) return;
      delete ids[item];
      await save();
    },
  };
}
