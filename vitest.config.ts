import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Files that start processes (wsm serve, the binary, terminals) or run wsm in-process against them,
 * and files that replace a module (vi.mock): in the shared workers another file may have loaded it first.
 */
const PROCESSES = [
  'test/e2e/**/*.test.ts',
  'test/hardening/**/*.test.ts',
  'test/cli/startup.test.ts',
  'test/cli/launcher.test.ts',
  'test/summary-reporter.test.ts',
  'test/cli/commands/import-copy-limit.test.ts',
];

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
    // machine, a core idle whenever a file waits on wsm serve, a terminal or the clock. One worker
    // per core; the processes the end-to-end files start take up the rest.
    maxWorkers: availableParallelism(),
    testTimeout: HANG_GUARD_MS,
    hookTimeout: HANG_GUARD_MS,
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        // In-process tests (app.inject, fake IO, MockAgent) share their workers: loading src/ and
        // its dependencies afresh for every file cost more CPU than the tests themselves. Such a
        // file leaves the process as it found it (process.env, dispatchers, listeners).
        extends: true,
        test: { name: 'in-process', include: ['test/**/*.test.ts'], exclude: PROCESSES, isolate: false },
      },
      {
        // A process of their own per file: servers, signals and in-process wsm runs stay apart.
        extends: true,
        test: { name: 'processes', include: PROCESSES },
      },
    ],
  },
});
