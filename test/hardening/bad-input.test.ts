/**
 * Bad input on every route, derived from the route table and the zod contract (through the
 * generators of bench/fuzz.mjs, which runs the same cases 10,000+ times): wrong types, missing
 * and extra fields, 100 KB strings, bodies past 1 MB, unicode, emoji, NUL bytes, SQL text, path
 * traversal in bodies, path ids and query values, malformed JSON, wrong content types, broken
 * multipart, out-of-range pagination, empty filters. Every answer: < 500, JSON in the shape of
 * decisions.md §1, no stack, SQL text or file path, and what the server's own OpenAPI document
 * says of the operation (status listed, content type, body schema, a page that agrees with its
 * total: bench/fuzz-contract.mjs). Stateful sequences on every resource read back what they wrote.
 * Afterwards the database is whole.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createHarness, type Harness } from '../server/harness.js';
import { jsonSchema } from '../../src/server/openapi/document.js';
import { runPendingImports } from '../../src/server/workers/imports.js';
import {
  NASTY_STRINGS,
  createChecker,
  describeRequest,
  describeRoutes,
  fixedCases,
  multipartBody,
  prepareTarget,
  requestArbitrary,
  send,
  urlOf,
} from '../../bench/fuzz.mjs';
import { SEQUENCES, createDocumentChecker, runSequence, sequenceBodies } from '../../bench/fuzz-contract.mjs';
import { constraintCases, constraintProblems, followLinks, methodCases, methodProblems } from '../../bench/fuzz-document.mjs';

const SEED = 20261122;
const GENERATED = 500;

let h: Harness;
// The generators live in bench/fuzz.mjs (plain JS, shared with the large run): their rows are loosely typed.
let routes: Array<Record<string, any>>;
let target: Awaited<ReturnType<typeof prepareTarget>>;
let documentChecker: Awaited<ReturnType<typeof createDocumentChecker>>;
let checker: ReturnType<typeof createChecker>;
const call = (options: InjectOptions) => h.call(options);
const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

beforeAll(async () => {
  h = await createHarness();
  target = await prepareTarget(call, h.ws);
  routes = describeRoutes({ routeTable: h.app.routeTable, jsonSchema });
  // The document as the server serves it: what clients and proxies validate against.
  documentChecker = await createDocumentChecker((await h.call({ method: 'GET', url: '/api/v3/openapi.json', token: null })).json());
  checker = createChecker(documentChecker);
});
afterAll(async () => {
  await h?.close();
});

describe('bad input on every route', () => {
  it('takes its routes from the route table and their bodies and queries from the contract', () => {
    expect(routes.length).toBeGreaterThanOrEqual(45);
    const writes = routes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.url.endsWith('/templates/sync'));
    expect(writes.filter((r) => !r.body).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    const lists = routes.filter(
      (r) => r.method === 'GET' && /\/(contacts|labels|roles|users|contact-groups|contact-fields|contact-imports|templates)$/.test(r.url),
    );
    expect(lists.filter((r) => !r.query).map((r) => r.url)).toEqual([]);
  });

  it('answers a fixed matrix (every route × every case) within the contract', async () => {
    const cases = fixedCases(routes, target);
    expect(cases.length).toBeGreaterThan(routes.length * 25);
    const failures: string[] = [];
    for (const request of cases) {
      // An answer that never comes (a body cut inside a file part once hung the import upload) is a failure too.
      const { problems } = await send(call, checker, request, 3000);
      if (problems.length) failures.push(`${problems.join(', ')} <- ${describeRequest(request)}`);
    }
    expect(failures).toEqual([]);
  });

  it(`answers ${GENERATED} generated requests (seed ${SEED}) within the contract`, async () => {
    await fc.assert(
      fc.asyncProperty(requestArbitrary(fc, routes, target), async (request) => {
        const { problems } = await send(call, checker, request, 3000);
        if (problems.length) throw new Error(`${problems.join(', ')} <- ${describeRequest(request)}`);
      }),
      // The server keeps state between runs, so shrinking would replay against another database.
      { seed: SEED, numRuns: GENERATED, endOnFailure: true },
    );
  });

  it(`runs stateful sequences on every resource (create, get, update, get, delete, get 404), each answer held to the document`, async () => {
    const perResource = 2;
    const problems: string[] = [];
    const ids = new Map<string, number[]>();
    let n = 0;
    for (const resource of SEQUENCES) {
      for (let i = 0; i < perResource; i++, n++) {
        const [bodies] = fc.sample(sequenceBodies(fc, resource, n, target), { seed: SEED + n, numRuns: 1 });
        const result = await runSequence(call, documentChecker, resource, bodies, target);
        expect({ resource: resource.name, completed: result.completed, steps: result.steps.length }).toMatchObject({
          resource: resource.name,
          completed: true,
        });
        problems.push(...result.problems);
        if (result.id !== undefined) ids.set(resource.name, [...(ids.get(resource.name) ?? []), result.id]);
      }
    }
    expect(problems).toEqual([]);
    // A deleted id is never handed out again (decisions.md §7): each sequence got a new, higher one.
    for (const [resource, list] of ids)
      expect({ resource, ascending: list.every((id, i) => i === 0 || id > list[i - 1]) }).toEqual({ resource, ascending: true });
  });

  it('processes 150 generated import files (quotes, CRLF, BOM, NUL, unicode, bad cells) to a final state with consistent counts', async () => {
    await h.call({ method: 'POST', url: `/api/v3/workspaces/${h.ws}/contact-fields`, payload: { name: 'city' } });
    const cell = fc.oneof(
      fc.constantFrom(
        '5550001111',
        '+1 555 000 2222',
        '(555) 000-3333',
        'bad',
        '',
        ' ',
        '"quoted, comma"',
        '"unterminated',
        'a""b',
        '"multi\nline"',
        '"crlf\r\nline"',
        'male',
        'robot',
        'true',
        '0',
        'x@example.com',
        'not-email',
        'é😀',
        '\u0000',
        'x'.repeat(300),
      ),
      fc.constantFrom(...NASTY_STRINGS.filter((text: string) => text.length < 1000)),
      fc.string({ maxLength: 20 }),
      fc.stringMatching(/^\+?[0-9 ()-]{7,18}$/),
    );
    const header = fc
      .shuffledSubarray(['number', 'name', 'email', 'gender', 'status', 'city', 'unknown', 'Number', ' name '], { minLength: 1 })
      .map((columns) => (columns.includes('number') ? columns : ['number', ...columns]));
    const csvFile = fc
      .tuple(header, fc.array(fc.array(cell, { maxLength: 9 }), { maxLength: 40 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
      .map(([columns, rows, eol, bom]) => (bom ? '\uFEFF' : '') + [columns.join(','), ...rows.map((row) => row.join(','))].join(eol) + eol);
    const url = `/api/v3/workspaces/${h.ws}/contact-imports`;
    await fc.assert(
      fc.asyncProperty(csvFile, async (csv) => {
        const res = await h.call({
          method: 'POST',
          url,
          ...multipartBody([{ name: 'file', filename: 'a.csv', value: Buffer.from(csv), type: 'text/csv' }]),
        });
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode !== 201) return;
        await runPendingImports(h.app);
        const done = (await h.call({ method: 'GET', url: `${url}/${res.json().data.id}` })).json().data;
        if (done.status === 'failed') expect(done.errors.length).toBeGreaterThan(0);
        else {
          expect(done.status).toBe('completed');
          expect(done.processed_rows).toBe(done.total_rows);
          expect(done.created_count + done.updated_count + done.failed_count).toBe(done.processed_rows);
        }
      }),
      { seed: SEED, numRuns: 150, endOnFailure: true },
    );
  });

  it('answers every method the document does not list, on every path: 405 (OPTIONS 204) with the Allow it implies, 404 where no path matches', async () => {
    const cases = methodCases(documentChecker.document, target);
    expect(cases.length).toBeGreaterThan(200);
    const problems: string[] = [];
    for (const request of cases) {
      const response = await call({ method: request.method as 'GET', url: request.url });
      const allow = documentChecker.operationOf(request.method, request.url)?.allow;
      problems.push(...methodProblems(request, response, allow));
      // A HEAD answer has no body for the document checker to read.
      if (request.method !== 'HEAD') problems.push(...documentChecker.problemsOf(request, response));
    }
    expect(problems).toEqual([]);
  });

  it('tests every documented constraint both ways: what the document allows is accepted, what it forbids is a 422 naming the field', async () => {
    const { cases, problems }: { cases: Array<Record<string, any>>; problems: string[] } = constraintCases(
      documentChecker.document,
      target,
    );
    expect(problems).toEqual([]);
    expect(cases.filter((c) => c.expect === 'accepted').length).toBeGreaterThan(100);
    expect(cases.filter((c) => c.expect !== 'accepted').length).toBeGreaterThan(200);
    for (const request of cases) {
      const response = await call({
        method: request.method as 'GET',
        url: request.url,
        payload: request.payload,
        headers: request.headers,
      });
      problems.push(...constraintProblems(request, response), ...documentChecker.problemsOf(request, response));
    }
    // The partner defaults the cases set are put back: every permission.
    const document: any = documentChecker.document;
    const all =
      document.paths['/workspaces/partner/permissions'].patch.requestBody.content['application/json'].schema.properties.permissions.items
        .enum;
    expect((await call({ method: 'PATCH', url: '/api/v3/workspaces/partner/permissions', payload: { permissions: all } })).statusCode).toBe(
      200,
    );
    expect(problems).toEqual([]);
  });

  it('follows the OpenAPI links from every create: get, update and delete what was made, then get 404', async () => {
    const check = (
      request: { method: string; url: string; payload?: unknown },
      response: { statusCode: number; headers: Record<string, unknown>; body: string },
    ) => documentChecker.problemsOf(request, response);
    const { problems, followed } = await followLinks(call, documentChecker.document, target, check);
    expect(problems).toEqual([]);
    expect(followed).toBeGreaterThanOrEqual(30);
  });

  it('leaves the database whole, the prototype clean and the owner able to work', async () => {
    expect(h.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(h.db.pragma('foreign_key_check')).toEqual([]);
    // The trigram index of contact search must still agree with the contacts table.
    expect(() => h.db.prepare("INSERT INTO contacts_fts (contacts_fts) VALUES ('integrity-check')").run()).not.toThrow();
    const tables = h.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(expect.arrayContaining(['contacts', 'users', 'tokens', 'templates', 'labels', 'roles']));
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const me = await h.call({ method: 'GET', url: '/api/v3/me' });
    expect(me.statusCode).toBe(200);
    const contact = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contacts/${target.ids.contact}` });
    expect(contact.statusCode).toBe(200);
  });
});

describe('pagination parameters', () => {
  // decisions.md §2: page and per_page are integers, anything else is a 422. Today the contract
  // (src/api/schemas/common.ts, z.coerce.number) reads `0x10` as 16, `0b11` as 3 and `0o7` as 7.
  it('answers 422 to page or per_page written other than in decimal digits, on every list', async () => {
    const lists = routes.filter((r) => r.method === 'GET' && r.query?.properties?.per_page);
    expect(lists.length).toBeGreaterThanOrEqual(8);
    const accepted: string[] = [];
    for (const route of lists) {
      for (const query of ['page=0x10', 'per_page=0x10', 'page=0b11', 'per_page=0o7']) {
        // On an existing record (an import's errors): a missing one is a 404 before the query is read.
        const res = await h.call({ method: 'GET', url: `${urlOf(route, target)}?${query}` });
        if (res.statusCode !== 422) accepted.push(`${route.url}?${query} -> ${res.statusCode}`);
      }
    }
    expect(accepted).toEqual([]);
  });
});
