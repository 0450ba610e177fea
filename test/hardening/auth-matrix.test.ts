/**
 * Every route of the server × {no token, bad token, member of another workspace,
 * member whose role lacks the permission, owner}. Generated from app.routeTable,
 * so a new route cannot skip it. Then every route that changes a member's role or status
 * (decisions.md §8): a member who owns another workspace stays manageable in W, and a manager of
 * W cannot reach that other workspace through the member's password or e-mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/api/schemas/index.js';
import { createHarness, type Harness } from '../server/harness.js';
import { createUsersRepository, newToken } from '../../src/server/repositories/users.js';
import { people, PASSWORD } from '../server/people.js';
import { multipart } from '../server/template-fixtures.js';

let h: Harness;
let outsider: string;
const lacking = new Map<string, string>();

beforeAll(async () => {
  h = await createHarness();
  outsider = await h.outsider();
  for (const permission of ALL_PERMISSIONS) {
    lacking.set(permission, await h.memberWith(ALL_PERMISSIONS.filter((p) => p !== permission)));
  }
});
afterAll(async () => {
  await h?.close();
});

/** A concrete URL for a route pattern: the seeded workspace, id 1 for every other parameter. */
const urlFor = (pattern: string) => pattern.replace(':workspace', h.ws).replace(/:[a-zA-Z_-]+/g, '1');

function protectedRoutes() {
  return h.app.routeTable.filter((route) => !route.public);
}

describe('auth matrix', () => {
  it('covers every registered route', () => {
    // The table is built at registration: if this drops, a plugin stopped registering routes.
    expect(protectedRoutes().length).toBeGreaterThanOrEqual(40);
  });

  it('answers 401 {message: Unauthenticated.} without a token and with a bad token on every route', async () => {
    for (const route of protectedRoutes()) {
      for (const token of [null, 'wsm_not_a_real_token']) {
        const res = await h.call({ method: route.method as 'GET', url: urlFor(route.url), token, payload: {} });
        expect({ route: `${route.method} ${route.url}`, status: res.statusCode, body: res.json() }).toEqual({
          route: `${route.method} ${route.url}`,
          status: 401,
          body: { message: 'Unauthenticated.' },
        });
      }
    }
  });

  it('hides the workspace (404) from a member of another workspace on every workspace route', async () => {
    for (const route of protectedRoutes().filter((r) => r.url.includes(':workspace'))) {
      const res = await h.call({ method: route.method as 'GET', url: urlFor(route.url), token: outsider, payload: {} });
      expect(`${route.method} ${route.url} -> ${res.statusCode}`).toBe(`${route.method} ${route.url} -> 404`);
    }
  });

  it('forbids (403) a member whose role lacks the route permission', async () => {
    const guarded = protectedRoutes().filter((r) => r.permission);
    expect(guarded.length).toBeGreaterThan(30);
    for (const route of guarded) {
      const token = lacking.get(route.permission!)!;
      const res = await h.call({ method: route.method as 'GET', url: urlFor(route.url), token, payload: {} });
      expect(`${route.method} ${route.url} -> ${res.statusCode}`).toBe(`${route.method} ${route.url} -> 403`);
      expect(res.json()).toMatchObject({ message: 'This action is unauthorized.', status: 403 });
    }
  });

  it('lets the owner through on every route: never 401, 403 or a 5xx', async () => {
    // Deletes last, so that every other route still finds what it reads.
    const ordered = [...protectedRoutes()].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    // DELETE /auth/tokens/current revokes the token it is called with: give it one of its own.
    const spare = newToken();
    createUsersRepository(h.db).addToken(1, spare);
    for (const route of ordered) {
      const token = route.url.endsWith('/auth/tokens/current') ? spare : undefined;
      const res = await h.call({ method: route.method as 'GET', url: urlFor(route.url), payload: {}, token });
      expect(
        [401, 403].includes(res.statusCode) || res.statusCode >= 500,
        `${route.method} ${route.url} -> ${res.statusCode} ${res.body}`,
      ).toBe(false);
    }
  });

  it('requires a workspace route to declare its permission', () => {
    const undeclared = protectedRoutes().filter((r) => r.url.includes(':workspace') && !r.permission);
    expect(undeclared.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });
});

describe('membership changes: the member in W, never its other workspaces', () => {
  const ELSEWHERE = 'This user also belongs to a workspace you do not manage.';
  /** The routes that change an existing member (its role, its status): the user update of each workspace. */
  const memberRoutes = () => protectedRoutes().filter((route) => /\/users\/:[a-z_]+$/.test(route.url) && route.method !== 'GET');
  /** Each change as JSON and as the multipart form the documented update takes. */
  const encodings = {
    json: (change: Record<string, unknown>) => ({ payload: change }),
    multipart: (change: Record<string, unknown>) =>
      multipart(Object.entries(change).map(([key, value]) => [key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value)])),
  };
  let serial = 0;

  /** A member of W with a small role who has created a workspace of its own (where it holds everything). */
  async function memberOwningAnother() {
    const p = people(h);
    serial += 1;
    const member = await p.user(`Owner${serial}`, ['contacts.view']);
    await p.workspaceOf(member.token, `Own ${serial}`);
    return member;
  }

  it('knows every route that changes a member', () => {
    expect(memberRoutes().map((route) => `${route.method} ${route.url}`)).toEqual(['POST /api/v3/workspaces/:workspace/users/:user']);
  });

  it('on each, a member owning another workspace stays manageable (role and status) by the owner of W and by a manager of W', async () => {
    const p = people(h);
    const manager = await p.user('Matrix Manager', ['users.view', 'users.update', 'users.manage', 'contacts.view', 'contacts.create']);
    const smaller = await p.role(['contacts.create'], 'Matrix Smaller');
    const seen: string[] = [];
    for (const route of memberRoutes()) {
      for (const [encoding, encode] of Object.entries(encodings)) {
        for (const [who, token] of [
          ['owner', undefined],
          ['manager', manager.token],
        ] as const) {
          const member = await memberOwningAnother();
          for (const change of [{ role_id: smaller }, { status: false }, { status: true }]) {
            const res = await h.call({
              method: route.method as 'POST',
              url: urlFor(route.url).replace(/\/1$/, `/${member.id}`),
              token,
              ...encode(change),
            });
            seen.push(`${route.method} ${route.url} ${encoding} by ${who} ${JSON.stringify(change)} -> ${res.statusCode}`);
          }
          expect(await p.getUser(member.id)).toMatchObject({ status: true, role: { id: smaller } });
        }
      }
    }
    expect(seen.filter((line) => !line.endsWith('-> 200'))).toEqual([]);
    expect(seen).toHaveLength(memberRoutes().length * 2 * 2 * 3);
  });

  it("on each, a manager of W (the owner included) cannot reach the member's other workspace through its password or e-mail", async () => {
    const p = people(h);
    const manager = await p.user('Matrix Keeper', ['users.view', 'users.update', 'users.manage', 'contacts.view']);
    const refused: string[] = [];
    for (const route of memberRoutes()) {
      for (const [encoding, encode] of Object.entries(encodings)) {
        for (const [who, token] of [
          ['owner', undefined],
          ['manager', manager.token],
        ] as const) {
          const member = await memberOwningAnother();
          for (const change of [
            { password: 'taken over 123', confirm_password: 'taken over 123' },
            { email: `taken${member.id}@example.com` },
          ]) {
            const res = await h.call({
              method: route.method as 'POST',
              url: urlFor(route.url).replace(/\/1$/, `/${member.id}`),
              token,
              ...encode(change),
            });
            refused.push(
              `${route.method} ${route.url} ${encoding} by ${who} ${Object.keys(change)[0]} -> ${res.statusCode} ${res.json().message}`,
            );
          }
          expect(await p.tryLogin(member.email, PASSWORD)).toBe(201);
        }
      }
    }
    expect(refused.filter((line) => !line.endsWith(`-> 403 ${ELSEWHERE}`))).toEqual([]);
    expect(refused).toHaveLength(memberRoutes().length * 2 * 2 * 2);
  });
});
