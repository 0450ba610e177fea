/**
 * Uniqueness under concurrency: 50 parallel creates over 10 distinct contact numbers, template
 * names and label names give exactly 10 records and 40 answers 422 naming the field; eight
 * parallel user creates or updates with one e-mail give one success and seven 422s; never a
 * 5xx, never SQLITE_BUSY. Over real HTTP against `wsm serve` (one socket per request, requires
 * `npm run build`) and through app.inject.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { cleanup, serve, type Served } from '../e2e/processes.js';
import { createHarness, type Harness } from '../server/harness.js';
import { createSimulatedProvider, type SimulatedProvider } from '../../src/server/provider/simulated.js';
import type { TemplateProvider } from '../../src/server/provider/provider.js';
import { drainOutbox } from '../../src/server/workers/outbox.js';
import { waitFor } from '../wait-for.js';

const PARALLEL = 50;
const DISTINCT = 10;
/** The case: eight parallel requests for one e-mail. */
const EMAIL_RACERS = 8;

interface Answer {
  status: number;
  body: any;
}
type Send = (method: string, path: string, body: unknown) => Promise<Answer>;

/** The same number written five ways: uniqueness is on the normalised form (decisions.md §3). */
const numberVariant = (n: number, way: number) => {
  const digits = String(15_550_000_100 + n);
  return [
    digits,
    `+${digits}`,
    `+1 555 000 0${String(100 + n).padStart(3, '0')}`,
    `1-555-000-0${String(100 + n).padStart(3, '0')}`,
    `(1) 555.000.0${String(100 + n).padStart(3, '0')}`,
  ][way];
};

const resources = [
  {
    name: 'contacts',
    path: '/contacts',
    field: 'number',
    body: (i: number) => ({ number: numberVariant(i % DISTINCT, Math.floor(i / DISTINCT)), name: `Racer ${i}` }),
    key: (data: any) => data.number,
    taken: 'The number has already been taken.',
  },
  {
    name: 'templates',
    path: '/templates',
    field: 'name',
    body: (i: number) => ({
      name: `race_${'abcdefghij'[i % DISTINCT]}`,
      language: 'en',
      category: 'UTILITY',
      body: { text: `Order update number ${i} is ready.` },
    }),
    key: (data: any) => data.name,
    taken: 'The name has already been taken for this language.',
  },
  {
    name: 'labels',
    path: '/labels',
    field: 'name',
    body: (i: number) => ({ name: `Race label ${i % DISTINCT}`, color: '#123456' }),
    key: (data: any) => data.name,
    taken: 'The name has already been taken.',
  },
] as const;

async function race(send: Send, resource: (typeof resources)[number]) {
  const answers = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => send('POST', resource.path, resource.body(i))));
  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
  expect(JSON.stringify(answers)).not.toMatch(/SQLITE|database is locked/i);
  const created = answers.filter((a) => a.status === 201);
  const refused = answers.filter((a) => a.status === 422);
  expect({ created: created.length, refused: refused.length }).toEqual({ created: DISTINCT, refused: PARALLEL - DISTINCT });
  expect(new Set(created.map((a) => resource.key(a.body.data))).size).toBe(DISTINCT);
  for (const answer of refused)
    expect(answer.body).toEqual({ message: 'Validation error', errors: { [resource.field]: [resource.taken] } });
}

describe('concurrency over real HTTP (wsm serve)', () => {
  let server: Served;
  let token: string;
  let base: string;
  // A connection per request, so the 50 requests really are in flight together.
  const agent = new Agent({ connections: PARALLEL, pipelining: 0 });

  beforeAll(async () => {
    server = await serve(['--approval-delay', '0']);
    const config = JSON.parse(readFileSync(join(server.dir, 'config', 'config.json'), 'utf8'));
    token = config.profiles.local.token;
    base = `${server.url}/workspaces/${config.profiles.local.workspace}`;
  });
  afterAll(async () => {
    await agent.close();
    if (server && server.process.exitCode === null) await server?.kill();
    if (server) cleanup(server.dir);
  });

  const send: Send = async (method, path, body) => {
    const res = await request(`${base}${path}`, {
      method: method as 'POST',
      dispatcher: agent,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.statusCode, body: await res.body.json() };
  };

  for (const resource of resources) {
    it(`${PARALLEL} parallel ${resource.name} creates over ${DISTINCT} distinct ${resource.field}s -> exactly ${DISTINCT}`, async () => {
      await race(send, resource);
    });
  }

  // Users: the password hash (scrypt, asynchronous) sits between the e-mail
  // check and the write, so parallel requests all pass the check; the unique index decides, and
  // each loser must get the 422 a sequential request gets, never a 500.
  describe(`e-mail races: ${EMAIL_RACERS} parallel requests`, () => {
    const TAKEN = { message: 'Validation error', errors: { email: ['The email has already been taken.'] } };
    const expectOneWinner = (answers: Answer[], winner: number) => {
      expect(answers.map((a) => a.status).sort()).toEqual([winner, ...Array(EMAIL_RACERS - 1).fill(422)]);
      for (const answer of answers.filter((a) => a.status === 422)) expect(answer.body).toEqual(TAKEN);
    };
    let roleId: number;
    beforeAll(async () => {
      roleId = (await send('POST', '/roles', { name: 'Racers', permissions: ['contacts.view'] })).body.data.id;
    });

    it('user creates with one e-mail: one 201, the rest 422, never a 500', async () => {
      const answers = await Promise.all(
        Array.from({ length: EMAIL_RACERS }, (_, i) =>
          send('POST', '/users', { name: `Racer ${i}`, email: 'same@example.com', password: 'long enough 1', role_id: roleId }),
        ),
      );
      expectOneWinner(answers, 201);
    });

    it('updates of as many users to one e-mail (with a new password each): one 200, the rest 422', async () => {
      const ids: number[] = [];
      for (let i = 0; i < EMAIL_RACERS; i++) {
        ids.push(
          (await send('POST', '/users', { name: `Mover ${i}`, email: `mover${i}@example.com`, password: 'long enough 1', role_id: roleId }))
            .body.data.id,
        );
      }
      const answers = await Promise.all(
        ids.map((id) =>
          send('POST', `/users/${id}`, { email: 'target@example.com', password: 'another one 2', confirm_password: 'another one 2' }),
        ),
      );
      expectOneWinner(answers, 200);
    });
  });

  it('leaves no orphan at the provider, no SQLITE_BUSY in the log, and a whole database', async () => {
    const db = new Database(join(server.dir, 'wsm.db'), { readonly: true });
    try {
      // A template that lost the race after its submission is owed a deletion: the outbox drains it.
      const live = () => db.prepare('SELECT count(*) FROM simulated_provider_templates WHERE deleted = 0').pluck().get() as number;
      await waitFor(() => live() === DISTINCT, 100);
      expect(db.prepare('SELECT count(*) FROM contacts').pluck().get()).toBe(DISTINCT);
      expect(db.prepare('SELECT count(*) FROM templates').pluck().get()).toBe(DISTINCT);
      expect(db.prepare('SELECT count(*) FROM labels').pluck().get()).toBe(DISTINCT);
    } finally {
      db.close();
    }
    expect(await server.stop()).toBe(0);
    expect(server.stderr()).not.toMatch(/SQLITE_BUSY|database is locked/i);
    const db2 = new Database(join(server.dir, 'wsm.db'));
    expect(db2.pragma('integrity_check', { simple: true })).toBe('ok');
    db2.close();
  });
});

describe('concurrency through app.inject', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const send: Send = async (method, path, body) => {
    const res = await h.call({ method: method as 'POST', url: `/api/v3/workspaces/${h.ws}${path}`, payload: body as object });
    return { status: res.statusCode, body: res.json() };
  };

  for (const resource of resources) {
    it(`${PARALLEL} parallel ${resource.name} creates over ${DISTINCT} distinct ${resource.field}s -> exactly ${DISTINCT}`, async () => {
      await race(send, resource);
    });
  }

  it('counts exactly what it stored', () => {
    for (const table of ['contacts', 'templates', 'labels']) {
      expect(h.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get()).toBe(DISTINCT);
    }
    expect(h.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

describe('template name races that reach the provider', () => {
  // The simulated provider answers within the same tick, so above no two creates of one name are
  // ever both past the name check. A provider that takes 20 ms lets them all through it: the
  // database's unique index then decides, and each loser's copy at the provider is owed a deletion.
  let h: Harness;
  let inner: SimulatedProvider;
  const slow: TemplateProvider = {
    submit: async (s) => {
      await new Promise((r) => setTimeout(r, 20));
      return inner.submit(s);
    },
    list: (ws) => inner.list(ws),
    delete: (ws, id) => inner.delete(ws, id),
    uploadMedia: (ws, f) => inner.uploadMedia(ws, f),
  };
  beforeAll(async () => {
    h = await createHarness({ provider: slow });
    inner = createSimulatedProvider(h.db, { approvalDelayMs: 0 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it(`${PARALLEL} parallel creates over ${DISTINCT} names -> exactly ${DISTINCT}, and every orphan at the provider is deleted`, async () => {
    const send: Send = async (method, path, body) => {
      const res = await h.call({ method: method as 'POST', url: `/api/v3/workspaces/${h.ws}${path}`, payload: body as object });
      return { status: res.statusCode, body: res.json() };
    };
    await race(send, resources[1]);
    const submitted = h.db.prepare('SELECT count(*) FROM simulated_provider_templates').pluck().get() as number;
    expect(submitted).toBeGreaterThan(DISTINCT);
    expect(h.db.prepare('SELECT count(*) FROM provider_outbox').pluck().get()).toBe(submitted - DISTINCT);
    expect(await drainOutbox(h.app)).toEqual({ done: submitted - DISTINCT, failed: 0 });
    const live = h.db.prepare('SELECT provider_id FROM simulated_provider_templates WHERE deleted = 0 ORDER BY provider_id').pluck().all();
    expect(live).toEqual(h.db.prepare('SELECT provider_id FROM templates ORDER BY provider_id').pluck().all());
  });
});
