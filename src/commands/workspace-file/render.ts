// The plan as people read it (Terraform's symbols, one self-contained line per changed field, so
// `grep` finds `~ labels urgent color "#ff0000" → "#00ff00"`) and as scripts read it (-o json).
import { paint, type Style } from '../../cli/color.js';
import type { SettingSource } from '../../cli/context.js';
import { jsonText } from '../../cli/text.js';
import type { Action, Change, FieldChange, Plan } from './plan.js';

/** What a plan was made against: a plan that does not say so may be applied to the wrong workspace. */
export interface PlanTarget {
  server: string;
  serverFrom?: SettingSource;
  workspace: string;
  /** Unknown when the server would not say (the plan still goes on). */
  workspaceName?: string;
  workspaceFrom?: SettingSource;
  /** The profile in use; undefined when none is saved (the settings came from flags and the environment). */
  profile?: string;
}

const SYMBOLS: Record<Action, string> = { create: '+', update: '~', replace: '-/+', delete: '-', blocked: '!' };
const COLOURS: Record<Action, Style> = { create: 'green', update: 'yellow', replace: 'magenta', delete: 'red', blocked: 'magenta' };

/** Names print bare when they are one plain word, quoted (as JSON) otherwise. */
function keyText(key: string): string {
  return /^[\w./-]+$/u.test(key) ? key : jsonText(key);
}

function valueText(value: unknown): string {
  return jsonText(value ?? null);
}

function fieldText(change: FieldChange): string {
  if (change.added || change.removed) {
    return [change.field, ...(change.added ?? []).map((n) => `+${n}`), ...(change.removed ?? []).map((n) => `-${n}`)].join(' ');
  }
  return `${change.field} ${valueText(change.old)} → ${valueText(change.new)}`;
}

/** `~ labels urgent`: the start of every line about one change. */
export function changeTitle(change: Change): string {
  return `${SYMBOLS[change.action]} ${change.section} ${keyText(change.key)}`;
}

function changeLines(change: Change, colour: boolean): string[] {
  const title = paint(colour, COLOURS[change.action], changeTitle(change));
  const mark = change.unsupported ? ` (not on this server: ${change.unsupported.join(', ')})` : '';
  if (change.fields.length === 0) return [title + (change.unseen ? ' (unseen)' : '') + mark];
  return change.fields.map((field) => `${title} ${fieldText(field)}${mark}`);
}

function countsLine(plan: Plan): string {
  const { create, update, replace, delete: remove, blocked } = plan.counts;
  // A blocked change (!) is counted too: it is why diff exits 2 although nothing else is planned.
  return `Plan: ${create} to create, ${update} to update, ${replace} to replace, ${remove} to delete${blocked > 0 ? `, ${blocked} blocked` : ''}.`;
}

const FROM: Record<'baseUrl' | 'workspace', Partial<Record<SettingSource, string>>> = {
  baseUrl: { flag: ' (from --base-url)', env: ' (from WSM_BASE_URL)' },
  workspace: { flag: ' (from -w)', env: ' (from WSM_WORKSPACE)' },
};

/** `Workspace: Staging (4b1e…)`: the name when the server gave one, always the id. */
export function workspaceText(target: Pick<PlanTarget, 'workspace' | 'workspaceName'>): string {
  return target.workspaceName ? `${target.workspaceName} (${target.workspace})` : target.workspace;
}

/** The head of every plan: server, workspace and profile, each saying where it came from unless the profile. */
function targetLines(target: PlanTarget): string[] {
  return [
    `Server:    ${target.server}${(target.serverFrom && FROM.baseUrl[target.serverFrom]) ?? ''}`,
    `Workspace: ${workspaceText(target)}${(target.workspaceFrom && FROM.workspace[target.workspaceFrom]) ?? ''}`,
    `Profile:   ${target.profile ?? '(none)'}`,
  ];
}

/** The whole plan as text: what it is against, the changes in section order, the count, then what it cannot see. */
export function planText(plan: Plan, file: string, colour: boolean, target?: PlanTarget): string {
  const lines: string[] = target ? [...targetLines(target), ''] : [];
  let previous: string | undefined;
  for (const change of plan.changes) {
    if (previous !== undefined && previous !== change.section) lines.push('');
    previous = change.section;
    lines.push(...changeLines(change, colour));
  }
  if (plan.changes.length === 0) lines.push(`No changes: the workspace matches ${file}.`);
  else lines.push('', countsLine(plan));
  if (plan.counts.blocked > 0) {
    lines.push(
      `${plan.counts.blocked} cannot be done in place (!): the API has no template update. Pass --replace-templates to delete and re-create them (the provider reviews them again), or restore their content in ${file}.`,
    );
  }
  const unsupported = plan.changes.filter((c) => c.unsupported).length;
  if (unsupported > 0) {
    lines.push(
      `${unsupported === 1 ? '1 change is' : `${unsupported} changes are`} "not on this server": it lacks operations they need (extensions of wsm serve), so apply refuses the plan. Make ${unsupported === 1 ? 'that change' : 'those changes'} another way, or take ${unsupported === 1 ? 'it' : 'them'} out of ${file}.`,
    );
  }
  if (plan.unmanaged.length > 0) {
    const names = plan.unmanaged.map((item) => `${item.section} ${keyText(item.key)}`).join(', ');
    lines.push(`Not in ${file}, kept (--prune deletes them): ${names}.`);
  }
  for (const note of plan.notes) lines.push(`Note: ${note}.`);
  return lines.join('\n') + '\n';
}

/** The plan as data for -o json. */
export function planData(plan: Plan, context: { file: string; target: PlanTarget }) {
  const { target } = context;
  return {
    file: context.file,
    server: target.server,
    workspace: target.workspace,
    workspace_name: target.workspaceName ?? null,
    profile: target.profile ?? null,
    changes: plan.changes.map(({ action, section, key, id, fields, unseen, unsupported }) => ({
      action,
      section,
      key,
      ...(id !== undefined ? { id } : {}),
      fields,
      ...(unseen ? { unseen } : {}),
      ...(unsupported ? { unsupported } : {}),
    })),
    counts: plan.counts,
    unmanaged: plan.unmanaged,
    notes: plan.notes,
  };
}
