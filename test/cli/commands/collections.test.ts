// groups, fields, labels and roles share one flow; each is exercised on the verbs that matter.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JSON_HEADERS, WSP, jsonBodies, label, page, role, setupApi, stamp, WS, type Api, NO_JOURNAL } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi(NO_JOURNAL)));
afterEach(() => api?.close());

const group = (id: number, name: string, contacts_count = 0) => ({ id, workspace_id: WS, name, contacts_count, ...stamp });

function replyJson(api: Api, path: string, method: string, status: number, data: unknown) {
  const { bodies, capture } = jsonBodies();
  api.pool
    .intercept({ path, method })
    .reply((opts) => (capture(opts), { statusCode: status, data: JSON.stringify(data), responseOptions: JSON_HEADERS }));
  return bodies;
}

describe('groups', () => {
  it('list: piped rows, csv with a header, table on a terminal', async () => {
    const rows = [group(1, 'VIP', 12), group(2, 'Leads, 2025', 0)];
    api.pool
      .intercept({ path: `${WSP}/contact-groups`, method: 'GET' })
      .reply(200, page(rows), JSON_HEADERS)
      .times(3);
    expect((await api.run(['groups', 'list'])).stdout).toBe(`1\tVIP\t12\t${stamp.created_at}\n2\tLeads, 2025\t0\t${stamp.created_at}\n`);
    expect((await api.run(['groups', 'list', '-o', 'csv'])).stdout).toBe(
      `id,name,contacts_count,created_at\n1,VIP,12,${stamp.created_at}\n2,"Leads, 2025",0,${stamp.created_at}\n`,
    );
    const tty = await api.run(['groups', 'list', '--no-color'], { stdoutTTY: true });
    expect(tty.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+CONTACTS\s+CREATED$/);
  });

  it('create sends {name}; update PUTs {name}; both print the record', async () => {
    const created = replyJson(api, `${WSP}/contact-groups`, 'POST', 201, {
      status: 201,
      message: 'Contact group created successfully.',
      data: group(3, 'Gold'),
    });
    expect((await api.run(['groups', 'create', 'Gold', '-q'])).stdout).toBe('3\n');
    expect(created).toEqual([{ name: 'Gold' }]);
    const updated = replyJson(api, `${WSP}/contact-groups/3`, 'PUT', 200, { status: 200, message: 'ok', data: group(3, 'Platinum') });
    const { code, stdout } = await api.run(['groups', 'update', '3', '--name', 'Platinum', '-o', 'json']);
    expect(code).toBe(0);
    expect(updated).toEqual([{ name: 'Platinum' }]);
    expect(JSON.parse(stdout)).toEqual(group(3, 'Platinum'));
  });

  it('an empty name is refused locally (exit 2), nothing sent', async () => {
    const { code, stderr } = await api.run(['groups', 'create', '   ']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: the contact group is invalid: nothing was sent\n  name: The name field is required.\n');
  });

  it('a name of invisible fillers only (Hangul fillers, the braille blank) is refused locally like a blank one (exit 2), nothing sent', async () => {
    for (const name of ['\u3164', '\u2800', '\u115f\u1160', '\uffa0 \u3164']) {
      const { code, stderr } = await api.run(['groups', 'create', name]);
      expect({ code, stderr }, JSON.stringify(name)).toEqual({
        code: 2,
        stderr: 'error: the contact group is invalid: nothing was sent\n  name: The name field is required.\n',
      });
    }
    const contact = await api.run(['contacts', 'create', '--number', '+15559990001', '--name', '\u3164\u2800']);
    expect({ code: contact.code, stderr: contact.stderr }).toEqual({
      code: 2,
      stderr: 'error: the contact is invalid: nothing was sent\n  --name: The name field is required.\n',
    });
  });

  it('get/update/delete are extensions: a router 404 is "not supported", exit 1', async () => {
    api.pool
      .intercept({ path: `${WSP}/contact-groups/3`, method: 'GET' })
      .reply(404, { message: 'The route api/v3/... could not be found.' }, JSON_HEADERS);
    api.pool.intercept({ path: `${WSP}/contact-groups/3`, method: 'DELETE' }).reply(405, '', {});
    expect((await api.run(['groups', 'get', '3'])).stderr).toBe(
      'error: this server does not support getting a contact group: find it in `wsm groups list`\n',
    );
    const del = await api.run(['groups', 'delete', '3', '--yes']);
    expect(del.code).toBe(1);
    expect(del.stderr).toBe('error: this server does not support deleting a contact group\n');
  });
});

describe('fields', () => {
  it('create checks the name pattern locally (exit 2) and sends a good one', async () => {
    const bad = await api.run(['fields', 'create', 'Home City']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'error: the contact field is invalid: nothing was sent\n  name: The name field must contain only lowercase letters and underscores.\n',
    );
    const bodies = replyJson(api, `${WSP}/contact-fields`, 'POST', 201, {
      status: 201,
      message: 'ok',
      data: { id: 4, workspace_id: WS, name: 'home_city', ...stamp },
    });
    const good = await api.run(['fields', 'create', 'home_city']);
    expect(good.code).toBe(0);
    expect(bodies).toEqual([{ name: 'home_city' }]);
    expect(good.stdout).toBe(`id\t4\nname\thome_city\ncreated_at\t${stamp.created_at}\n`);
  });

  it('delete with --yes', async () => {
    api.pool
      .intercept({ path: `${WSP}/contact-fields/4`, method: 'DELETE' })
      .reply(200, { message: 'Contact field deleted successfully.', status: 200 }, JSON_HEADERS);
    const { code, stdout } = await api.run(['fields', 'delete', '4', '--yes']);
    expect(code).toBe(0);
    expect(stdout).toBe('');
  });
});

describe('labels', () => {
  it('create with --color; a bad colour is exit 2, nothing sent', async () => {
    const bad = await api.run(['labels', 'create', 'urgent', '--color', 'red']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('  --color: The color field must be a hex colour such as #1a2b3c.\n');
    const bodies = replyJson(api, `${WSP}/labels`, 'POST', 201, { status: 201, message: 'ok', data: label(5, 'urgent', '#f00') });
    expect((await api.run(['labels', 'create', 'urgent', '--color', '#f00'])).code).toBe(0);
    expect(bodies).toEqual([{ name: 'urgent', color: '#f00' }]);
  });

  it('update sends only what was given; neither is refused locally', async () => {
    const none = await api.run(['labels', 'update', '5']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('error: nothing to update: pass at least one of --name, --color\n');
    // The published API lists name as required on PUT: with only a colour, the current name is read and sent along.
    api.pool.intercept({ path: `${WSP}/labels/5`, method: 'GET' }).reply(200, { data: label(5, 'urgent', '#f00') }, JSON_HEADERS);
    const bodies = replyJson(api, `${WSP}/labels/5`, 'PUT', 200, { status: 200, message: 'ok', data: label(5, 'urgent', '#0a0') });
    expect((await api.run(['labels', 'update', '5', '--color', '#0a0'])).code).toBe(0);
    expect(bodies).toEqual([{ color: '#0a0', name: 'urgent' }]);
  });

  it('list is an extension: a 405 is "not supported"; get is core: 404 is exit 4', async () => {
    api.pool.intercept({ path: `${WSP}/labels`, method: 'GET' }).reply(405, { message: 'Method not allowed.' }, JSON_HEADERS);
    expect((await api.run(['labels', 'list'])).stderr).toBe(
      'error: this server does not support listing labels: keep the ids that `wsm labels create -q` prints and read each with `wsm labels get <id>`\n',
    );
    api.pool
      .intercept({ path: `${WSP}/labels/9`, method: 'GET' })
      .reply(404, { message: 'Resource not found.', status: 404 }, JSON_HEADERS);
    expect((await api.run(['labels', 'get', '9'])).code).toBe(4);
  });
});

describe('roles', () => {
  it('create with permissions; an unknown permission is refused locally, named as given', async () => {
    const bad = await api.run(['roles', 'create', 'agent', '--permission', 'contacts.view', '--permission', 'contacts.fly']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'error: the role is invalid: nothing was sent\n  --permission contacts.fly: The selected permission is invalid.\n',
    );
    const bodies = replyJson(api, `${WSP}/roles`, 'POST', 201, { status: 201, message: 'ok', data: role(2, 'agent', ['contacts.view']) });
    expect((await api.run(['roles', 'create', 'agent', '--permission', 'contacts.view'])).code).toBe(0);
    expect(bodies).toEqual([{ name: 'agent', permissions: ['contacts.view'] }]);
  });

  it('list shows the permission count; get shows the names', async () => {
    api.pool
      .intercept({ path: `${WSP}/roles`, method: 'GET' })
      .reply(200, page([role(1, 'owner', ['contacts.view', 'roles.view'])]), JSON_HEADERS);
    expect((await api.run(['roles', 'list'])).stdout).toBe('1\towner\t2\n');
    api.pool
      .intercept({ path: `${WSP}/roles/1`, method: 'GET' })
      .reply(200, { data: role(1, 'owner', ['contacts.view', 'roles.view']) }, JSON_HEADERS)
      .times(2);
    expect((await api.run(['roles', 'get', '1', '--no-color'], { stdoutTTY: true, columns: 120 })).stdout).toMatch(
      /Permissions +contacts\.view roles\.view\n/,
    );
    // Piped, the names are data (finding 16): a JSON array, as -o json holds them.
    expect((await api.run(['roles', 'get', '1'])).stdout).toContain('permissions\t["contacts.view","roles.view"]\n');
  });

  it('update replaces the permissions (PUT)', async () => {
    const bodies = replyJson(api, `${WSP}/roles/2`, 'PUT', 200, { status: 200, message: 'ok', data: role(2, 'agent', ['templates.view']) });
    expect((await api.run(['roles', 'update', '2', '--permission', 'templates.view'])).code).toBe(0);
    expect(bodies).toEqual([{ permissions: ['templates.view'] }]);
  });
});
