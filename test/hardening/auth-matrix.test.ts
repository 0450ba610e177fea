/**
 * Every route of the server × {no token, bad token, member of another workspace,
 * member whose role lacks the permission, owner}. Generated from app.routeTable,
 * so a new route cannot skip it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/api/schemas/index.js';
import { createHarness, type Harness } from '../server/harness.js';
import { createUsersRepository, newToken } from '../../src/server/repositories/users.js';

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
  await h.close();
});

/** A concrete URL for a route pattern: the seeded workspace, id 1 for every other parameter. */
const urlFor = (pattern: string) =>
  pattern.replace(':workspace', h.ws).replace(/:[a-zA-Z_-]+/g, '1');

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
      expect([401, 403].includes(res.statusCode) || res.statusCode >= 500, `${route.method} ${route.url} -> ${res.statusCode} ${res.body}`).toBe(false);
    }
  });

  it('requires a workspace route to declare its permission', () => {
    const undeclared = protectedRoutes().filter((r) => r.url.includes(':workspace') && !r.permission);
    expect(undeclared.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });
});
