// A record the path names is looked up once per request: the validation hook finds it (a missing
// one is a 404 whatever the body says) and hands it to the handler, which changes that record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, NOT_FOUND, type Harness } from './harness.js';

let h: Harness | undefined;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

/** Counts the calls of `repository.find` while `run` runs. */
async function findsDuring<T>(repository: { find: (...args: never[]) => unknown }, run: () => Promise<T>): Promise<[T, number]> {
  const find = repository.find;
  let calls = 0;
  repository.find = ((...args: never[]) => {
    calls += 1;
    return find.apply(repository, args);
  }) as typeof find;
  try {
    return [await run(), calls];
  } finally {
    repository.find = find;
  }
}

describe('the record a path names', () => {
  it('a label update reads the label once, and answers the label changed', async () => {
    const base = `/api/v3/workspaces/${h!.ws}/labels`;
    const label = await h!.create(base, { name: 'once', color: '#000000' });
    const [res, calls] = await findsDuring(h!.app.repositories.collections.labels, () =>
      h!.call({ method: 'PUT', url: `${base}/${label.id}`, payload: { color: '#ffffff' } }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: label.id, name: 'once', color: '#ffffff' });
    expect(calls).toBe(1);
  });

  it('a role update reads the role once', async () => {
    const base = `/api/v3/workspaces/${h!.ws}/roles`;
    const role = await h!.create(base, { name: 'Once' });
    const [res, calls] = await findsDuring(h!.app.repositories.roles, () =>
      h!.call({ method: 'PUT', url: `${base}/${role.id}`, payload: { name: 'Twice' } }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: role.id, name: 'Twice' });
    expect(calls).toBe(1);
  });

  it('a missing one is still the 404, whatever the body holds', async () => {
    const res = await h!.call({ method: 'PUT', url: `/api/v3/workspaces/${h!.ws}/labels/999999`, payload: { color: 'red' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(NOT_FOUND);
  });
});
