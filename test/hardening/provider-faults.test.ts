/**
 * The template provider failing: each fault (unavailable, credentials, timeout) makes sync answer
 * 500 `{success: false, message, status}` naming the cause and leaves every status as it was; `wsm
 * templates sync` against a real `wsm serve --provider-fault X` exits 6 with one clear line; a
 * delete whose provider call fails answers 200 at once and is retried by the outbox. A provider
 * that never answers is cut off by the server's own time-out. Requires `npm run build` (the
 * servers are real `wsm serve` processes; wsm runs in-process, test/e2e/in-process.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { wsmInProcess } from '../e2e/in-process.js';
import { cleanup, serve, type Served } from '../e2e/processes.js';
import { createHarness, type Harness } from '../server/harness.js';
import {
  PROVIDER_FAULT_CAUSES,
  PROVIDER_FAULT_KINDS,
  type ProviderFaultKind,
  type TemplateProvider,
} from '../../src/server/provider/provider.js';
import { createSimulatedProvider, type SimulatedProvider } from '../../src/server/provider/simulated.js';
import { drainOutbox } from '../../src/server/workers/outbox.js';
import { waitFor } from '../wait-for.js';

/** What each cause must read like in a message a person sees. */
const CAUSE_TEXT: Record<ProviderFaultKind, RegExp> = {
  unavailable: /provider unavailable/i,
  credentials: /invalid channel credentials/i,
  timeout: /timed out/i,
};

const template = (name: string) => ({ name, language: 'en', category: 'UTILITY', body: { text: 'Your order has shipped today.' } });

describe('provider faults through app.inject', () => {
  let h: Harness;
  const url = (suffix = '') => `/api/v3/workspaces/${h.ws}/templates${suffix}`;
  const provider = () => h.app.provider as SimulatedProvider;
  const statuses = () => h.db.prepare('SELECT id, status, rejection_reason, updated_at FROM templates ORDER BY id').all();

  beforeAll(async () => {
    h = await createHarness();
    provider().setApprovalDelay(0);
    for (const name of ['fault_one', 'fault_two', 'fault_three_reject']) {
      expect((await h.call({ method: 'POST', url: url(), payload: template(name) })).statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  for (const kind of PROVIDER_FAULT_KINDS) {
    it(`sync with the provider fault "${kind}": 500 naming the cause, statuses unchanged`, async () => {
      const before = statuses();
      provider().setFault(kind);
      try {
        const res = await h.call({ method: 'POST', url: url('/sync') });
        expect(res.statusCode).toBe(500);
        const body = res.json();
        expect(Object.keys(body).sort()).toEqual(['message', 'status', 'success']);
        expect(body.status).toBe(500);
        expect(body.success).toBe(false);
        expect(body.message).toContain(PROVIDER_FAULT_CAUSES[kind]);
        expect(body.message).toMatch(CAUSE_TEXT[kind]);
        expect(statuses()).toEqual(before);
      } finally {
        provider().setFault(undefined);
      }
    });
  }

  it('syncs normally once the provider is healthy again (the fault was the only obstacle)', async () => {
    const res = await h.call({ method: 'POST', url: url('/sync') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true });
    expect(statuses().map((row: any) => row.status)).toEqual(['APPROVED', 'APPROVED', 'REJECTED']);
  });

  for (const kind of PROVIDER_FAULT_KINDS) {
    it(`delete with the provider fault "${kind}": 200 at once, retried later with a backoff, done once healthy`, async () => {
      const made = (await h.call({ method: 'POST', url: url(), payload: template(`fault_delete_${kind}`) })).json().data;
      provider().setFault(kind);
      try {
        const res = await h.call({ method: 'DELETE', url: url(`/${made.id}`) });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ success: true, message: 'Template deleted successfully.' });
        expect((await h.call({ method: 'GET', url: url(`/${made.id}`) })).statusCode).toBe(404);

        const now = Date.now();
        expect(await drainOutbox(h.app, now)).toEqual({ done: 0, failed: 1 });
        const [row] = h.db.prepare('SELECT provider_id, attempts, next_attempt_at, last_error FROM provider_outbox').all() as any[];
        expect(row).toMatchObject({ provider_id: made.provider_id, attempts: 1, last_error: PROVIDER_FAULT_CAUSES[kind] });
        expect(Date.parse(row.next_attempt_at)).toBeGreaterThan(now);
        // Not due again before its backoff, even though the drain runs again.
        expect(await drainOutbox(h.app, now + 100)).toEqual({ done: 0, failed: 0 });
      } finally {
        provider().setFault(undefined);
      }
      expect(await drainOutbox(h.app, Date.now() + 10 * 60_000)).toEqual({ done: 1, failed: 0 });
      expect(h.db.prepare('SELECT count(*) FROM provider_outbox').pluck().get()).toBe(0);
      expect(h.db.prepare('SELECT deleted FROM simulated_provider_templates WHERE provider_id = ?').pluck().get(made.provider_id)).toBe(1);
    });
  }
});

describe('a provider that never answers', () => {
  let h: Harness;
  let mode: 'healthy' | 'silent' = 'healthy';
  let inner: SimulatedProvider;
  const never = new Promise<never>(() => {});
  // Silent: listing and deleting never settle; a submission settles only after the server gave up.
  const provider: TemplateProvider = {
    submit: (s) => (mode === 'healthy' ? inner.submit(s) : new Promise((r) => setTimeout(r, 600)).then(() => inner.submit(s))),
    list: (ws) => (mode === 'healthy' ? inner.list(ws) : never),
    delete: (ws, id) => (mode === 'healthy' ? inner.delete(ws, id) : never),
    uploadMedia: (ws, f) => inner.uploadMedia(ws, f),
  };
  const url = (suffix = '') => `/api/v3/workspaces/${h.ws}/templates${suffix}`;

  beforeAll(async () => {
    h = await createHarness({ provider, providerTimeoutMs: 300 });
    inner = createSimulatedProvider(h.db, { approvalDelayMs: 0 });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('sync answers 500 "timed out" after the server time-out, statuses unchanged', async () => {
    const made = (await h.call({ method: 'POST', url: url(), payload: template('silent_sync') })).json().data;
    mode = 'silent';
    const res = await h.call({ method: 'POST', url: url('/sync') });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, message: `Template sync failed: ${PROVIDER_FAULT_CAUSES.timeout}.`, status: 500 });
    expect(h.db.prepare('SELECT status FROM templates WHERE id = ?').pluck().get(made.id)).toBe('PENDING');
    mode = 'healthy';
  });

  it('create answers 500 "timed out", and a submission that lands later is owed a deletion', async () => {
    mode = 'silent';
    const res = await h.call({ method: 'POST', url: url(), payload: template('silent_create') });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      message: `Template could not be submitted: ${PROVIDER_FAULT_CAUSES.timeout}.`,
      status: 500,
    });
    expect(h.db.prepare("SELECT count(*) FROM templates WHERE name = 'silent_create'").pluck().get()).toBe(0);
    const orphan = () => h.db.prepare("SELECT provider_id FROM simulated_provider_templates WHERE name = 'silent_create'").pluck().get();
    await waitFor(() => orphan() !== undefined, 50);
    expect(h.db.prepare('SELECT provider_id FROM provider_outbox').pluck().all()).toEqual([orphan()]);
    mode = 'healthy';
  });

  it('delete still answers 200 at once: the provider is only called by the outbox', async () => {
    const made = (await h.call({ method: 'POST', url: url(), payload: template('silent_delete') })).json().data;
    mode = 'silent';
    const res = await h.call({ method: 'DELETE', url: url(`/${made.id}`) });
    expect(res.statusCode).toBe(200);
    mode = 'healthy';
  });
});

// One server per fault, side by side: each test owns its process and folder.
describe.concurrent('wsm templates sync against wsm serve --provider-fault', () => {
  for (const kind of PROVIDER_FAULT_KINDS) {
    it(`--provider-fault ${kind}: exit 6 with one line naming the cause; deletes still answer at once`, async ({ expect }) => {
      const server = await serve(['--approval-delay', '0', '--provider-fault', kind]);
      try {
        await checkFaultyServer(server, kind, expect);
      } finally {
        if (server.process.exitCode === null) await server.kill();
        cleanup(server.dir);
      }
    });
  }
});

async function checkFaultyServer(server: Served, kind: ProviderFaultKind, expect: ExpectStatic) {
  const { token, workspace } = JSON.parse(readFileSync(join(server.dir, 'config', 'config.json'), 'utf8')).profiles.local;
  const base = `${server.url}/workspaces/${workspace}/templates`;
  const auth = { authorization: `Bearer ${token}` };
  const create = async (name: string) =>
    (
      (await (
        await fetch(base, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(template(name)),
        })
      ).json()) as { data: { id: number; provider_id: string } }
    ).data;
  const pending = await create('cli_fault_pending');
  const doomed = await create('cli_fault_doomed');

  const sync = await wsmInProcess(server.env, ['templates', 'sync']);
  expect(sync.code).toBe(6);
  expect(sync.stdout).toBe('');
  const lines = sync.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(CAUSE_TEXT[kind]);
  expect(sync.stderr).not.toContain(token);
  expect(sync.stderr).not.toMatch(/\n\s+at /);

  // -o json: the same exit code and sentence, and the server's body under `server` for scripts.
  const json = await wsmInProcess(server.env, ['templates', 'sync', '-o', 'json']);
  expect(json.code).toBe(6);
  expect(JSON.parse(json.stdout)).toEqual({
    error: {
      message: lines[0].replace(/^error: /, ''),
      exit_code: 6,
      status: expect.any(Number),
      server: expect.objectContaining({ success: false, message: expect.stringMatching(CAUSE_TEXT[kind]) }),
    },
  });

  const still = (await (await fetch(`${base}/${pending.id}`, { headers: auth })).json()) as { data: { status: string } };
  expect(still.data.status).toBe('PENDING');
  const deleted = await fetch(`${base}/${doomed.id}`, { method: 'DELETE', headers: auth });
  expect(deleted.status).toBe(200);
  const cliDelete = await wsmInProcess(server.env, ['templates', 'delete', String(pending.id), '--yes']);
  expect(cliDelete.code).toBe(0);

  expect(await server.stop()).toBe(0);
  const db = new Database(join(server.dir, 'wsm.db'), { readonly: true });
  try {
    // Both deletions are owed to the provider, durably.
    expect(db.prepare('SELECT provider_id FROM provider_outbox ORDER BY provider_id').pluck().all()).toEqual(
      [doomed.provider_id, pending.provider_id].sort(),
    );
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  } finally {
    db.close();
  }
}
