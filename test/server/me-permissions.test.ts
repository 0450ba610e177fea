/**
 * GET /me says, per workspace, what the caller may do there: the permissions the server checks a
 * request against (its role's, of those the workspace enables). The CLI reads it to refuse a
 * delete before asking about it (test/e2e/delete-permission.test.ts).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/api/schemas/index.js';
import { createHarness, type Harness } from './harness.js';
import { people } from './people.js';

let h: Harness;
let p: ReturnType<typeof people>;
beforeEach(async () => {
  h = await createHarness();
  p = people(h);
});
afterEach(async () => {
  await h?.close();
});

const permissionsIn = async (token: string | undefined, ws: string) => {
  const me = await p.seen('/api/v3/me', token);
  expect(me.status).toBe(200);
  return me.body.data.workspaces.find((w: { id: string }) => w.id === ws)?.permissions;
};

it("lists a member's role permissions in its workspace, and the owner's every enabled one", async () => {
  const member = await p.user('Vera', ['contacts.view', 'labels.delete']);
  expect(await permissionsIn(member.token, h.ws)).toEqual(['contacts.view', 'labels.delete']);
  expect(new Set(await permissionsIn(undefined, h.ws))).toEqual(new Set(ALL_PERMISSIONS));
  // The member's 403 and 200 follow the same list.
  expect((await h.call({ method: 'DELETE', url: p.wsUrl('/contacts/1'), token: member.token })).statusCode).toBe(403);
});

it('leaves out what the workspace no longer enables, as a request is checked', async () => {
  const member = await p.user('Walt', ['contacts.view', 'contacts.delete']);
  const enabled = ALL_PERMISSIONS.filter((name) => name !== 'contacts.delete');
  h.db.prepare('UPDATE workspaces SET permissions = ? WHERE id = ?').run(JSON.stringify(enabled), h.ws);
  expect(await permissionsIn(member.token, h.ws)).toEqual(['contacts.view']);
  expect((await h.call({ method: 'DELETE', url: p.wsUrl('/contacts/1'), token: member.token })).statusCode).toBe(403);
});
