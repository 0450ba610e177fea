/**
 * `wsm` run inside the test's own process: the entry point the binary runs (`main` of the built
 * bundle, dist/bundle/cli.js, which bin/wsm.js loads) with the environment given (its WSM_CONFIG_DIR a real config directory), stdin a closed pipe
 * holding `input`, stdout and stderr pipes whose bytes are captured, and the exit code main
 * returns, which is the code the binary exits with. The answer is what `wsm()` of processes.ts
 * gives for the real binary; test/e2e/in-process.test.ts runs a sample of commands both ways and
 * compares them. A start of the binary costs 0.2-0.6 s of CPU; this costs a few milliseconds.
 *
 * Use it where the command's behaviour is the point. Where the process is the point (the
 * launcher, start-up, signals, `wsm serve`, terminals, a shell running wsm), use processes.ts.
 * A crash that would print a stack and exit 1 in the binary fails the test run here instead
 * (vitest reports the unhandled error).
 *
 * The bundle, not src/, for the same reason the binary loads it: Node loads its few chunks natively
 * where vitest would evaluate some 200 modules of src/ and its dependencies afresh in every file's
 * process. Like the binary, it needs `npm run build`.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { main as mainOfSource } from '../../src/cli.js';
import { createTestIO } from '../../src/cli/io.js';
import { type RunResult, wsm } from './processes.js';

const BUNDLE = pathToFileURL(resolve(import.meta.dirname, '../../dist/bundle/cli.js')).href;
let loading: Promise<typeof mainOfSource> | undefined;
const bundledMain = () => (loading ??= import(BUNDLE).then((bundle: { main: typeof mainOfSource }) => bundle.main));

/**
 * Variables that libraries read from process.env rather than from the CLI's own env (undici's
 * proxy agent; colour decisions): for a run they are set in process.env as the binary would see
 * them. Runs in flight together must agree on them.
 */
const PROCESS_WIDE = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'FORCE_COLOR',
  'NO_COLOR',
  'CLICOLOR_FORCE',
  'NODE_DISABLE_COLORS',
  'TERM',
];

let inFlight = 0;
let worn: Record<string, string | undefined> | undefined;
const saved: Record<string, string | undefined> = {};

function wear(env: NodeJS.ProcessEnv): void {
  const wanted = Object.fromEntries(PROCESS_WIDE.map((key) => [key, env[key]]));
  if (inFlight > 0) {
    const differs = PROCESS_WIDE.filter((key) => wanted[key] !== worn![key]);
    if (differs.length > 0)
      throw new Error(
        `in-process wsm runs at the same time need the same ${differs.join(', ')}: run one after the other, or use the binary (processes.ts)`,
      );
  } else {
    for (const key of PROCESS_WIDE) saved[key] = process.env[key];
    for (const key of PROCESS_WIDE) setVariable(key, wanted[key]);
    worn = wanted;
  }
  inFlight += 1;
}

function takeOff(): void {
  inFlight -= 1;
  if (inFlight > 0) return;
  for (const key of PROCESS_WIDE) setVariable(key, saved[key]);
  worn = undefined;
}

function setVariable(key: string, value: string | undefined): void {
  if (value === undefined) delete process.env[key];
  else process.env[key] = value;
}

/** Runs `wsm <args>` in this process with no terminal, as `wsm(env, args, input)` runs the binary. */
export async function wsmInProcess(env: NodeJS.ProcessEnv, args: string[], input?: string): Promise<RunResult> {
  const io = createTestIO({ stdin: input ?? '' });
  wear(env);
  try {
    const main = await bundledMain();
    const code = await main([...args], { io, env: { ...env } });
    return { code, stdout: io.stdoutText, stderr: io.stderrText };
  } finally {
    takeOff();
  }
}

/** The words that name a command (`contacts update`): its first two, unless a flag or an argument comes first. */
function commandOf(args: string[]): string {
  const end = args.findIndex((arg) => !/^[a-z][a-z-]*$/.test(arg));
  return args.slice(0, Math.min(2, end < 0 ? args.length : end)).join(' ');
}

/**
 * A runner for a file whose point is what commands do: the first run of each command (its words,
 * `contacts update`) goes to the built binary, so the bundle runs every command the file covers
 * end to end, and every later run of it goes in-process.
 */
export function binaryFirstRunner(): (env: NodeJS.ProcessEnv, args: string[], input?: string) => Promise<RunResult> {
  const seen = new Set<string>();
  return (env, args, input) => {
    const command = commandOf(args);
    if (seen.has(command)) return wsmInProcess(env, args, input);
    seen.add(command);
    return wsm(env, args, input);
  };
}
