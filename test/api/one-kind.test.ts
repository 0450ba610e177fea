// One kind: the catalog's `collection: true` says which resources are plain collections, and the
// client, the commands and the server each read that one fact. A side that decides otherwise (a
// client class, a command module or a route plugin of its own for a plain collection, or none for
// another resource) fails here with a sentence naming the side and what to change.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { CATALOG, DESCRIPTIONS, type ResourceIdentity, type ResourceKey } from '../../src/api/descriptions/index.js';
import type { CollectionCli } from '../../src/api/descriptions/catalog.js';
import { CrudResource } from '../../src/api/resources/crud.js';
import { COLLECTIONS } from '../../src/commands/collections.js';
import { OWN_RESOURCES } from '../../src/commands/index.js';
import { collectionTable } from '../../src/server/repositories/collection.js';
import { COLLECTION_RULES, OWN } from '../../src/server/routes/index.js';

const KEYS = Object.keys(CATALOG) as ResourceKey[];
const identity = (key: ResourceKey): ResourceIdentity => CATALOG[key];
const isCollection = (key: ResourceKey) => identity(key).collection === true;
const CRUD = ['list', 'get', 'create', 'update', 'delete'];

/** The sentences of every disagreement `check` finds, one per resource and side. */
function disagreements(check: (key: ResourceKey, collection: boolean) => string | undefined): string[] {
  return KEYS.flatMap((key) => check(key, isCollection(key)) ?? []);
}

describe('one kind of resource, as the catalog says', () => {
  it('the catalog names as plain collections exactly the resources described by plainCollection (which states a unique field)', () => {
    expect(
      disagreements((key, collection) => {
        const described = DESCRIPTIONS[key].unique !== undefined;
        if (collection && !described)
          return `${key}: step 5 of "Adding a resource" (docs/architecture.md): the catalog says collection: true, but api/descriptions/${key}.ts is no plainCollection`;
        if (!collection && described)
          return `${key}: api/descriptions/${key}.ts is a plainCollection, but the catalog does not say collection: true`;
        return undefined;
      }),
    ).toEqual([]);
    expect(KEYS.filter(isCollection).length).toBeGreaterThanOrEqual(4);
  });

  it('the description of a plain collection has a record, a name and the five operations alone', () => {
    expect(
      disagreements((key, collection) => {
        if (!collection) return undefined;
        const description = DESCRIPTIONS[key];
        if (collectionTable(description) === undefined || Object.keys(description.operations).join() !== CRUD.join()) {
          return `${key}: the catalog says plain collection, but its description (api/descriptions/${key}.ts) is not collectionOperations' five with a record that has a name`;
        }
        return undefined;
      }),
    ).toEqual([]);
  });

  it('the client serves a plain collection with the CRUD resource itself, any other resource with its own class', () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:9/api/v3' });
    expect(
      disagreements((key, collection) => {
        const property = (client as unknown as Record<string, unknown>)[key];
        const crud = property !== undefined && Object.getPrototypeOf(property) === CrudResource.prototype;
        if (collection && !crud)
          return `${key}: the catalog says plain collection, but WsmClient.${key} is not a CrudResource (api/client.ts, api/resources/)`;
        if (!collection && crud)
          return `${key}: WsmClient.${key} is the plain CRUD resource, but the catalog does not say collection: true`;
        return undefined;
      }),
    ).toEqual([]);
  });

  it('the CLI declares a plain collection from collections.ts, any other resource from its own module', () => {
    // Checked by tsc: COLLECTIONS has exactly the catalog's plain collections as keys (a missing one does not compile).
    expectTypeOf<keyof typeof COLLECTIONS>().toEqualTypeOf<CollectionCli>();
    expect(
      disagreements((key, collection) => {
        const { cli } = identity(key);
        if (cli === undefined || cli === 'auth') return undefined;
        const own = cli in OWN_RESOURCES;
        const entry = cli in COLLECTIONS;
        if (collection && (own || !entry))
          return `${key}: step 6 of "Adding a resource" (docs/architecture.md): the catalog says plain collection: give "${cli}" an entry in commands/collections.ts and no module in commands/index.ts`;
        if (!collection && (!own || entry))
          return `${key}: not a plain collection: "${cli}" needs its module in commands/index.ts OWN_RESOURCES and no entry in commands/collections.ts`;
        return undefined;
      }),
    ).toEqual([]);
  });

  it('the server serves a plain collection from its description (or its COLLECTION_RULES), any other resource from its own plugin', () => {
    expect(
      disagreements((key, collection) => {
        if (collection && key in OWN)
          return `${key}: the catalog says plain collection, but server/routes/index.ts lists it in OWN (use COLLECTION_RULES for rules of its own)`;
        if (!collection && !(key in OWN)) return `${key}: not a plain collection: it needs a route plugin in server/routes/index.ts OWN`;
        if (!collection && key in COLLECTION_RULES)
          return `${key}: COLLECTION_RULES is for plain collections; the catalog does not say collection: true`;
        return undefined;
      }),
    ).toEqual([]);
  });
});
