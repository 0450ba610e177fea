// test/summary-reporter.ts: the line CI logs are read by counts every way a run can fail, not only
// failing tests (a beforeAll that throws leaves its tests "skipped", a file that fails to load none).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

function runFixtures(): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--root', join(root, 'test/fixtures/summary-reporter')],
      { env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout) => resolve({ code: error ? (error.code as number) : 0, stdout }),
    );
  });
}

it('counts a failed beforeAll, afterAll and file load as failures beside a failing test', async () => {
  const { code, stdout } = await runFixtures();
  expect(code).toBe(1);
  // Failures: the failing test, the suite whose beforeAll threw, the suite whose afterAll threw,
  // the file whose beforeAll threw, the file that failed to load. Skipped: the tests the hooks stopped.
  expect(stdout.trim().split('\n').at(-1)).toBe('vitest: 2 passed, 5 failed, 3 skipped');
});
