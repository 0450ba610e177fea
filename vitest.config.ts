import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Files that start processes (wsm serve, the binary, terminals) or run wsm in-process against them. */
const PROCESSES = [
  'test/e2e/**/*.test.ts',
  'test/hardening/**/*.test.ts',
  'test/cli/startup.test.ts',
  'test/cli/launcher.test.ts',
  'test/summary-reporter.test.ts',
];

/** Files that replace a module (vi.mock): in a shared worker another file may have loaded it first. */
const MOCKS = ['test/cli/commands/import-copy-limit.test.ts'];

/**
 * A hang guard, not a speed budget. A test waits for its event (a line, an exit code, a state),
 * however long a loaded machine takes, and sets no time-out of its own (test/suite-rules.test.ts);
 * only a test or hook whose event never comes ends here. Speed is measured in bench/, as ratios.
 */
const HANG_GUARD_MS = 5 * 60_000;

export default defineConfig({
  test: {
    pool: 'forks',
    // vitest's own default is one worker fewer than the cores: one file at a time on a 2-core
    // machine, a core idle whenever a file waits on wsm serve, a terminal or the clock. Files wait
    // often enough that one worker more than the cores keeps them busy: on 2 cores, the whole suite
    // back to back took 187 s with 2 workers and 166 s with 3, for 7% more CPU.
    maxWorkers: availableParallelism() + 1,
    testTimeout: HANG_GUARD_MS,
    hookTimeout: HANG_GUARD_MS,
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        // In-process tests (app.inject, fake IO, MockAgent) share their workers: loading src/ and
        // its dependencies afresh for every file cost more CPU than the tests themselves. Such a
        // file leaves the process as it found it (process.env, dispatchers, listeners).
        extends: true,
        test: { name: 'in-process', include: ['test/**/*.test.ts'], exclude: [...PROCESSES, ...MOCKS], isolate: false },
      },
      {
        // Files of their own workers, one after another as in-process's: the bundle and the server
        // wsm runs in-process (test/e2e/in-process.ts, serve-in-process.ts) load once per worker, not
        // once per file (about 0.4 s of CPU a file). Their processes are the children they start and
        // stop; such a file, too, leaves the worker as it found it.
        extends: true,
        test: { name: 'processes', include: PROCESSES, isolate: false },
      },
      {
        // A process of its own per file: the module a file replaces is loaded afresh for it alone.
        extends: true,
        test: { name: 'mocks', include: MOCKS },
      },
    ],
  },
});
