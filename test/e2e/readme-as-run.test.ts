/**
 * What the README says a newcomer sees, run: the quick start's one profile (`local`, current) and
 * the profile it switches back to; a bulk verb's summary lines, each example quoted there made
 * true by a file of exactly those outcomes and run against a real `wsm serve`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { cleanup, localProfile, serve, testEnv, type Served } from './processes.js';

const readmeText = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
const readme = readmeText.replace(/\s+/g, ' ');

/** The README's command line starting with `start`, as a shell splits it (double quotes only), comment dropped. */
function readmeLine(start: string): string[] {
  const line = readmeText.split('\n').find((l) => l.startsWith(start));
  expect(line, start).toBeDefined();
  const words = [...line!.replace(/\s+#.*$/, '').matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
  expect(words[0]).toBe('wsm');
  return words.slice(1);
}

const profilesIn = async (env: NodeJS.ProcessEnv) =>
  (JSON.parse((await wsmInProcess(env, ['profile', 'list', '-o', 'json'])).stdout) as Array<{ name: string; current: boolean }>).map(
    ({ name, current }) => ({ name, current }),
  );

let server: Served;
beforeAll(async () => {
  server = await serve(['--approval-delay', '0']);
});
afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
  if (server) cleanup(server.dir);
});

const run = (args: string[], input?: string) => wsmInProcess(server.env, args, input);

describe('the quick start', () => {
  it('makes one profile, local, current; the profile the README switches back to is it; a list works at once', async () => {
    expect(readme).toContain('The quick start makes one profile, `local`, and makes it current');
    expect(await profilesIn(server.env)).toEqual([{ name: 'local', current: true }]);
    const switches = [...readme.matchAll(/wsm profile use (\w+)/g)].map((m) => m[1]);
    expect(new Set(switches)).toEqual(new Set(['local']));
    expect((await run(['profile', 'use', 'local'])).code).toBe(0);
    expect((await run(['contacts', 'list'])).code).toBe(0);
  });
});

describe("the operator tour's first lines, as written, on the quick start's new server", () => {
  it('a field, a group (id 1: no other test of this file makes one), then a contact in both: each exit 0', async () => {
    expect((await run(readmeLine('wsm fields create city'))).code).toBe(0);
    const group = await run(readmeLine('wsm groups create VIP -q'));
    expect({ code: group.code, id: group.stdout.trim() }).toEqual({ code: 0, id: '1' });
    const contact = await run([...readmeLine('wsm contacts create --number'), '-o', 'json']);
    expect(contact.code, contact.stderr).toBe(0);
    expect(JSON.parse(contact.stdout)).toMatchObject({ name: 'Ann', contact_groups: [{ id: 1, name: 'VIP' }], fields: { city: 'Lisbon' } });
  });

  it('wsm auth login saves the profile "default"; a wsm serve after it saves "local" without taking its place', async () => {
    expect(readmeText).toMatch(/wsm auth login +# [^\n]*saved as profile "default"/);
    expect(readmeText).toMatch(/wsm serve +# [^\n]*saves the "local" profile, made current if none is/);
    // A machine of its own (config and database under one folder), logged in to the file's server first.
    const machine = join(server.dir, 'tour');
    const env = testEnv(machine);
    const login = await wsmInProcess(env, ['auth', 'login', '--with-token', '--base-url', server.url], `${localProfile(server).token}\n`);
    expect(login.code, login.stderr).toBe(0);
    expect(await profilesIn(env)).toEqual([{ name: 'default', current: true }]);
    const local = await serve(['--approval-delay', '0'], machine);
    try {
      expect(await profilesIn(env)).toEqual([
        { name: 'default', current: true },
        { name: 'local', current: false },
      ]);
      expect((await wsmInProcess(env, readmeLine('wsm profile use local'))).code).toBe(0);
      expect(await profilesIn(env)).toContainEqual({ name: 'local', current: true });
    } finally {
      expect(await local.stop()).toBe(0);
    }
  });
});

describe("a bulk verb's summary, as the README quotes it", () => {
  const quoted = [
    ...readme.matchAll(/`(✓ updated (\d+) of the (\d+) contacts read from changes\.csv: (\d+) unchanged, (\d+) skipped, (\d+) failed)`/g),
  ];

  it('quotes a run without failures and one with them', () => {
    expect(quoted.map((m) => Number(m[6]) > 0).sort()).toEqual([false, true]);
  });

  it.each(quoted.map((m) => [m[1], m.slice(2, 7).map(Number)] as const))(
    '%s',
    async (line, [updated, read, unchanged, skipped, failed]) => {
      expect(skipped).toBe(0); // a held spreadsheet change: not made by this file
      const workspace = JSON.parse((await run(['workspace', 'create', `Summary ${read} ${failed}`, '-o', 'json'])).stdout).id as string;
      const inWorkspace = (args: string[]) => run([...args, '-w', workspace]);
      const rows: string[] = [];
      for (let i = 0; i < updated + unchanged; i++) {
        const made = await inWorkspace([
          'contacts',
          'create',
          '--number',
          `1415555${String(i).padStart(4, '0')}`,
          '--name',
          `Person ${i}`,
          '-q',
        ]);
        rows.push(`${made.stdout.trim()},${i < updated ? `Renamed ${i}` : `Person ${i}`}`);
      }
      for (let i = 0; i < failed; i++) rows.push(`${999_990 + i},Nobody`);
      const file = join(server.dir, `changes-${workspace}.csv`);
      writeFileSync(file, `id,name\n${rows.join('\n')}\n`);
      const result = await inWorkspace(['contacts', 'update', '--from', file]);
      const stderr = result.stderr.replaceAll(file, 'changes.csv');
      expect(stderr.split('\n')).toContain(line);
      if (failed === 0) expect(result.code).toBe(0);
      else {
        const last = `error: ${failed} of ${read} failed`;
        expect(readme).toContain(`the last line is \`${last}\`, exit 8`);
        expect({ code: result.code, last: stderr.trim().split('\n').at(-1) }).toEqual({ code: 8, last });
      }
    },
  );
});
