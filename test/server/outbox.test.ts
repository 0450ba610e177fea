import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { buildApp } from '../../src/server/app.js';
import { openDatabase } from '../../src/server/db.js';
import { BACKOFF_CAP_MS, backoffMs, drainOutbox } from '../../src/server/workers/outbox.js';
import { createTemplate, simulated, templatesUrl, utility } from './template-fixtures.js';
import { waitFor } from '../wait-for.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const outboxRows = (harness: Harness) =>
  harness.db.prepare('SELECT provider_id, attempts, next_attempt_at, last_error FROM provider_outbox ORDER BY id').all() as Array<{
    provider_id: string;
    attempts: number;
    next_attempt_at: string;
    last_error: string | null;
  }>;

async function deleteTemplate(harness: Harness, name: string) {
  const made = await createTemplate(harness, utility(name));
  const res = await harness.call({ method: 'DELETE', url: templatesUrl(harness, `/${made.id}`) });
  expect(res.statusCode).toBe(200);
  return made;
}

describe('backoffMs', () => {
  it('doubles from 1 s with ±20 % jitter and stops at 5 min', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, () => 0.5))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(1, () => 0)).toBe(800);
    expect(backoffMs(1, () => 1)).toBe(1200);
    expect(backoffMs(30, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffMs(9, () => 0.5)).toBe(256_000);
    expect(backoffMs(10, () => 0.5)).toBe(BACKOFF_CAP_MS);
  });
});

describe('drainOutbox', () => {
  it('keeps a failed deletion with attempts, the cause and a backed-off next attempt', async () => {
    h = await createHarness();
    simulated(h).setFault('unavailable');
    const made = await deleteTemplate(h, 'outage_delete');
    const start = Date.now();
    expect(await drainOutbox(h.app, start)).toEqual({ done: 0, failed: 1 });
    let [row] = outboxRows(h);
    expect(row).toMatchObject({ provider_id: made.provider_id, attempts: 1, last_error: 'template provider unavailable' });
    const delay = Date.parse(row.next_attempt_at) - start;
    expect(delay).toBeGreaterThanOrEqual(800);
    expect(delay).toBeLessThanOrEqual(1200);

    // Not due yet: left alone.
    expect(await drainOutbox(h.app, start + 500)).toEqual({ done: 0, failed: 0 });
    // Due again, failing again: the second delay is about 2 s.
    const second = Date.parse(row.next_attempt_at);
    expect(await drainOutbox(h.app, second)).toEqual({ done: 0, failed: 1 });
    [row] = outboxRows(h);
    expect(row.attempts).toBe(2);
    expect(Date.parse(row.next_attempt_at) - second).toBeGreaterThanOrEqual(1600);

    simulated(h).setFault(undefined);
    expect(await drainOutbox(h.app, Date.parse(row.next_attempt_at))).toEqual({ done: 1, failed: 0 });
    expect(outboxRows(h)).toEqual([]);
    const remote = h.db.prepare('SELECT deleted FROM simulated_provider_templates WHERE provider_id = ?').get(made.provider_id);
    expect(remote).toEqual({ deleted: 1 });
  });

  it('does not hold up the API while the provider is failing', async () => {
    h = await createHarness();
    simulated(h).setFault('timeout');
    await deleteTemplate(h, 'slow_one');
    await drainOutbox(h.app);
    const res = await h.call({ method: 'GET', url: templatesUrl(h) });
    expect(res.statusCode).toBe(200);
  });

  it('survives a restart: a new app on the same database file finishes the deletion', async () => {
    const first = await createHarness();
    simulated(first).setFault('credentials');
    const made = await deleteTemplate(first, 'restart_delete');
    await drainOutbox(first.app);
    expect(outboxRows(first)).toHaveLength(1);
    // "Crash": close the app and the database, keep the file.
    await first.app.close();
    first.db.close();

    const db = openDatabase(first.dbPath);
    const app = await buildApp({ db, uploadsDir: join(first.dir, 'uploads'), workers: false });
    await app.ready();
    try {
      const later = Date.now() + 60_000;
      expect(await drainOutbox(app, later)).toEqual({ done: 1, failed: 0 });
      expect(db.prepare('SELECT COUNT(*) AS n FROM provider_outbox').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT deleted FROM simulated_provider_templates WHERE provider_id = ?').get(made.provider_id)).toEqual({
        deleted: 1,
      });
    } finally {
      await app.close();
      db.close();
      rmSync(first.dir, { recursive: true, force: true });
    }
  });
});

describe('the outbox worker', () => {
  it('retries at once after a restart, however long the deletion had been backed off', async () => {
    const first = await createHarness();
    simulated(first).setFault('unavailable');
    const made = await deleteTemplate(first, 'long_backoff');
    // As after many failures: the next try is an hour away.
    first.db.prepare('UPDATE provider_outbox SET attempts = 12, next_attempt_at = ?').run(new Date(Date.now() + 3_600_000).toISOString());
    await first.app.close();
    first.db.close();

    const db = openDatabase(first.dbPath);
    const app = await buildApp({ db, uploadsDir: join(first.dir, 'uploads'), workers: true });
    try {
      await app.ready();
      const waiting = () => (db.prepare('SELECT COUNT(*) AS n FROM provider_outbox').get() as { n: number }).n;
      await waitFor(() => waiting() === 0, 50);
      expect(db.prepare('SELECT deleted FROM simulated_provider_templates WHERE provider_id = ?').get(made.provider_id)).toEqual({
        deleted: 1,
      });
    } finally {
      await app.close();
      db.close();
      rmSync(first.dir, { recursive: true, force: true });
    }
  });

  it('drains in the background when workers are on, and stops on close', async () => {
    h = await createHarness({ workers: true });
    const made = await deleteTemplate(h, 'background_delete');
    await waitFor(() => outboxRows(h!).length === 0, 50);
    expect(h.db.prepare('SELECT deleted FROM simulated_provider_templates WHERE provider_id = ?').get(made.provider_id)).toEqual({
      deleted: 1,
    });
  });

  it('does nothing when workers are off', async () => {
    h = await createHarness({ workers: false });
    await deleteTemplate(h, 'manual_only');
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(outboxRows(h)).toHaveLength(1);
  });
});
