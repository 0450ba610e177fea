import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Two cores: forks keep better-sqlite3 and spawned servers isolated per file.
    pool: 'forks',
    // vitest's own default is one worker fewer than the cores: one file at a time on a 2-core
    // machine, a core idle whenever a file waits on wsm serve, a terminal or the clock. One worker
    // per core; the processes the end-to-end files start take up the rest.
    maxWorkers: availableParallelism(),
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
