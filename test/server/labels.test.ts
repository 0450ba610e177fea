import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, stamp, type Harness } from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h?.close();
});

describe('labels', () => {
  it('creates a label with the exact create envelope, colour null when omitted', async () => {
    const res = await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/labels`, payload: { name: 'VIP' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      status: 201,
      message: 'Label created successfully.',
      data: { id: expect.any(Number), workspace_id: h.ws, name: 'VIP', color: null, ...stamp },
    });
  });

  it('rejects a duplicate name, a bad colour and a missing name with 422 field errors', async () => {
    await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/labels`, payload: { name: 'VIP' } });
    const dup = await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/labels`, payload: { name: 'VIP' } });
    expect(dup.statusCode).toBe(422);
    expect(dup.json()).toEqual({ message: 'Validation error', errors: { name: ['The name has already been taken.'] } });
    const bad = await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/labels`, payload: { color: 'red' } });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['color', 'name']);
    expect(bad.json().errors.name).toEqual(['The name field is required.']);
  });

  it('gets, updates name or colour alone, refuses an empty update, and deletes', async () => {
    const made = (await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/labels`, payload: { name: 'A', color: '#fff' } })).json()
      .data;
    const url = `/api/v3/workspaces/${h.ws}/labels/${made.id}`;
    expect((await h.call({ method: 'GET', url })).json()).toEqual({ data: made });

    const colour = await h.call({ method: 'PUT', url, payload: { color: '#00ff00' } });
    expect(colour.json()).toMatchObject({ status: 200, message: 'Label updated successfully.', data: { name: 'A', color: '#00ff00' } });
    const renamed = await h.call({ method: 'PUT', url, payload: { name: 'B' } });
    expect(renamed.json().data).toMatchObject({ name: 'B', color: '#00ff00' });
    const empty = await h.call({ method: 'PUT', url, payload: {} });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.name).toBeDefined();

    const del = await h.call({ method: 'DELETE', url });
    expect(del.json()).toEqual({ message: 'Label deleted successfully.', status: 200 });
    const gone = await h.call({ method: 'GET', url });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ message: 'Resource not found.', status: 404 });
  });

  it('answers 404 for a non-integer id and a workspace that is not a UUID', async () => {
    expect((await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/labels/abc` })).statusCode).toBe(404);
    expect((await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/labels/0` })).statusCode).toBe(404);
    expect((await h.call({ method: 'GET', url: `/api/v3/workspaces/not-a-uuid/labels` })).statusCode).toBe(404);
  });

  it('paginates with meta and links, empty pages having null from/to', async () => {
    for (const name of ['a', 'b', 'c']) {
      await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/labels`, payload: { name } });
    }
    const page2 = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/labels?per_page=2&page=2` });
    const body = page2.json();
    expect(body.data.map((l: { name: string }) => l.name)).toEqual(['c']);
    expect(body.meta).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2, from: 3, to: 3 });
    expect(body.links.prev).toMatch(/^http:\/\/localhost(:\d+)?\/api\/v3\/workspaces\/.+\/labels\?per_page=2&page=1$/);
    expect(body.links.next).toBeNull();
    const beyond = (await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/labels?page=9` })).json();
    expect(beyond.data).toEqual([]);
    expect(beyond.meta).toMatchObject({ current_page: 9, last_page: 1, from: null, to: null });
    const bad = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/labels?per_page=101` });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.per_page).toHaveLength(1);
  });
});
