// `wsm diff -f FILE [--prune] [--replace-templates] [--state FILE]`: the plan, and Terraform's
// detailed exit code: 0 no changes, 2 changes planned, anything else a failure.
import { typedRun, type VerbRun } from '../shared/verb.js';
import type { diff } from '../diff.js';
import { ChangesPlannedError } from '../../cli/errors.js';
import { applyCommand, preparePlan } from './prepare.js';
import { planData, planText } from './render.js';

export const run: VerbRun = typedRun<typeof diff>(async (ctx, { opts }) => {
  const { loaded, plan, target } = await preparePlan(ctx, opts);
  if (ctx.output.structured) ctx.output.json(planData(plan, { file: loaded.path, target }));
  else ctx.output.text(planText(plan, loaded.path, ctx.io.colorEnabled, target));
  const count = plan.changes.length;
  if (count > 0) {
    throw new ChangesPlannedError(`${count} change${count === 1 ? '' : 's'} planned: the workspace differs from ${loaded.path} (\`${applyCommand(loaded.path, opts)}\` makes ${count === 1 ? 'it' : 'them'})`);
  }
});
