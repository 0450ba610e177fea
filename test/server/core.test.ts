import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/api/schemas/index.js';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h?.close();
});

describe('authentication and tenancy', () => {
  it('answers 401 with the exact body without a token or with a bad one', async () => {
    for (const token of [null, 'nope']) {
      const res = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}`, token });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it('hides a workspace from a non-member (404) and forbids a missing permission (403)', async () => {
    const outsider = await h.outsider();
    const hidden = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}`, token: outsider });
    expect(hidden.statusCode).toBe(404);
    const viewer = await h.memberWith(['labels.view']);
    const denied = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}`, token: viewer });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ message: 'This action is unauthorized.', status: 403 });
  });

  it('answers 405 for a known path with another method and 404 for an unknown path', async () => {
    const wrong = await h.call({ method: 'DELETE', url: `/api/v3/workspaces/${h.ws}` });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.json()).toEqual({ message: 'Method not allowed.', status: 405 });
    const unknown = await h.call({ method: 'GET', url: '/api/v3/nothing/here' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Resource not found.', status: 404 });
  });

  it('turns malformed JSON into a 422, never a 500', async () => {
    const res = await h.call({
      method: 'POST',
      url: `/api/v3/workspaces/${h.ws}/labels`,
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: 'Validation error', errors: { body: ['The request body is malformed.'] } });
  });
});

describe('workspaces, permissions, me and tokens', () => {
  it('gets the workspace and lists its permissions grouped', async () => {
    const ws = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}` });
    expect(ws.json()).toEqual({
      data: { id: h.ws, name: 'Local workspace', created_at: expect.any(String), updated_at: expect.any(String) },
    });
    const perms = (await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/permissions` })).json();
    expect(perms.data[0]).toEqual({ workspace: ['workspace.view', 'workspace.update'] });
    expect(perms.data.flatMap((g: Record<string, string[]>) => Object.values(g)[0])).toEqual(ALL_PERMISSIONS);
  });

  it('sets partner defaults that a new workspace then gets exactly', async () => {
    const set = await h.call({
      method: 'PATCH',
      url: '/api/v3/workspaces/partner/permissions',
      payload: { permissions: ['contacts.view', 'labels.view'] },
    });
    expect(set.json()).toEqual({
      status: 200,
      message: 'Permissions updated successfully.',
      data: { permissions: ['contacts.view', 'labels.view'] },
    });
    const made = await h.call({ method: 'POST', url: '/api/v3/workspaces', payload: { name: 'Second' } });
    expect(made.statusCode).toBe(201);
    const id = made.json().data.id;
    const perms = await h.call({ method: 'GET', url: `/api/v3/workspaces/${id}/permissions` });
    // Exactly the defaults are enabled; the creating partner keeps full access (decisions.md §7).
    expect(perms.json()).toEqual({ data: [{ contacts: ['contacts.view'] }, { labels: ['labels.view'] }] });
    const labels = await h.call({ method: 'GET', url: `/api/v3/workspaces/${id}/labels` });
    expect(labels.statusCode).toBe(200);
  });

  it('validates partner permissions by index and refuses non-partners', async () => {
    const bad = await h.call({
      method: 'PATCH',
      url: '/api/v3/workspaces/partner/permissions',
      payload: { permissions: ['contacts.view', 'x.y'] },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ 'permissions.1': ['The selected permission is invalid.'] });
    const empty = await h.call({ method: 'PATCH', url: '/api/v3/workspaces/partner/permissions', payload: { permissions: [] } });
    expect(empty.statusCode).toBe(422);
    const member = await h.memberWith(ALL_PERMISSIONS);
    const denied = await h.call({
      method: 'PATCH',
      url: '/api/v3/workspaces/partner/permissions',
      payload: { permissions: ['contacts.view'] },
      token: member,
    });
    expect(denied.statusCode).toBe(403);
  });

  it('issues a token for email + password and tells who the caller is', async () => {
    const created = await h.call({
      method: 'POST',
      url: `/api/v3/workspaces/${h.ws}/users`,
      payload: { name: 'Ann', email: 'ann@example.com', password: 'correct horse', role_id: 1 },
    });
    expect(created.statusCode).toBe(201);
    const wrong = await h.call({
      method: 'POST',
      url: '/api/v3/auth/tokens',
      token: null,
      payload: { email: 'ann@example.com', password: 'nope' },
    });
    expect(wrong.statusCode).toBe(422);
    const ok = await h.call({
      method: 'POST',
      url: '/api/v3/auth/tokens',
      token: null,
      payload: { email: 'ann@example.com', password: 'correct horse' },
    });
    expect(ok.statusCode).toBe(201);
    const token = ok.json().data.token;
    const me = (await h.call({ method: 'GET', url: '/api/v3/me', token })).json();
    expect(me.data).toMatchObject({
      name: 'Ann',
      email: 'ann@example.com',
      partner: false,
      workspaces: [{ id: h.ws, role: { id: 1, name: 'Owner' } }],
    });
    const stored = h.db.prepare('SELECT token_hash FROM tokens').all() as Array<{ token_hash: string }>;
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.token_hash) && row.token_hash !== token)).toBe(true);
  });
});

describe('roles', () => {
  it('creates, lists, updates permissions, and deletes', async () => {
    const made = await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/roles`, payload: { name: 'Agent' } });
    expect(made.json()).toEqual({
      status: 201,
      message: 'Role created successfully.',
      data: {
        id: expect.any(Number),
        workspace_id: h.ws,
        name: 'Agent',
        permissions: [],
        builtin: false,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    const id = made.json().data.id;
    const list = (await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/roles` })).json();
    expect(list.data.map((r: { name: string }) => r.name)).toEqual(['Owner', 'Agent']);
    expect(list.meta.total).toBe(2);
    const upd = await h.call({ method: 'PUT', url: `/api/v3/workspaces/${h.ws}/roles/${id}`, payload: { permissions: ['contacts.view'] } });
    expect(upd.json().data).toMatchObject({ name: 'Agent', permissions: ['contacts.view'] });
    const badPerm = await h.call({ method: 'PUT', url: `/api/v3/workspaces/${h.ws}/roles/${id}`, payload: { permissions: ['nope'] } });
    expect(badPerm.json().errors).toEqual({ 'permissions.0': ['The selected permission is invalid.'] });
    const dup = await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/roles`, payload: { name: 'Agent' } });
    expect(dup.statusCode).toBe(422);
    expect((await h.call({ method: 'DELETE', url: `/api/v3/workspaces/${h.ws}/roles/${id}` })).json()).toEqual({
      message: 'Role deleted successfully.',
      status: 200,
    });
    const held = (await h.create(`/api/v3/workspaces/${h.ws}/roles`, { name: 'Held' })).id;
    await h.create(`/api/v3/workspaces/${h.ws}/users`, {
      name: 'Holder',
      email: 'holder@example.com',
      password: 'a long password',
      role_id: held,
    });
    const inUse = await h.call({ method: 'DELETE', url: `/api/v3/workspaces/${h.ws}/roles/${held}` });
    expect(inUse.statusCode).toBe(422);
    expect(inUse.json().errors).toEqual({ role: ['The role is assigned to 1 user and cannot be deleted.'] });
  });
});

describe('users', () => {
  it('lists members without any password field and updates by multipart', async () => {
    const list = (await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/users` })).json();
    expect(list.data).toHaveLength(1);
    expect(Object.keys(list.data[0]).sort()).toEqual(
      ['avatar_url', 'client', 'created_at', 'email', 'id', 'name', 'role', 'status', 'timezone', 'updated_at'].sort(),
    );
    const boundary = 'XyZ';
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nNew Name\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="timezone"\r\n\r\nEurope/Lisbon\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="client"\r\n\r\n1\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="avatar.0"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await h.call({
      method: 'POST',
      url: `/api/v3/workspaces/${h.ws}/users/${list.data[0].id}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 200,
      message: 'User updated successfully.',
      data: { name: 'New Name', timezone: 'Europe/Lisbon', client: true },
    });
    const avatar = await h.app.inject({ method: 'GET', url: new URL(res.json().data.avatar_url).pathname });
    expect(avatar.headers['content-type']).toBe('image/png');
    expect(avatar.rawPayload.equals(png)).toBe(true);
  });

  it('refuses a bad timezone, a short or unconfirmed password, and a taken email', async () => {
    const me = (await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/users` })).json().data[0];
    const url = `/api/v3/workspaces/${h.ws}/users/${me.id}`;
    const res = await h.call({ method: 'POST', url, payload: { timezone: 'Mars/Base', password: 'short', confirm_password: 'short' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      timezone: ['The timezone field must be a valid timezone.'],
      password: ['The password field must be at least 8 characters.'],
    });
    const mismatch = await h.call({ method: 'POST', url, payload: { password: 'longenough', confirm_password: 'different' } });
    expect(mismatch.json().errors).toEqual({ password: ['The password field confirmation does not match.'] });
    await h.call({
      method: 'POST',
      url: `/api/v3/workspaces/${h.ws}/users`,
      payload: { name: 'B', email: 'b@example.com', password: 'password1', role_id: 1 },
    });
    const taken = await h.call({ method: 'POST', url, payload: { email: 'b@example.com' } });
    expect(taken.json().errors).toEqual({ email: ['The email has already been taken.'] });
    const missing = await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/users/999`, payload: {} });
    expect(missing.statusCode).toBe(404);
  });
});

describe('empty JSON bodies', () => {
  it('treats an empty body sent as application/json as no body (a DELETE from a strict client)', async () => {
    const made = (await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/labels`, payload: { name: 'Tmp' } })).json().data;
    const res = await h.call({
      method: 'DELETE',
      url: `/api/v3/workspaces/${h.ws}/labels/${made.id}`,
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Label deleted successfully.', status: 200 });
    const proto = await h.call({
      method: 'POST',
      url: `/api/v3/workspaces/${h.ws}/labels`,
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"x","__proto__":{"polluted":true}}',
    });
    expect(proto.statusCode).toBe(422);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
