// `wsm diff -f FILE [--prune] [--replace-templates] [--state FILE]`: the plan, and Terraform's
// detailed exit code: 0 no changes, 2 changes planned, anything else a failure.
import type { Context } from '../../cli/context.js';
import { ChangesPlannedError } from '../../cli/errors.js';
import type { CommandLine } from '../declare.js';
import type { PLAN_FLAGS, PlanOptions } from '../plan-options.js';
import { applyCommand, preparePlan, type Prepared } from './prepare.js';
import { planData, planText } from './render.js';

export function parse({ opts }: CommandLine<typeof PLAN_FLAGS>): PlanOptions {
  return opts;
}

/** The plan of the file against the workspace; nothing is changed. */
export function run(ctx: Context, options: PlanOptions): Promise<Prepared> {
  return preparePlan(ctx, options);
}

/** The plan as data, as -o json prints it and `wsm mcp` returns it. */
export function diffData({ plan, loaded, target }: Prepared): ReturnType<typeof planData> {
  return planData(plan, { file: loaded.path, target });
}

export function render(ctx: Context, prepared: Prepared): void {
  if (ctx.output.structured) ctx.output.json(diffData(prepared));
  else ctx.output.text(planText(prepared.plan, prepared.loaded.path, ctx.io.colorEnabled, prepared.target));
}

/** Changes planned: exit 2, saying the command that makes them. */
export function settle(_ctx: Context, { plan, loaded }: Prepared, options: PlanOptions): void {
  const count = plan.changes.length;
  if (count > 0) {
    throw new ChangesPlannedError(
      `${count} change${count === 1 ? '' : 's'} planned: the workspace differs from ${loaded.path} (\`${applyCommand(loaded.path, options)}\` makes ${count === 1 ? 'it' : 'them'})`,
    );
  }
}
