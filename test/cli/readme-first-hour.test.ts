// The README as a newcomer follows it: what it says a command prints is what the command prints,
// the profiles it switches to are ones its own commands made, and it says how to run wsm outside
// the clone (where `npx wsm` asks the registry for another package).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');

it('every profile it switches to is one that wsm serve (local) or one of its own commands makes', () => {
  const made = new Set(['local', ...[...readme.matchAll(/--profile (\w+)/g)].map((m) => m[1])]);
  const used = [...readme.matchAll(/wsm profile use (\w+)/g)].map((m) => m[1]);
  expect(used.length).toBeGreaterThan(0);
  expect(used.filter((name) => !made.has(name))).toEqual([]);
  expect(readme).toContain('The quick start makes one profile, `local`');
});

it('says how to run wsm outside the clone', () => {
  expect(readme).toContain('npm link');
  expect(readme).toMatch(/npx --prefix \S+ wsm/);
});

it("a bulk verb's summary reads as the command prints it: done, unchanged, skipped, failed, of how many read", () => {
  expect(readme).not.toContain('reports each contact');
  const summary = /✓ updated (\d+) of the (\d+) contacts read from \S+: (\d+) unchanged, (\d+) skipped, (\d+) failed/.exec(readme);
  expect(summary).not.toBeNull();
  const [updated, read, unchanged, skipped, failed] = summary!.slice(1).map(Number);
  expect(updated + unchanged + skipped + failed).toBe(read);
  // The words of the code that prints it (src/commands/contacts/bulk.ts, its outcomes from bulk-execute.ts).
  const bulk = ['bulk.ts', 'bulk-execute.ts']
    .map((file) => readFileSync(join(import.meta.dirname, '../../src/commands/contacts', file), 'utf8'))
    .join('\n');
  const source = '$' + '{source}';
  for (const words of ['unchanged`', 'skipped`', 'failed`', "'already gone'", `contacts read from ${source}`])
    expect(bulk).toContain(words);
});
