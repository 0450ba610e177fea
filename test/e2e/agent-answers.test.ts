/**
 * The answers issue 36 found silently wrong, through the real CLI against a real `wsm serve`:
 * a contact taken out of every group, a number searched as written, contacts filtered by a custom
 * field, by the server where it can (the extension) and by a walk that says so where it cannot
 * (`wsm serve --api-only`, which leaves the extension out as the hosted service does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { cleanup, serve, type Served } from './processes.js';

let full: Served;
let apiOnly: Served;

async function seed(server: Served, withFields: boolean): Promise<void> {
  const run = async (...args: string[]) => expect((await wsmInProcess(server.env, args)).code).toBe(0);
  await run('groups', 'create', 'VIP');
  if (withFields) await run('fields', 'create', 'city');
  const cities = ['Lisbon', 'Porto', 'Lisbon', 'lisbon', 'Lisbon'];
  for (const [i, city] of cities.entries()) {
    const fields = withFields ? ['--field', `city=${city}`] : [];
    await run('contacts', 'create', '--number', `+351 912 345 60${i + 1}`, '--name', `P${i + 1}`, '--group', '1', ...fields, '-q');
  }
}

beforeAll(async () => {
  [full, apiOnly] = await Promise.all([serve(['--approval-delay', '0']), serve(['--approval-delay', '0', '--api-only'])]);
  await seed(full, true);
  await seed(apiOnly, false);
}, 60_000);

afterAll(async () => {
  for (const server of [full, apiOnly]) {
    expect(await server.stop()).toBe(0);
    cleanup(server.dir);
  }
});

const names = (stdout: string) => (JSON.parse(stdout) as Array<{ name: string }>).map((c) => c.name);

describe("contacts update --group ''", () => {
  it('takes the contact out of every group, on both servers', async () => {
    for (const server of [full, apiOnly]) {
      const { code, stdout, stderr } = await wsmInProcess(server.env, ['contacts', 'update', '2', '--name', 'P2', '--group', '', '-o', 'json']);
      expect(stderr).toBe('✓ updated contact 2\n');
      expect(code).toBe(0);
      expect(JSON.parse(stdout).contact_groups).toEqual([]);
    }
    const got = await wsmInProcess(full.env, ['contacts', 'get', '2', '-o', 'json']);
    expect(JSON.parse(got.stdout).contact_groups).toEqual([]);
  });
});

describe('contacts list --search with a number as people write it', () => {
  it('finds the contact stored with that number', async () => {
    const { code, stdout } = await wsmInProcess(full.env, ['contacts', 'list', '--search', '+351 912-345-601', '-o', 'json']);
    expect(code).toBe(0);
    expect(names(stdout)).toEqual(['P1']);
  });
});

describe('contacts list --field', () => {
  it('filters on the server, exactly, and pages the matches', async () => {
    const { code, stdout, stderr } = await wsmInProcess(full.env, ['contacts', 'list', '--field', 'city=Lisbon', '-o', 'json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(names(stdout)).toEqual(['P1', 'P3', 'P5']);
    const all = await wsmInProcess(full.env, ['contacts', 'list', '--field', 'city=Lisbon', '--all', '--per-page', '1', '-q']);
    expect(all.stdout).toBe('1\n3\n5\n');
  });

  it('a field the workspace does not have is exit 5 naming it; a flag without = is exit 2', async () => {
    const unknown = await wsmInProcess(full.env, ['contacts', 'list', '--field', 'town=Lisbon']);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toBe('error: the server rejected the contact:\n  --field town: The town field is not a contact field of this workspace.\n');
    const bad = await wsmInProcess(full.env, ['contacts', 'list', '--field', 'city']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: --field takes name=value, got "city"\n');
  });

  it('against a server without the filter, walks every contact, filters them here and says so', async () => {
    // --api-only keeps no custom field values: the filter finds none, and says how it looked.
    const page = await wsmInProcess(apiOnly.env, ['contacts', 'list', '--field', 'city=Lisbon', '-o', 'json']);
    expect(page.code).toBe(0);
    expect(JSON.parse(page.stdout)).toEqual([]);
    expect(page.stderr).toBe('warning: this server does not filter contacts by custom field (an extension of wsm serve): wsm read every contact and kept the matches\n');
    const all = await wsmInProcess(apiOnly.env, ['contacts', 'list', '--field', 'city=Lisbon', '--all', '-q']);
    expect(all.code).toBe(0);
    expect(all.stdout).toBe('');
    expect(all.stderr).toMatch(/^warning: this server does not filter contacts by custom field/);
  });
});
