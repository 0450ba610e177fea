// The workspace file as tools: pull, diff, and apply of a reviewed plan (its plan_id). Each calls
// the CLI verb's own `run` with the call's Context (call.ts) and returns its data.
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { UsageError } from '../cli/errors.js';
import type { PlanOptions } from '../commands/plan-options.js';
import type { ToolCall, ToolSpec } from './tool.js';
import { confirm, messages } from './workflow-args.js';

const planInput = {
  file: z.string().min(1).optional().describe('Path of the workspace file (YAML or JSON) on the machine this MCP server runs on.'),
  content: z.string().min(1).optional().describe('The workspace file itself (YAML or JSON), when there is no file.'),
  prune: z.boolean().default(false).describe('Also delete what the workspace has and the file does not.'),
  replace_templates: z.boolean().default(false).describe('Replace (delete, then create) templates whose content changed.'),
};
const diffInput = z.strictObject(planInput);
const applyInput = z.strictObject({
  ...planInput,
  plan_id: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .describe('The plan_id workspace_file.diff returned: the changes are made only if the plan is still that one.'),
  confirm,
});

const planOutput = z.looseObject({
  changes: z.array(z.looseObject({ action: z.string(), section: z.string(), key: z.string() })),
  counts: z.looseObject({}),
});

/** Who the verb reads: a path, or `-` with the text as the call's stdin. */
function planFlags(args: z.output<typeof diffInput>): PlanOptions {
  if ((args.file === undefined) === (args.content === undefined))
    throw new UsageError('give the workspace file as `file` (a path) or as `content` (its text), one of the two');
  return { file: args.file ?? '-', prune: args.prune || undefined, replaceTemplates: args.replace_templates || undefined };
}

/** The plan's identity: the same changes against the same workspace give the same id. */
function planId(plan: { workspace?: unknown; server?: unknown; changes: unknown[] }): string {
  return createHash('sha256')
    .update(JSON.stringify([plan.server, plan.workspace, plan.changes]))
    .digest('hex')
    .slice(0, 16);
}

/** The plan `wsm diff` makes; "changes planned" (its exit 2) is no failure here. */
async function currentPlan(call: ToolCall, flags: PlanOptions): Promise<z.output<typeof planOutput>> {
  const diff = await import('../commands/workspace-file/diff.js');
  return planOutput.parse(diff.diffData(await diff.run(call.ctx, flags)));
}

export const workspaceFileDiff: ToolSpec = {
  name: 'workspace_file.diff',
  toolset: 'workspace_file',
  title: 'Plan the changes a workspace file asks for',
  description:
    'Compares a workspace file (fields, groups, labels, roles, templates; as workspace_file.pull or the wsm://workspace-file ' +
    'resource gives it) with the workspace and returns the plan: each change (create, update, replace, delete) and a plan_id ' +
    'that workspace_file.apply takes. Changes nothing.',
  input: diffInput,
  stdinArgument: 'content',
  output: z.object({ plan: planOutput, plan_id: z.string(), messages }),
  hints: { readOnly: true, destructive: false, idempotent: true },
  published: true,
  async run(raw, call) {
    const args = raw as z.output<typeof diffInput>;
    const plan = await currentPlan(call, planFlags(args));
    return { plan, plan_id: planId(plan), messages: call.messages() };
  },
};

export const workspaceFileApply: ToolSpec = {
  name: 'workspace_file.apply',
  toolset: 'workspace_file',
  title: 'Apply a reviewed workspace plan',
  description:
    'Makes the changes of a plan that workspace_file.diff returned (give its plan_id and the same file and options), in ' +
    'dependency order. If the workspace or the file changed since, nothing is done and the new plan is returned in the error.',
  input: applyInput,
  stdinArgument: 'content',
  output: z.object({ result: z.looseObject({}), messages }),
  hints: { readOnly: false, destructive: true, idempotent: false },
  published: true,
  confirm: (raw) => {
    const args = raw as z.output<typeof applyInput>;
    return `applying plan ${args.plan_id} changes the workspace to match ${args.file ?? 'the file given'}${args.prune ? ', deleting what the file does not name' : ''}`;
  },
  async run(raw, call) {
    const args = raw as z.output<typeof applyInput>;
    const flags = planFlags(args);
    const plan = await currentPlan(call.again(), flags);
    const id = planId(plan);
    if (id !== args.plan_id) {
      throw new UsageError(
        `the plan is no longer ${args.plan_id}: the workspace or the file changed, and the plan is now ${id} (${plan.changes.length} change${plan.changes.length === 1 ? '' : 's'}); nothing was changed: review it with workspace_file.diff`,
      );
    }
    const apply = await import('../commands/workspace-file/apply.js');
    // The journal names what the agent gave: a file given as content has no name of its own.
    const given = `workspace_file.apply ${args.file ?? '(content given)'} plan ${args.plan_id}`;
    call.ctx.journalCommand = `wsm mcp: ${given}`;
    call.ctx.journalSummary = given;
    const report = await apply.run(call.ctx, flags);
    apply.settle(call.ctx, report);
    return { result: apply.applyData(report), messages: call.messages() };
  },
};

const pullInput = z.strictObject({ format: z.enum(['yaml', 'json']).default('yaml').describe('YAML (default) or JSON.') });

export const workspaceFilePull: ToolSpec = {
  name: 'workspace_file.pull',
  toolset: 'workspace_file',
  title: 'Read the workspace as a workspace file',
  description:
    "The workspace's fields, groups, labels, roles and templates as a workspace file (the same text as the wsm://workspace-file resource), ready to edit and give to workspace_file.diff.",
  input: pullInput,
  output: z.object({ format: z.enum(['yaml', 'json']), content: z.string(), messages }),
  hints: { readOnly: true, destructive: false, idempotent: true },
  published: true,
  async run(raw, call) {
    const args = raw as z.output<typeof pullInput>;
    const content = await pulledText(call, args.format);
    return { format: args.format, content, messages: call.messages() };
  },
};

/** `wsm pull`'s text: the workspace file. */
export async function pulledText(call: ToolCall, format: 'yaml' | 'json'): Promise<string> {
  const { run } = await import('../commands/workspace-file/pull.js');
  return (await run(call.ctx, { format })).text;
}
