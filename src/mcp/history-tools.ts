// The change journal as tools: history.list (the changes wsm made from this machine) and
// history.undo, which returns the undo's plan first and makes it only with `confirm: true`. Each
// calls the CLI verb's own `run` with the call's Context (call.ts) and returns its data.
import * as z from 'zod';
import type { ToolSpec } from './tool.js';
import { confirm, messages } from './workflow-args.js';

const listInput = z.strictObject({
  limit: z.number().int().positive().default(20).describe('At most this many changes, newest first.'),
});

export const historyList: ToolSpec = {
  name: 'history.list',
  toolset: 'history',
  title: 'List the changes wsm made',
  description:
    'The contact changes made from this machine (the change journal), newest first: id, when, profile, base URL, ' +
    'workspace, command, summary, records, failed. history.undo takes an id.',
  input: listInput,
  output: z.object({ changes: z.array(z.looseObject({ id: z.string() })), messages }),
  hints: { readOnly: true, destructive: false, idempotent: true },
  published: true,
  async run(raw, call) {
    const args = raw as z.output<typeof listInput>;
    const list = await import('../commands/history/list.js');
    return { changes: (await list.run(call.ctx)).slice(0, args.limit), messages: call.messages() };
  },
};

const undoInput = z.strictObject({
  change: z.string().min(1).describe('A change id from history.list, or "last".'),
  force: z.boolean().default(false).describe('Also set back contacts changed again since the change.'),
  confirm,
});

export const historyUndo: ToolSpec = {
  name: 'history.undo',
  toolset: 'history',
  title: 'Undo a change wsm made',
  description:
    'Computes the undo of a change against the workspace and returns it as a plan (contacts set back, deleted, created ' +
    'again; those changed since flagged and left unless force). With confirm: true it makes the plan and returns each result.',
  input: undoInput,
  output: z.object({
    plan: z.looseObject({}),
    results: z.array(z.looseObject({})).optional().describe('Each request of the undo: id, outcome, status, message.'),
    messages,
  }),
  hints: { readOnly: false, destructive: true, idempotent: false },
  published: true,
  async run(raw, call) {
    const args = raw as z.output<typeof undoInput>;
    const undo = await import('../commands/undo/undo.js');
    call.ctx.journalCommand = `wsm mcp: history.undo ${args.change}${args.force ? ' force' : ''}`;
    const options = { ref: args.change, dryRun: args.confirm !== true, force: args.force, concurrency: 8 };
    const result = await undo.run(call.ctx, options);
    undo.settle(call.ctx, result, options);
    return { plan: result.plan, ...(result.reports !== undefined ? { results: result.reports } : {}), messages: call.messages() };
  },
};
