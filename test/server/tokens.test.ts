/**
 * Tokens (decisions.md §7): a token from POST /auth/tokens expires (30 days
 * by default, stated in the answer); DELETE /auth/tokens/current revokes the caller's token; a
 * password change revokes the user's other tokens.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const PASSWORD = 'a long password';
const DAY_MS = 24 * 60 * 60 * 1000;
const UNAUTHENTICATED = { status: 401, body: { message: 'Unauthenticated.' } };

async function userWithPassword(email = 'ann@example.com'): Promise<number> {
  const role = (
    await h.create(`/api/v3/workspaces/${h.ws}/roles`, { name: `R ${email}`, permissions: ['contacts.view', 'users.view', 'users.update'] })
  ).id;
  return (await h.create(`/api/v3/workspaces/${h.ws}/users`, { name: 'Ann', email, password: PASSWORD, role_id: role })).id;
}
const login = (email = 'ann@example.com', password = PASSWORD) =>
  h.call({ method: 'POST', url: '/api/v3/auth/tokens', token: null, payload: { email, password } });
async function tokenOf(email = 'ann@example.com', password = PASSWORD): Promise<string> {
  const res = await login(email, password);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.token;
}
const me = async (token: string) => {
  const res = await h.call({ method: 'GET', url: '/api/v3/me', token });
  return { status: res.statusCode, body: res.json() };
};

describe('POST /auth/tokens', () => {
  it('states when the token expires: 30 days from now by default', async () => {
    h = await createHarness();
    const userId = await userWithPassword();
    const before = Date.now();
    const res = await login();
    expect(res.json()).toEqual({
      status: 201,
      message: 'Token created successfully.',
      data: { token: expect.stringMatching(/^wsm_/), user_id: userId, expires_at: expect.stringMatching(/Z$/) },
    });
    const expires = Date.parse(res.json().data.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);
  });

  it('a token past its expiry is refused with 401', async () => {
    h = await createHarness({ tokenLifetimeMs: 2000 });
    await userWithPassword();
    const res = await login();
    const token = res.json().data.token;
    expect((await me(token)).status).toBe(200);
    await sleep(Date.parse(res.json().data.expires_at) - Date.now() + 50);
    expect(await me(token)).toEqual(UNAUTHENTICATED);
    // The server's own admin token (seeded) does not expire.
    expect((await me(h.token)).status).toBe(200);
  });
});

describe('DELETE /auth/tokens/current', () => {
  it("revokes the caller's token and no other", async () => {
    h = await createHarness();
    await userWithPassword();
    const [first, second] = [await tokenOf(), await tokenOf()];
    const res = await h.call({ method: 'DELETE', url: '/api/v3/auth/tokens/current', token: first });
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 200,
      body: { message: 'Token deleted successfully.', status: 200 },
    });
    expect(await me(first)).toEqual(UNAUTHENTICATED);
    expect((await me(second)).status).toBe(200);
    const again = await h.call({ method: 'DELETE', url: '/api/v3/auth/tokens/current', token: first });
    expect(again.statusCode).toBe(401);
  });
});

describe('a password change', () => {
  it("by the user: revokes the user's other tokens, keeps the one that made the change", async () => {
    h = await createHarness();
    const id = await userWithPassword();
    const [current, other] = [await tokenOf(), await tokenOf()];
    const res = await h.call({
      method: 'POST',
      url: `/api/v3/workspaces/${h.ws}/users/${id}`,
      token: current,
      payload: { password: 'the new password', confirm_password: 'the new password' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(current)).status).toBe(200);
    expect(await me(other)).toEqual(UNAUTHENTICATED);
    expect((await login()).statusCode).toBe(422);
    expect((await login('ann@example.com', 'the new password')).statusCode).toBe(201);
  });

  it('by someone else (users.manage): revokes every token of that user; a name change revokes nothing', async () => {
    h = await createHarness();
    const id = await userWithPassword();
    const [first, second] = [await tokenOf(), await tokenOf()];
    const rename = await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/users/${id}`, payload: { name: 'Ann Lee' } });
    expect(rename.statusCode).toBe(200);
    expect((await me(first)).status).toBe(200);
    const reset = await h.call({
      method: 'POST',
      url: `/api/v3/workspaces/${h.ws}/users/${id}`,
      payload: { password: 'reset by owner', confirm_password: 'reset by owner' },
    });
    expect(reset.statusCode).toBe(200);
    expect(await me(first)).toEqual(UNAUTHENTICATED);
    expect(await me(second)).toEqual(UNAUTHENTICATED);
    expect((await me(h.token)).status).toBe(200); // the owner's own token is not touched
  });
});
