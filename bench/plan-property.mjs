// Plan = apply, held longer than npm test holds it: the property of test/e2e/plan-property.test.ts
// (the contacts a dry run predicts are the contacts the real run leaves, for generated workspaces
// and files, CSV and .xlsx, on wsm serve and on the stand-in of the published API) run for many
// more generated cases. WSM_PLAN_SEED=<n> replays a failing seed.
//   node bench/plan-property.mjs [runs=400]
import { spawnSync } from 'node:child_process';

const runs = process.argv[2] ?? '400';
const started = process.hrtime.bigint();
const result = spawnSync('npx', ['vitest', 'run', 'test/e2e/plan-property.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, WSM_PLAN_RUNS: runs },
});
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(
  `plan = apply: ${runs} generated cases a backend, ${result.status === 0 ? 'every one held' : 'a case FAILED'} (${seconds.toFixed(1)} s)`,
);
process.exitCode = result.status ?? 1;
