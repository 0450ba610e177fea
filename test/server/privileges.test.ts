/**
 * Permissions as access promises (decisions.md §7, §8): what a user who
 * holds a permission can do to OTHERS. Changing another user's password, e-mail, status or role
 * needs `users.manage`; nobody changes their own role; a role only ever holds permissions its
 * editor holds; owners, partners and the person of users of other workspaces are out of reach of
 * users with fewer permissions (membership.test.ts: what the membership decides). A partner keeps
 * full access to the workspaces it creates.
 */
import { beforeEach, afterEach, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/api/schemas/index.js';
import { createHarness, type Harness } from './harness.js';
import { multipart } from './template-fixtures.js';
import { FORBIDDEN, NEW_PASSWORD, OWNER, PASSWORD, people } from './people.js';
import { REFUSALS } from '../../src/server/http/access.js';

let h: Harness;
let role: ReturnType<typeof people>['role'];
let user: ReturnType<typeof people>['user'];
let updateUser: ReturnType<typeof people>['updateUser'];
let tryLogin: ReturnType<typeof people>['tryLogin'];
beforeEach(async () => {
  h = await createHarness();
  ({ role, user, updateUser, tryLogin } = people(h));
});
afterEach(async () => {
  await h?.close();
});

const url = (suffix: string) => `/api/v3/workspaces/${h.ws}${suffix}`;
const newPassword = NEW_PASSWORD;
const ownerRoleId = 1;
const NEEDS_MANAGE = { message: REFUSALS.manage, status: 403 };

describe('users.update without users.manage', () => {
  it("cannot change the owner's password, e-mail or status, nor log in as the owner", async () => {
    const editor = await user('Editor', ['users.view', 'users.update']);
    for (const change of [newPassword, { email: 'attacker@example.com' }, { status: false }]) {
      const res = await updateUser(editor.token, OWNER.id, change);
      expect({ change, status: res.statusCode, body: res.json() }).toEqual({ change, status: 403, body: NEEDS_MANAGE });
    }
    // The same as a multipart form (the documented shape of this update).
    const form = multipart([
      ['password', newPassword.password],
      ['confirm_password', newPassword.password],
    ]);
    expect((await h.call({ method: 'POST', url: url(`/users/${OWNER.id}`), token: editor.token, ...form })).statusCode).toBe(403);
    expect(await tryLogin('attacker@example.com', newPassword.password)).toBe(422);
    const owner = (await h.call({ method: 'GET', url: url(`/users/${OWNER.id}`) })).json().data;
    expect(owner).toMatchObject({ email: OWNER.email, status: true });
    expect((await h.call({ method: 'GET', url: '/api/v3/me' })).statusCode).toBe(200);
  });

  it("cannot change any other user's password, e-mail, status or role, but can rename a user with no more permissions", async () => {
    const editor = await user('Editor', ['users.view', 'users.update', 'contacts.view']);
    const agent = await user('Agent', ['contacts.view']);
    for (const change of [newPassword, { email: 'elsewhere@example.com' }, { status: false }, { role_id: editor.roleId }]) {
      const res = await updateUser(editor.token, agent.id, change);
      expect({ change, status: res.statusCode }).toEqual({ change, status: 403 });
    }
    expect(await tryLogin(agent.email, PASSWORD)).toBe(201);
    const renamed = await updateUser(editor.token, agent.id, { name: 'Agent Smith', timezone: 'Europe/Lisbon' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: 'Agent Smith', timezone: 'Europe/Lisbon' });
  });

  it('can change its own name, e-mail and password, but not its own role', async () => {
    const editor = await user('Editor', ['users.view', 'users.update']);
    const own = await updateUser(editor.token, editor.id, { name: 'Me', email: 'me@example.com', ...newPassword });
    expect(own.statusCode, own.body).toBe(200);
    expect(await tryLogin('me@example.com', newPassword.password)).toBe(201);
    const promote = await updateUser(editor.token, editor.id, { role_id: ownerRoleId });
    expect({ status: promote.statusCode, body: promote.json() }).toEqual({
      status: 422,
      body: { message: 'Validation error', errors: { role_id: ['You cannot change your own role.'] } },
    });
    const unchanged = (await h.call({ method: 'GET', url: url(`/users/${editor.id}`) })).json().data;
    expect(unchanged.role).toEqual({ id: editor.roleId, name: 'Editor role' });
  });
});

describe('users.manage', () => {
  it("changes another user's password, e-mail, status and role within its own permissions", async () => {
    const manager = await user('Manager', ['users.view', 'users.update', 'users.manage', 'contacts.view', 'contacts.create']);
    const agent = await user('Agent', ['contacts.view']);
    const creator = await role(['contacts.view', 'contacts.create'], 'Creator');
    for (const change of [newPassword, { email: 'agent2@example.com' }, { role_id: creator }, { status: false }]) {
      const res = await updateUser(manager.token, agent.id, change);
      expect({ change, status: res.statusCode, body: res.body }).toMatchObject({ change, status: 200 });
    }
    expect((await h.call({ method: 'GET', url: url(`/users/${agent.id}`) })).json().data).toMatchObject({
      email: 'agent2@example.com',
      status: false,
      role: { id: creator, name: 'Creator' },
    });
  });

  it('cannot give a role holding a permission it lacks, nor change its own role', async () => {
    const manager = await user('Manager', ['users.view', 'users.update', 'users.manage', 'contacts.view']);
    const agent = await user('Agent', ['contacts.view']);
    const bigger = await role(['contacts.view', 'workspace.view', 'workspace.update'], 'Bigger');
    const toBigger = await updateUser(manager.token, agent.id, { role_id: bigger });
    expect({ status: toBigger.statusCode, body: toBigger.json() }).toEqual({
      status: 422,
      body: {
        message: 'Validation error',
        errors: { role_id: ['The role holds permissions you do not have: workspace.view, workspace.update.'] },
      },
    });
    const self = await updateUser(manager.token, manager.id, { role_id: agent.roleId });
    expect(self.json()).toEqual({ message: 'Validation error', errors: { role_id: ['You cannot change your own role.'] } });
  });

  it('never reaches a user holding permissions it lacks: the owner, a partner, or a member of another workspace', async () => {
    const manager = await user('Manager', ['users.view', 'users.update', 'users.manage', 'contacts.view', 'workspace.view']);
    // The owner holds more: no change at all, not even the name.
    for (const change of [newPassword, { email: 'x@example.com' }, { status: false }, { name: 'Renamed owner' }]) {
      expect({ change, status: (await updateUser(manager.token, OWNER.id, change)).statusCode }).toEqual({ change, status: 403 });
    }
    // A user with the same permissions here who also belongs to a workspace the manager is not in.
    const twin = await user('Twin', ['contacts.view']);
    const elsewhere = (await h.create('/api/v3/workspaces', { name: 'Elsewhere' })).id;
    const elsewhereRole = (await h.create(`/api/v3/workspaces/${elsewhere}/roles`, { name: 'Agent', permissions: ['contacts.view'] })).id;
    h.db
      .prepare('INSERT INTO memberships (workspace_id, user_id, role_id, created_at) VALUES (?, ?, ?, ?)')
      .run(elsewhere, twin.id, elsewhereRole, new Date().toISOString());
    const res = await updateUser(manager.token, twin.id, newPassword);
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 403, body: { message: REFUSALS.elsewhere, status: 403 } });
    expect(await tryLogin(twin.email, PASSWORD)).toBe(201);
  });

  it("a member holding every permission still cannot touch a partner's account", async () => {
    const admin = await user('Admin', ALL_PERMISSIONS);
    expect((await updateUser(admin.token, OWNER.id, newPassword)).statusCode).toBe(403);
    expect((await updateUser(admin.token, OWNER.id, { status: false })).statusCode).toBe(403);
    // ... while managing anyone else of the workspace.
    const agent = await user('Agent', ['contacts.view']);
    expect((await updateUser(admin.token, agent.id, newPassword)).statusCode).toBe(200);
  });
});

describe('users.create', () => {
  it('cannot create a user with a role holding permissions it lacks', async () => {
    const hr = await user('Hr', ['users.view', 'users.create', 'contacts.view']);
    const bigger = await role(['contacts.view', 'contacts.delete'], 'Bigger');
    const res = await h.call({
      method: 'POST',
      url: url('/users'),
      token: hr.token,
      payload: { name: 'Sock', email: 'sock@example.com', password: PASSWORD, role_id: bigger },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.role_id[0]).toMatch(/^The role holds permissions you do not have: /);
    expect(await tryLogin('sock@example.com', PASSWORD)).toBe(422);
    const agentRole = await role(['contacts.view']);
    const ok = await h.call({
      method: 'POST',
      url: url('/users'),
      token: hr.token,
      payload: { name: 'Ok', email: 'ok@example.com', password: PASSWORD, role_id: agentRole },
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });
});

describe('roles.update and roles.create', () => {
  it('cannot grant a permission the caller lacks, to its own role or any other, by index', async () => {
    const keeper = await user('Keeper', ['roles.view', 'roles.create', 'roles.update', 'contacts.view']);
    const own = await h.call({
      method: 'PUT',
      url: url(`/roles/${keeper.roleId}`),
      token: keeper.token,
      payload: { permissions: ['roles.view', 'roles.update', 'contacts.view', 'users.manage'] },
    });
    expect({ status: own.statusCode, body: own.json() }).toEqual({
      status: 422,
      body: { message: 'Validation error', errors: { 'permissions.3': ['You cannot grant users.manage: you do not hold it.'] } },
    });
    const other = await role(['contacts.view'], 'Other');
    const grant = await h.call({
      method: 'PUT',
      url: url(`/roles/${other}`),
      token: keeper.token,
      payload: { permissions: ['contacts.view', 'contacts.delete'] },
    });
    expect(grant.json().errors).toEqual({ 'permissions.1': ['You cannot grant contacts.delete: you do not hold it.'] });
    const made = await h.call({
      method: 'POST',
      url: url('/roles'),
      token: keeper.token,
      payload: { name: 'Sneaky', permissions: ['workspace.update'] },
    });
    expect(made.json().errors).toEqual({ 'permissions.0': ['You cannot grant workspace.update: you do not hold it.'] });
    // Within its own permissions it may.
    const fine = await h.call({
      method: 'PUT',
      url: url(`/roles/${other}`),
      token: keeper.token,
      payload: { permissions: ['contacts.view', 'roles.view'] },
    });
    expect(fine.statusCode, fine.body).toBe(200);
    expect((await h.call({ method: 'GET', url: url(`/roles/${keeper.roleId}`) })).json().data.permissions).toEqual([
      'roles.view',
      'roles.create',
      'roles.update',
      'contacts.view',
    ]);
  });

  it('cannot edit a role holding permissions the caller lacks, not even its name', async () => {
    const keeper = await user('Keeper', ['roles.view', 'roles.update']);
    const admin = await role(ALL_PERMISSIONS, 'Admin');
    for (const payload of [{ permissions: ['roles.view'] }, { name: 'Demoted' }]) {
      const res = await h.call({ method: 'PUT', url: url(`/roles/${admin}`), token: keeper.token, payload });
      expect({ payload, status: res.statusCode, body: res.json() }).toEqual({ payload, status: 403, body: FORBIDDEN });
    }
    expect((await h.call({ method: 'GET', url: url(`/roles/${admin}`) })).json().data).toMatchObject({
      name: 'Admin',
      permissions: ALL_PERMISSIONS,
    });
  });
});

describe('a partner and the workspaces it creates', () => {
  it('keeps full access to a workspace whose enabled permissions its defaults narrowed; its roles stay within them', async () => {
    await h.call({
      method: 'PATCH',
      url: '/api/v3/workspaces/partner/permissions',
      payload: { permissions: ['contacts.view', 'labels.view'] },
    });
    const ws = (await h.create('/api/v3/workspaces', { name: 'Narrow' })).id;
    const perms = await h.call({ method: 'GET', url: `/api/v3/workspaces/${ws}/permissions` });
    expect({ status: perms.statusCode, body: perms.json() }).toEqual({
      status: 200,
      body: { data: [{ contacts: ['contacts.view'] }, { labels: ['labels.view'] }] },
    });
    expect((await h.call({ method: 'POST', url: `/api/v3/workspaces/${ws}/labels`, payload: { name: 'Mine' } })).statusCode).toBe(201);
    // The defaults bound what the workspace's roles may hold.
    const wide = await h.call({
      method: 'POST',
      url: `/api/v3/workspaces/${ws}/roles`,
      payload: { name: 'Wide', permissions: ['contacts.view', 'labels.create'] },
    });
    expect(wide.json()).toEqual({
      message: 'Validation error',
      errors: { 'permissions.1': ['The permission labels.create is not enabled in this workspace.'] },
    });
    const narrow = await h.call({
      method: 'POST',
      url: `/api/v3/workspaces/${ws}/roles`,
      payload: { name: 'Narrow', permissions: ['contacts.view'] },
    });
    expect(narrow.statusCode, narrow.body).toBe(201);
  });
});
