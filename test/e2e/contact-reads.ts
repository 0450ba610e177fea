import { expect } from 'vitest';
import type { RunResult } from './processes.js';

/** wsm with the test's backend, by its words. */
type Run = (...args: string[]) => Promise<RunResult>;

/** The contact `id` as `contacts list` shows it (every page). */
export async function shownContact<T extends { id: number }>(run: Run, id: number): Promise<T> {
  const listed = await run('contacts', 'list', '--all', '-o', 'json');
  const contact = (JSON.parse(listed.stdout) as T[]).find((each) => each.id === id);
  expect(contact, listed.stderr).toBeDefined();
  return contact!;
}

/** Makes a record with `wsm <args> -o json` (`contacts create --number …`, `groups create VIP`): its id. */
export async function madeId(run: Run, ...args: string[]): Promise<number> {
  const made = await run(...args, '-o', 'json');
  expect(made.code, made.stderr).toBe(0);
  return (JSON.parse(made.stdout) as { id: number }).id;
}
