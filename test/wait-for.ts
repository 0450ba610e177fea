/**
 * Waiting for a condition in a test: `probe` is asked every `everyMs` until it returns something
 * other than undefined or false, which is returned. There is no deadline: a loaded machine is slow,
 * not wrong, and a condition that never comes ends at the suite's hang guard (vitest.config.ts).
 */
export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, everyMs = 20): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
