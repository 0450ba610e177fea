/**
 * Ends every run with one plain line, `N passed, N failed[, N skipped]`, that any CI log
 * reader understands, whatever the colour settings of the default reporter.
 */
import type { SerializedError } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';

/** Counts a run's outcomes: each test once, and each failure no test carries as one more failure. */
function summarise(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<SerializedError> = [],
): { passed: number; failed: number; skipped: number } {
  let passed = 0;
  let failed = unhandledErrors.length;
  let skipped = 0;
  for (const module of testModules) {
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') passed += 1;
      else if (state === 'failed') failed += 1;
      else skipped += 1;
    }
    // A file that failed to load, or a beforeAll/afterAll that threw, leaves its errors on the
    // module or suite, not on a test: the tests it stopped are only "skipped", yet the run failed.
    for (const scope of [module, ...module.children.allSuites()]) {
      if (scope.errors().length > 0) failed += 1;
    }
  }
  return { passed, failed, skipped };
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const { passed, failed, skipped } = summarise(testModules, unhandledErrors);
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
