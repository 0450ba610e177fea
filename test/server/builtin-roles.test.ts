/**
 * The built-in role (decisions.md §8): the Owner role every workspace is
 * created with is marked `"builtin": true` in every answer, and renaming it, changing its
 * permissions or deleting it is a 422 naming why, for everyone, the owner included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/api/schemas/index.js';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const roles = (suffix = '', ws?: string) => `/api/v3/workspaces/${ws ?? h.ws}/roles${suffix}`;
const invalid = (errors: Record<string, string[]>) => ({ message: 'Validation error', errors });

describe('the built-in Owner role', () => {
  it('is marked builtin in the list, in a get, and in a workspace made later; other roles are not', async () => {
    const agent = await h.create(roles(), { name: 'Agent', permissions: ['contacts.view'] });
    expect(agent.builtin).toBe(false);
    const list = (await h.call({ method: 'GET', url: roles() })).json().data;
    expect(list.map((role: { name: string; builtin: boolean }) => [role.name, role.builtin])).toEqual([
      ['Owner', true],
      ['Agent', false],
    ]);
    expect((await h.call({ method: 'GET', url: roles('/1') })).json().data).toMatchObject({ id: 1, name: 'Owner', builtin: true });
    const other = (await h.create('/api/v3/workspaces', { name: 'Later' })).id;
    expect((await h.call({ method: 'GET', url: roles('', other) })).json().data).toMatchObject([{ name: 'Owner', builtin: true }]);
  });

  it('cannot be renamed, re-permissioned or deleted, not even by the owner: 422 naming why', async () => {
    const cases: Array<[string, Record<string, unknown> | undefined, Record<string, string[]>]> = [
      ['PUT', { name: 'Boss' }, { name: ['The Owner role is built in: it cannot be renamed.'] }],
      [
        'PUT',
        { permissions: ['contacts.view'] },
        { permissions: ['The Owner role is built in: its permissions are those the workspace enables, and cannot be changed.'] },
      ],
      [
        'PUT',
        { name: 'Boss', permissions: [] },
        {
          name: ['The Owner role is built in: it cannot be renamed.'],
          permissions: ['The Owner role is built in: its permissions are those the workspace enables, and cannot be changed.'],
        },
      ],
      ['DELETE', undefined, { role: ['The Owner role is built in: it cannot be deleted.'] }],
    ];
    for (const [method, payload, errors] of cases) {
      const res = await h.call({ method: method as 'PUT', url: roles('/1'), payload });
      expect({ method, payload, status: res.statusCode, body: res.json() }).toEqual({
        method,
        payload,
        status: 422,
        body: invalid(errors),
      });
    }
    expect((await h.call({ method: 'GET', url: roles('/1') })).json().data).toMatchObject({
      name: 'Owner',
      permissions: ALL_PERMISSIONS,
      builtin: true,
    });
  });

  it('accepts a write of what it already is (a client sending the record back), changing nothing', async () => {
    const before = (await h.call({ method: 'GET', url: roles('/1') })).json().data;
    const res = await h.call({ method: 'PUT', url: roles('/1'), payload: { name: 'Owner', permissions: [...ALL_PERMISSIONS].reverse() } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Owner', permissions: before.permissions, builtin: true });
  });

  it('keeps its name taken: no second role can be called Owner', async () => {
    const res = await h.call({ method: 'POST', url: roles(), payload: { name: 'Owner' } });
    expect(res.json()).toEqual(invalid({ name: ['The name has already been taken.'] }));
  });
});
