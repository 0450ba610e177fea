/**
 * Workspaces of many contacts for the bulk verbs' end-to-end tests: people imported by number,
 * found again by number, and what a `--verbose` run read and sent. The imports and reads that set a
 * test up run wsm in-process (in-process.ts).
 */
import { expect } from 'vitest';
import { backendFile, type Backend, type BackendKind, withBackend } from './backends.js';
import type { Stored } from './plan-property.js';
import { wsmInProcess } from './in-process.js';

export type Listed = Stored & { updated_at: string };

/** `count` contacts numbered from `first` (the 11th digit on), named `Person <n>`, imported and waited for. */
export async function importPeople(backend: Backend, count: number, first = 0): Promise<void> {
  const rows = Array.from({ length: count }, (_, at) => `1415${String(first + at).padStart(7, '0')},Person ${first + at}`);
  const people = backendFile(backend, `people-${first}.csv`, `number,name\n${rows.join('\n')}\n`);
  const imported = await wsmInProcess(backend.env, ['contacts', 'import', people, '--wait', '--interval', '0.1s', '-q']);
  expect(imported.code, imported.stderr).toBe(0);
}

/**
 * For the describe block it is called in: a backend of `kind` started with three people imported
 * before its tests, and stopped after them; `ready` is given the backend and person 1.
 */
export function withThreePeople(kind: BackendKind, ready: (backend: Backend, named: Listed) => void): void {
  withBackend(kind, async (backend) => {
    await importPeople(backend, 3);
    ready(backend, await person(backend, 1));
  });
}

/** The contact holding the number of person `n`, as the list gives it. */
export async function person(backend: Backend, n: number): Promise<Listed> {
  const number = `1415${String(n).padStart(7, '0')}`;
  const found = await wsmInProcess(backend.env, ['contacts', 'list', '--search', number, '-o', 'json']);
  const [contact] = (JSON.parse(found.stdout) as Listed[]).filter((each) => each.number === number);
  expect(contact, found.stderr).toBeDefined();
  return contact;
}

/** The reads of contacts a `--verbose` run made, in a stable order (pages come in parallel). */
export const contactReads = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => /^> GET \S+\/contacts[/?]/.test(line))
    .map((line) => line.slice('> GET '.length))
    .sort();

/** The ids of the contacts a `--verbose` run sent an update or a delete to. */
export const sentTo = (stderr: string): number[] =>
  [...stderr.matchAll(/^> (?:POST|DELETE) \S+\/contacts\/(\d+)$/gm)].map((match) => Number(match[1])).sort((a, b) => a - b);

/** The JSON body a `--verbose` run sent with its request to contact `id`, as its trace shows it. */
export function jsonSentTo(stderr: string, id: number): unknown {
  const lines = stderr.split('\n');
  const at = lines.findIndex((line) => new RegExp(`^> POST \\S+/contacts/${id}$`).test(line));
  const body = lines.slice(at + 1).find((line) => line.startsWith('> {'));
  return at < 0 || body === undefined ? undefined : JSON.parse(body.slice(2));
}
