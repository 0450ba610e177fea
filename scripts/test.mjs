// `npm test`: the build (tsc to dist/, which the end-to-end tests run), the type check of src/ and
// test/ and the lint side by side, then vitest. tsc uses one core: run one after the other, they left the
// second core idle for their whole time. Each one's output is printed whole once it ends, so the
// two never interleave; arguments go to vitest (`npm test -- test/cli`).
import { spawn } from 'node:child_process';

/** Runs `npm run <script>`, its output kept; resolves to its exit code and output. */
function npmRun(script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (code, signal) => resolve({ script, code: code ?? 1, signal, output: Buffer.concat(chunks).toString() }));
  });
}

const steps = await Promise.all([npmRun('build'), npmRun('typecheck'), npmRun('lint')]);
for (const step of steps) {
  if (step.output !== '') process.stdout.write(step.output.endsWith('\n') ? step.output : `${step.output}\n`);
  if (step.code !== 0) process.stderr.write(`npm run ${step.script} failed (${step.signal ?? `exit ${step.code}`})\n`);
}
if (steps.some((step) => step.code !== 0)) process.exit(1);

const vitest = spawn('vitest', ['run', ...process.argv.slice(2)], { stdio: 'inherit' });
vitest.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
