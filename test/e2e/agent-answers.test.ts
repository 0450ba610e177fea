/**
 * The answers an agent's session found silently wrong, through the real CLI against a real `wsm serve`:
 * a contact taken out of every group, a number searched as written, contacts filtered by a custom
 * field, by the server where it can (the extension) and by a walk that says so where it cannot
 * (`wsm serve --api-only`, which leaves the extension out as the hosted service does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { startMcp, textOf } from './mcp-helpers.js';
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
});

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
      const { code, stdout, stderr } = await wsmInProcess(server.env, [
        'contacts',
        'update',
        '2',
        '--name',
        'P2',
        '--group',
        '',
        '-o',
        'json',
      ]);
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
    expect(unknown.stderr).toBe(
      'error: the server rejected the contact:\n  --field town: The town field is not a contact field of this workspace.\n',
    );
    const bad = await wsmInProcess(full.env, ['contacts', 'list', '--field', 'city']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: --field takes name=value, got "city"\n');
  });

  it('against a server without the filter, walks every contact, filters them here and says so', async () => {
    // --api-only keeps no custom field values: the filter finds none, and says how it looked.
    const page = await wsmInProcess(apiOnly.env, ['contacts', 'list', '--field', 'city=Lisbon', '-o', 'json']);
    expect(page.code).toBe(0);
    expect(JSON.parse(page.stdout)).toEqual([]);
    expect(page.stderr).toBe(
      'warning: this server does not filter contacts by custom field (an extension of wsm serve): wsm read every contact and kept the matches\n',
    );
    const all = await wsmInProcess(apiOnly.env, ['contacts', 'list', '--field', 'city=Lisbon', '--all', '-q']);
    expect(all.code).toBe(0);
    expect(all.stdout).toBe('');
    expect(all.stderr).toMatch(/^warning: this server does not filter contacts by custom field/);
  });
});

describe('the same answers through the MCP tools', () => {
  it('contacts.update with contact_groups: [] takes the contact out of every group', async () => {
    const mcp = await startMcp(full.env);
    try {
      const result = await mcp.call('contacts.update', { id: 4, name: 'P4', contact_groups: [] });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { data: { contact_groups: unknown[] } }).data.contact_groups).toEqual([]);
      const read = await mcp.call('contacts.get', { id: 4 });
      expect((read.structuredContent as { data: { contact_groups: unknown[] } }).data.contact_groups).toEqual([]);
      // Without a name: the current one is kept, only the e-mail changes.
      const renamedNot = await mcp.call('contacts.update', { id: 3, email: 'p3@example.com' });
      expect(renamedNot.isError, textOf(renamedNot)).toBeFalsy();
      expect((renamedNot.structuredContent as { data: { name: string; email: string } }).data).toMatchObject({
        name: 'P3',
        email: 'p3@example.com',
      });
    } finally {
      await mcp.close();
    }
  });

  it('contacts.list with search as a number, and with field_values, filtered on the server and paged by cursor', async () => {
    const mcp = await startMcp(full.env);
    try {
      const byNumber = await mcp.call('contacts.list', { search: '+351912345601' });
      expect((byNumber.structuredContent as { items: Array<{ name: string }> }).items.map((c) => c.name)).toEqual(['P1']);
      const first = (await mcp.call('contacts.list', { field_values: { city: 'Lisbon' }, per_page: 2 })).structuredContent as {
        items: Array<{ name: string }>;
        total: number;
        next_cursor: string;
        note?: string;
      };
      expect(first.items.map((c) => c.name)).toEqual(['P1', 'P3']);
      expect(first.total).toBe(3);
      expect(first.note).toBeUndefined();
      const second = (await mcp.call('contacts.list', { field_values: { city: 'Lisbon' }, per_page: 2, cursor: first.next_cursor }))
        .structuredContent as { items: Array<{ name: string }>; next_cursor?: string };
      expect(second.items.map((c) => c.name)).toEqual(['P5']);
      expect(second.next_cursor).toBeUndefined();
    } finally {
      await mcp.close();
    }
  });

  it('contacts.import: an error names the CSV as the agent named it, never a temporary path; import_id follows an import already made', async () => {
    const mcp = await startMcp(full.env);
    try {
      const bad = await mcp.call('contacts.import', { csv: 'name,email\nAna,a@example.com\n', name: 'people.csv', confirm: true });
      expect(bad.isError).toBe(true);
      expect(bad._meta).toEqual({ 'wsm/exit_code': 2 });
      expect(textOf(bad)).toContain('people.csv');
      expect(textOf(bad)).not.toMatch(/wsm-mcp-|\/tmp\//);
      const good = await mcp.call('contacts.import', {
        csv: 'number,name\n15559990001,Zed\n',
        name: 'one.csv',
        confirm: true,
        poll_interval: '50ms',
      });
      const made = (good.structuredContent as { import: { id: number; status: string } }).import;
      expect(made.status).toBe('completed');
      // Following it again needs no confirmation: it changes nothing.
      const followed = await mcp.call('contacts.import', { import_id: made.id });
      expect(followed.isError, textOf(followed)).toBeFalsy();
      expect(followed.structuredContent).toMatchObject({ import: { id: made.id, status: 'completed' } });
    } finally {
      await mcp.close();
    }
  });

  it('against a server without the filter, the tool filters here and says so in a note', async () => {
    const mcp = await startMcp(apiOnly.env);
    try {
      const page = (await mcp.call('contacts.list', { field_values: { city: 'Lisbon' } })).structuredContent as {
        items: unknown[];
        total: number;
        note: string;
      };
      expect(page.items).toEqual([]);
      expect(page.total).toBe(0);
      expect(page.note).toMatch(/^This server does not filter by field_values/);
    } finally {
      await mcp.close();
    }
  });
});
