// The plan: what the server holds against what the file declares, as a list of changes. Pure:
// no I/O, so every rule (sets, prune, replacement, what cannot be seen) is tested directly.
import { WORKSPACE_SECTIONS, type WorkspaceFile, type WorkspaceSection } from '../../api/schemas/index.js';
import { SECTIONS, type Entry, type Item, type Observed } from './sections.js';

/**
 * `create` +, `update` ~ (in place), `replace` -/+ (delete, then create: `--replace-templates`),
 * `delete` - (only with `--prune`), `blocked` ! (cannot be done in place, and not allowed to replace).
 */
export type Action = 'create' | 'update' | 'replace' | 'delete' | 'blocked';

export interface FieldChange {
  field: string;
  old: unknown;
  new: unknown;
  /** For set attributes (role permissions): what the change adds and removes. */
  added?: string[];
  removed?: string[];
}

export interface Change {
  action: Action;
  section: WorkspaceSection;
  key: string;
  /** The server's id (update, replace, delete, blocked). */
  id?: number;
  fields: FieldChange[];
  /** The file's entry (create, update, replace). */
  entry?: unknown;
  /** A create in a section the server cannot list: the item may exist unseen. */
  unseen?: boolean;
  /** Operations the change needs that this server lacks (`updating a role`): apply refuses the plan. */
  unsupported?: string[];
}

/** What could be read of one section on the server. */
export interface SectionView {
  items: Observed[];
  /** False when the server cannot list the section: `items` are only those found by recorded ids. */
  complete: boolean;
  notes: string[];
}

export type Observation = Partial<Record<WorkspaceSection, SectionView>>;

export interface PlanOptions {
  prune: boolean;
  replaceTemplates: boolean;
}

export interface Plan {
  changes: Change[];
  /** On the server, not in the file, and kept (no --prune, or built in). */
  unmanaged: Array<{ section: WorkspaceSection; key: string; id: number }>;
  /** What the plan cannot see or compare. */
  notes: string[];
  counts: Record<Action, number>;
}

const ACTIONS: Action[] = ['create', 'update', 'replace', 'delete', 'blocked'];

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The attributes that differ, for the attributes both sides can show. */
function compareItems(section: WorkspaceSection, desired: Item, current: Item): FieldChange[] {
  const spec = SECTIONS[section];
  const fields = [...new Set([...Object.keys(current.attrs), ...Object.keys(desired.attrs)])].filter(
    (f) => !current.unreported?.includes(f),
  );
  const changes: FieldChange[] = [];
  for (const field of fields) {
    const before = current.attrs[field];
    const after = desired.attrs[field];
    if (spec.comparison[field] === 'set') {
      const old = new Set(before as string[]);
      const wanted = new Set(after as string[]);
      const added = [...wanted].filter((name) => !old.has(name));
      const removed = [...old].filter((name) => !wanted.has(name));
      if (added.length || removed.length) changes.push({ field, old: before, new: after, added, removed });
    } else if (!sameValue(before, after)) {
      changes.push({ field, old: before ?? null, new: after ?? null });
    }
  }
  return changes;
}

const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function planSection<S extends WorkspaceSection>(
  section: S,
  entries: Entry<S>[],
  view: SectionView,
  options: PlanOptions,
  plan: Plan,
): void {
  const spec = SECTIONS[section];
  const current = new Map(view.items.map((item) => [item.key, item]));
  const declared = new Set<string>();
  const changes: Change[] = [];
  for (const entry of entries) {
    const desired = spec.item(entry);
    declared.add(desired.key);
    const found = current.get(desired.key);
    if (!found) {
      changes.push({ action: 'create', section, key: desired.key, fields: [], entry, ...(view.complete ? {} : { unseen: true }) });
      continue;
    }
    if (found.builtIn) {
      // The server's own record cannot be changed by any run: the entry is not applied, and the plan says so.
      if (compareItems(section, desired, found).length > 0)
        plan.notes.push(`${section} ${desired.key}: built in on the server, which never changes it: its entry in the file is not applied`);
      continue;
    }
    for (const field of found.unreported ?? []) {
      if (field in desired.attrs)
        plan.notes.push(`${section} ${desired.key}: the server does not show its ${field}, so they are not compared`);
    }
    const fields = compareItems(section, desired, found);
    if (fields.length === 0) continue;
    const inPlace = fields.every((f) => spec.updatable.includes(f.field));
    const action: Action = inPlace ? 'update' : options.replaceTemplates ? 'replace' : 'blocked';
    changes.push({ action, section, key: desired.key, id: found.id, fields, entry });
  }
  for (const found of view.items) {
    if (declared.has(found.key) || found.builtIn) continue;
    if (options.prune) changes.push({ action: 'delete', section, key: found.key, id: found.id, fields: [] });
    else plan.unmanaged.push({ section, key: found.key, id: found.id });
  }
  plan.changes.push(...changes.sort(byKey));
  plan.notes.push(...view.notes);
}

/** The plan for the sections the file declares; a section left out of the file is not managed. */
export function makePlan(file: WorkspaceFile, observation: Observation, options: PlanOptions): Plan {
  const plan: Plan = {
    changes: [],
    unmanaged: [],
    notes: [],
    counts: Object.fromEntries(ACTIONS.map((a) => [a, 0])) as Record<Action, number>,
  };
  for (const section of WORKSPACE_SECTIONS) {
    const entries = file[section];
    const view = observation[section];
    if (entries === undefined || view === undefined) continue;
    planSection(section, entries as Entry<typeof section>[], view, options, plan);
  }
  for (const change of plan.changes) plan.counts[change.action]++;
  return plan;
}

/**
 * The order apply runs the changes in: creates, updates and replacements section by section
 * (fields, groups, labels, roles, templates), then deletes in the reverse order.
 */
export function executionOrder(plan: Plan): Change[] {
  const rank = (section: WorkspaceSection) => WORKSPACE_SECTIONS.indexOf(section);
  const forward = plan.changes.filter((c) => c.action !== 'delete' && c.action !== 'blocked');
  const deletes = plan.changes.filter((c) => c.action === 'delete');
  return [...forward.sort((a, b) => rank(a.section) - rank(b.section)), ...deletes.sort((a, b) => rank(b.section) - rank(a.section))];
}
