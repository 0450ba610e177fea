import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JSON_HEADERS, WS, WSP, jsonBodies, setupApi, stamp, type Api, NO_JOURNAL } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi(NO_JOURNAL)));
afterEach(() => api?.close());

describe('workspace', () => {
  it('get prints the workspace', async () => {
    api.pool.intercept({ path: WSP, method: 'GET' }).reply(200, { data: { id: WS, name: 'Acme', ...stamp } }, JSON_HEADERS);
    const { code, stdout } = await api.run(['workspace', 'get']);
    expect(code).toBe(0);
    expect(stdout).toBe(`id\t${WS}\nname\tAcme\ncreated_at\t${stamp.created_at}\nupdated_at\t${stamp.updated_at}\n`);
  });

  it('get without a workspace is exit 2 and says how to set one', async () => {
    const { code, stderr } = await api.run(['workspace', 'get'], { env: { WSM_WORKSPACE: undefined } });
    expect(code).toBe(2);
    expect(stderr).toBe('error: no workspace: pass -w <uuid>, set WSM_WORKSPACE, or run `wsm profile set workspace <uuid>`\n');
  });

  it('create POSTs /workspaces without needing a current workspace', async () => {
    const { bodies, capture } = jsonBodies();
    const id = '11111111-2222-4333-8444-555555555555';
    api.pool.intercept({ path: '/api/v3/workspaces', method: 'POST' }).reply(
      (opts) => (
        capture(opts),
        {
          statusCode: 201,
          data: JSON.stringify({ status: 201, message: 'ok', data: { id, name: 'New', ...stamp } }),
          responseOptions: JSON_HEADERS,
        }
      ),
    );
    const { code, stdout } = await api.run(['workspace', 'create', 'New', '-q'], { env: { WSM_WORKSPACE: undefined } });
    expect(code).toBe(0);
    expect(stdout).toBe(`${id}\n`);
    expect(bodies).toEqual([{ name: 'New' }]);
  });
});

describe('permissions', () => {
  const listing = { data: [{ contacts: ['contacts.view', 'contacts.create'] }, { templates: ['templates.view'] }] };

  it('list prints one permission a row; -q the names', async () => {
    api.pool
      .intercept({ path: `${WSP}/permissions`, method: 'GET' })
      .reply(200, listing, JSON_HEADERS)
      .times(2);
    expect((await api.run(['permissions', 'list'])).stdout).toBe(
      'contacts\tcontacts.view\ncontacts\tcontacts.create\ntemplates\ttemplates.view\n',
    );
    expect((await api.run(['permissions', 'list', '-q'])).stdout).toBe('contacts.view\ncontacts.create\ntemplates.view\n');
  });

  const fullListing = {
    data: [
      { contacts: ['contacts.view'] },
      { labels: ['labels.view'] },
      { roles: ['roles.view'] },
      { users: ['users.view'] },
      { templates: ['templates.sync'] },
    ],
  };

  /** The server's listing (read first: names are checked against it), then the PATCH. */
  function acceptSet(api: Api, listed: object = fullListing) {
    api.pool.intercept({ path: `${WSP}/permissions`, method: 'GET' }).reply(200, listed, JSON_HEADERS);
    const { bodies, capture } = jsonBodies();
    api.pool.intercept({ path: '/api/v3/workspaces/partner/permissions', method: 'PATCH' }).reply((opts) => {
      capture(opts);
      const permissions = (bodies.at(-1) as { permissions: string[] }).permissions;
      return {
        statusCode: 200,
        data: JSON.stringify({ status: 200, message: 'ok', data: { permissions } }),
        responseOptions: JSON_HEADERS,
      };
    });
    return bodies;
  }

  it('set from arguments PATCHes the partner defaults', async () => {
    const bodies = acceptSet(api);
    const { code, stdout } = await api.run(['permissions', 'set', 'contacts.view', 'templates.sync', '-q']);
    expect(code).toBe(0);
    expect(bodies).toEqual([{ permissions: ['contacts.view', 'templates.sync'] }]);
    expect(stdout).toBe('contacts.view\ntemplates.sync\n');
  });

  it('set from stdin, one a line (comments and blanks skipped)', async () => {
    const bodies = acceptSet(api);
    const { code } = await api.run(['permissions', 'set'], { stdin: '# defaults\ncontacts.view\n\nlabels.view\n' });
    expect(code).toBe(0);
    expect(bodies).toEqual([{ permissions: ['contacts.view', 'labels.view'] }]);
  });

  it('set --file with a JSON array', async () => {
    const file = await api.file('perms.json', '["roles.view", "users.view"]');
    const bodies = acceptSet(api);
    expect((await api.run(['permissions', 'set', '--file', file])).code).toBe(0);
    expect(bodies).toEqual([{ permissions: ['roles.view', 'users.view'] }]);
  });

  it('duplicate names are exit 2 naming the index, nothing sent', async () => {
    const { code, stderr } = await api.run(['permissions', 'set', 'contacts.view', 'contacts.fly', 'contacts.view']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: the permission list is invalid: nothing was sent\n  permissions.2: The permission is a duplicate.\n');
  });

  it("names are checked against the server's own listing (names or {name} objects): unknown ones are exit 2, nothing sent", async () => {
    api.pool
      .intercept({ path: `${WSP}/permissions`, method: 'GET' })
      .reply(200, { data: [{ contacts: [{ id: 1, name: 'contacts.view', guard_name: 'api' }] }] }, JSON_HEADERS);
    const { code, stderr } = await api.run(['permissions', 'set', 'contacts.view', 'contacts.fly']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      "error: the server does not list contacts.fly: nothing was sent (`wsm permissions list` shows the names it knows)\n  permissions.1: contacts.fly is not in the server's permission listing.\n",
    );
  });

  it('names the built-in list does not know go as given when the server lists them', async () => {
    const bodies = acceptSet(api, { data: [{ contacts: ['contacts.view', 'contacts.export'] }] });
    expect((await api.run(['permissions', 'set', 'contacts.export'])).code).toBe(0);
    expect(bodies).toEqual([{ permissions: ['contacts.export'] }]);
  });

  it('where the listing cannot be read (403), the names go as given and the server decides', async () => {
    api.pool
      .intercept({ path: `${WSP}/permissions`, method: 'GET' })
      .reply(403, { message: 'This action is unauthorized.', status: 403 }, JSON_HEADERS);
    api.pool
      .intercept({ path: '/api/v3/workspaces/partner/permissions', method: 'PATCH' })
      .reply(422, { message: 'Validation error', errors: { 'permissions.0': ['The selected permissions.0 is invalid.'] } }, JSON_HEADERS);
    const { code, stderr } = await api.run(['permissions', 'set', 'contacts.fly']);
    expect(code).toBe(5);
    expect(stderr).toContain('  permissions.0: The selected permissions.0 is invalid.\n');
  });

  it('no names on a terminal is exit 2; a 403 for a non-partner is exit 3', async () => {
    expect((await api.run(['permissions', 'set'], { stdinTTY: true })).code).toBe(2);
    api.pool.intercept({ path: `${WSP}/permissions`, method: 'GET' }).reply(200, fullListing, JSON_HEADERS);
    api.pool
      .intercept({ path: '/api/v3/workspaces/partner/permissions', method: 'PATCH' })
      .reply(403, { message: 'This action is unauthorized.', status: 403 }, JSON_HEADERS);
    expect((await api.run(['permissions', 'set', 'contacts.view'])).code).toBe(3);
  });
});
