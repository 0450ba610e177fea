/**
 * Authority follows the workspace membership (decisions.md §8).
 * Role and status belong to the membership in W: whoever may manage W's members changes them
 * there, whatever the member holds elsewhere, and the owner of W always may (not on themselves).
 * What belongs to the person (password, e-mail, name) is changed by someone else only when their
 * authority covers every workspace the person belongs to.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/api/schemas/index.js';
import { createHarness, type Harness } from './harness.js';
import { FORBIDDEN, NEW_PASSWORD, OWNER, PASSWORD, people } from './people.js';

let h: Harness;
let p: ReturnType<typeof people>;
beforeEach(async () => {
  h = await createHarness();
  p = people(h);
});
afterEach(async () => {
  await h?.close();
});

const DEACTIVATED = { message: 'Your membership of this workspace is deactivated.', status: 403 };
const ELSEWHERE = { message: 'This user also belongs to a workspace you do not manage.', status: 403 };
const UNAUTHENTICATED = { message: 'Unauthenticated.' };
const MANAGER = ['users.view', 'users.update', 'users.manage', 'contacts.view'];

describe('role and status belong to the membership', () => {
  it('a member who creates a workspace of their own stays manageable by the owner of W: deactivated, shut out of W only, reactivated, demoted', async () => {
    const member = await p.user('Mallory', ['users.view']);
    const mine = await p.workspaceOf(member.token);

    const off = await p.updateUser(undefined, member.id, { status: false });
    expect({ status: off.statusCode, body: off.json() }).toMatchObject({ status: 200, body: { data: { id: member.id, status: false } } });
    // Shut out of W on the next request, with the reason...
    expect(await p.seen(p.wsUrl('/users'), member.token)).toEqual({ status: 403, body: DEACTIVATED });
    expect(await p.seen(p.wsUrl(''), member.token)).toEqual({ status: 403, body: DEACTIVATED });
    // ... while the same token keeps working in the member's own workspace.
    expect((await p.seen(`/api/v3/workspaces/${mine}/users`, member.token)).status).toBe(200);
    const me = await p.seen('/api/v3/me', member.token);
    expect(me.status).toBe(200);
    expect(me.body.data.workspaces.map((w: { id: string }) => w.id)).toEqual([mine]);

    const on = await p.updateUser(undefined, member.id, { status: true });
    expect(on.statusCode, on.body).toBe(200);
    expect((await p.seen(p.wsUrl('/users'), member.token)).status).toBe(200);

    const lesser = await p.role(['contacts.view'], 'Lesser');
    const demoted = await p.updateUser(undefined, member.id, { role_id: lesser });
    expect({ status: demoted.statusCode, role: demoted.json().data?.role }).toEqual({ status: 200, role: { id: lesser, name: 'Lesser' } });
    expect(await p.seen(p.wsUrl('/users'), member.token)).toEqual({ status: 403, body: FORBIDDEN });
    // Role and status in their own workspace are untouched.
    expect(await p.getUser(member.id, mine, member.token)).toMatchObject({ status: true, role: { name: 'Owner' } });
  });

  it('a manager of W whose permissions in W cover the member changes role and status in W, whatever the member holds elsewhere', async () => {
    const manager = await p.user('Manager', MANAGER);
    const member = await p.user('Member', ['contacts.view']);
    await p.workspaceOf(member.token);
    const viewer = await p.role(['users.view'], 'Viewer');
    for (const change of [{ role_id: viewer }, { status: false }, { status: true }]) {
      const res = await p.updateUser(manager.token, member.id, change);
      expect({ change, status: res.statusCode, body: res.body }).toMatchObject({ change, status: 200 });
    }
    expect(await p.getUser(member.id)).toMatchObject({ status: true, role: { id: viewer, name: 'Viewer' } });
  });

  it('a manager cannot change the role or status of a member holding more in W, nor of an owner of W: 403 naming why', async () => {
    const manager = await p.user('Manager', MANAGER);
    const bigger = await p.user('Bigger', [...MANAGER, 'contacts.delete']);
    for (const change of [{ status: false }, { role_id: manager.roleId }]) {
      const res = await p.updateUser(manager.token, bigger.id, change);
      expect({ change, status: res.statusCode, body: res.json() }).toEqual({
        change,
        status: 403,
        body: { message: 'This user holds permissions in this workspace that you do not.', status: 403 },
      });
      const owner = await p.updateUser(manager.token, OWNER.id, change);
      expect({ change, status: owner.statusCode, body: owner.json() }).toEqual({
        change,
        status: 403,
        body: { message: 'This user is an owner of this workspace: only an owner can change them.', status: 403 },
      });
    }
    expect(await p.getUser(bigger.id)).toMatchObject({ status: true, role: { id: bigger.roleId } });
    expect(await p.getUser(OWNER.id)).toMatchObject({ status: true, role: { name: 'Owner' } });
  });

  it("without users.manage, nobody changes another member's role or status", async () => {
    const editor = await p.user('Editor', ['users.view', 'users.update', 'contacts.view', 'contacts.create']);
    const member = await p.user('Member', ['contacts.view']);
    for (const change of [{ status: false }, { role_id: editor.roleId }]) {
      const res = await p.updateUser(editor.token, member.id, change);
      expect({ change, status: res.statusCode, body: res.json() }).toEqual({
        change,
        status: 403,
        body: { message: "Changing another user's password, e-mail, status or role needs the users.manage permission.", status: 403 },
      });
    }
  });

  it('the owner of W manages every member, a co-owner included, but not themselves', async () => {
    const member = await p.user('Member', ALL_PERMISSIONS);
    const promoted = await p.updateUser(undefined, member.id, { role_id: 1 });
    expect(promoted.json().data?.role, promoted.body).toEqual({ id: 1, name: 'Owner' });
    // A co-owner is an owner: it may manage the other owner, and the other owner it.
    expect((await p.updateUser(member.token, OWNER.id, { status: true })).statusCode).toBe(200);
    expect((await p.updateUser(undefined, member.id, { status: false })).statusCode).toBe(200);
    expect(await p.seen(p.wsUrl('/users'), member.token)).toEqual({ status: 401, body: UNAUTHENTICATED });
    for (const [change, field, text] of [
      [{ status: false }, 'status', 'You cannot change your own status.'],
      [{ role_id: member.roleId }, 'role_id', 'You cannot change your own role.'],
    ] as const) {
      const res = await p.updateUser(undefined, OWNER.id, change);
      expect({ status: res.statusCode, body: res.json() }).toEqual({
        status: 422,
        body: { message: 'Validation error', errors: { [field]: [text] } },
      });
    }
    expect(await p.getUser(OWNER.id)).toMatchObject({ status: true, role: { id: 1, name: 'Owner' } });
  });

  it('only an owner gives the Owner role: a member holding every permission cannot make an owner', async () => {
    const admin = await p.user('Admin', ALL_PERMISSIONS);
    const member = await p.user('Member', ['contacts.view']);
    const res = await p.updateUser(admin.token, member.id, { role_id: 1 });
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 422,
      body: { message: 'Validation error', errors: { role_id: ['Only an owner of this workspace can give the Owner role.'] } },
    });
    const made = await h.call({
      method: 'POST',
      url: p.wsUrl('/users'),
      token: admin.token,
      payload: { name: 'Sock', email: 'sock@example.com', password: PASSWORD, role_id: 1 },
    });
    expect(made.json()).toEqual({
      message: 'Validation error',
      errors: { role_id: ['Only an owner of this workspace can give the Owner role.'] },
    });
    // Nor can it shut the owner out: the owner can always manage its workspace.
    expect((await p.updateUser(admin.token, OWNER.id, { status: false })).statusCode).toBe(403);
    expect((await p.seen(p.wsUrl('/users'))).status).toBe(200);
  });

  it('a user with no active membership left gets 401 on every request and cannot sign in; one active membership is enough', async () => {
    const member = await p.user('Member', ['users.view']);
    const second = (await h.create('/api/v3/workspaces', { name: 'Second' })).id;
    p.addMember(second, member.id, await p.role(['users.view'], 'Viewer', undefined, second));
    expect((await p.updateUser(undefined, member.id, { status: false })).statusCode).toBe(200);
    expect((await p.seen(`/api/v3/workspaces/${second}/users`, member.token)).status).toBe(200);
    expect((await p.seen('/api/v3/me', member.token)).body.data.workspaces.map((w: { id: string }) => w.id)).toEqual([second]);

    expect((await p.updateUser(undefined, member.id, { status: false }, second)).statusCode).toBe(200);
    for (const url of ['/api/v3/me', p.wsUrl('/users'), `/api/v3/workspaces/${second}/users`]) {
      expect({ url, ...(await p.seen(url, member.token)) }).toEqual({ url, status: 401, body: UNAUTHENTICATED });
    }
    expect((await h.call({ method: 'POST', url: '/api/v3/workspaces', token: member.token, payload: { name: 'Escape' } })).statusCode).toBe(
      401,
    );
    expect(await p.tryLogin(member.email, PASSWORD)).toBe(422);
    // Each workspace lists the member with its own status.
    expect((await p.getUser(member.id)).status).toBe(false);
    expect((await p.updateUser(undefined, member.id, { status: true }, second)).statusCode).toBe(200);
    expect((await p.seen('/api/v3/me', member.token)).status).toBe(200);
    expect((await p.getUser(member.id)).status).toBe(false);
    expect((await p.getUser(member.id, second)).status).toBe(true);
  });
});

describe('what belongs to the person', () => {
  it('the owner of W cannot change the password, e-mail or name of a member who owns another workspace: 403 naming why', async () => {
    const member = await p.user('Mallory', ['users.view', 'users.update']);
    await p.workspaceOf(member.token);
    for (const change of [NEW_PASSWORD, { email: 'taken@example.com' }, { name: 'Renamed' }]) {
      const res = await p.updateUser(undefined, member.id, change);
      expect({ change, status: res.statusCode, body: res.json() }).toEqual({ change, status: 403, body: ELSEWHERE });
    }
    expect(await p.tryLogin(member.email, PASSWORD)).toBe(201);
    expect(await p.getUser(member.id)).toMatchObject({ name: 'Mallory', email: member.email });
    // The member's own account stays theirs to change.
    expect((await p.updateUser(member.token, member.id, { email: 'mallory2@example.com', ...NEW_PASSWORD })).statusCode).toBe(200);
    expect(await p.tryLogin('mallory2@example.com', NEW_PASSWORD.password)).toBe(201);
  });

  it('a manager whose authority covers every workspace of the person changes the password and e-mail; one workspace it does not manage is enough to refuse', async () => {
    const manager = await p.user('Manager', MANAGER);
    const member = await p.user('Member', ['contacts.view']);
    const second = (await h.create('/api/v3/workspaces', { name: 'Second' })).id;
    const agentThere = await p.role(['contacts.view'], 'Agent', undefined, second);
    p.addMember(second, member.id, agentThere);

    // The manager is not a member of the second workspace.
    expect((await p.updateUser(manager.token, member.id, NEW_PASSWORD)).json()).toEqual(ELSEWHERE);
    // A member there without users.manage: still not its manager.
    p.addMember(second, manager.id, await p.role(['users.view', 'contacts.view'], 'Looker', undefined, second));
    expect((await p.updateUser(manager.token, member.id, NEW_PASSWORD)).json()).toEqual(ELSEWHERE);
    // Managing there too: the password and e-mail are within reach.
    h.db
      .prepare('UPDATE memberships SET role_id = ? WHERE workspace_id = ? AND user_id = ?')
      .run(await p.role(MANAGER, 'Manager', undefined, second), second, manager.id);
    const res = await p.updateUser(manager.token, member.id, { email: 'member2@example.com', ...NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(await p.tryLogin('member2@example.com', NEW_PASSWORD.password)).toBe(201);
    // The owner of both workspaces covers them too.
    expect((await p.updateUser(undefined, member.id, { name: 'Member Renamed' })).statusCode).toBe(200);
  });

  it("a deactivated membership of the caller is no authority, and a partner's account needs a partner", async () => {
    const manager = await p.user('Manager', MANAGER);
    const member = await p.user('Member', ['contacts.view']);
    const second = (await h.create('/api/v3/workspaces', { name: 'Second' })).id;
    p.addMember(second, member.id, await p.role(['contacts.view'], 'Agent', undefined, second));
    p.addMember(second, manager.id, await p.role(MANAGER, 'Manager', undefined, second));
    expect((await p.updateUser(undefined, manager.id, { status: false }, second)).statusCode).toBe(200);
    expect((await p.updateUser(manager.token, member.id, NEW_PASSWORD)).json()).toEqual(ELSEWHERE);

    const admin = await p.user('Admin', ALL_PERMISSIONS);
    const partner = await p.updateUser(admin.token, OWNER.id, NEW_PASSWORD);
    expect({ status: partner.statusCode, body: partner.json() }).toEqual({
      status: 403,
      body: { message: 'This user is a partner: only a partner can change their account.', status: 403 },
    });
  });
});
