/**
 * Crash safety of the real `wsm serve` process under SIGKILL (no shutdown hook runs):
 * (a) in the middle of a large CSV import, twice; (b) with provider deletions still owed in the
 * outbox; (c) while clients are creating contacts. Each time the database is opened with
 * better-sqlite3 while the server is down: `PRAGMA integrity_check` must say ok, and what was
 * acknowledged or committed must be there exactly once. Requires `npm run build`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cleanup, serve, type Served } from '../e2e/processes.js';
import { waitFor } from '../wait-for.js';

/**
 * The three scenarios run side by side, each with its own servers and folder: `run` hands a
 * scenario a `start` that tracks what it started, and kills and removes all of it at the end.
 */
async function run(scenario: (start: (args: string[], dir?: string) => Promise<Served>) => Promise<void>): Promise<void> {
  const started: Served[] = [];
  try {
    await scenario(async (args, dir) => {
      const server = await serve(args, dir);
      started.push(server);
      return server;
    });
  } finally {
    for (const server of started) if (server.process.exitCode === null && server.process.signalCode === null) await server.kill();
    for (const dir of new Set(started.map((server) => server.dir))) cleanup(dir);
  }
}

interface Session {
  base: string;
  token: string;
  workspace: string;
}

/** The `local` profile `wsm serve` saved: token and workspace (the same across restarts). */
function session(server: Served): Session {
  const config = JSON.parse(readFileSync(join(server.dir, 'config', 'config.json'), 'utf8'));
  const { token, workspace } = config.profiles.local;
  return { base: `${server.url}/workspaces/${workspace}`, token, workspace };
}

async function api(s: Session, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${s.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${s.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

const dbPath = (server: Served) => join(server.dir, 'wsm.db');

/** Reads the database of a stopped (or killed) server without checkpointing its WAL. */
function readDb<T>(server: Served, read: (db: Database.Database) => T): T {
  const db = new Database(dbPath(server), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** The whole-database checks, run when the server is down for good. */
function assertWhole(server: Served) {
  const db = new Database(dbPath(server), { fileMustExist: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(() => db.prepare("INSERT INTO contacts_fts (contacts_fts) VALUES ('integrity-check')").run()).not.toThrow();
    const duplicates = db.prepare('SELECT number, count(*) AS n FROM contacts GROUP BY workspace_id, number HAVING n > 1').all();
    expect(duplicates).toEqual([]);
  } finally {
    db.close();
  }
}

// The three scenarios share nothing: they run side by side.
describe.concurrent('crash safety under SIGKILL', () => {
  describe('during a large import', () => {
    const ROWS = 100_000;

    /** Row i: a new number, except every 10th repeats the row 9 before it (an update) and every 1000th is broken. */
    function buildCsv() {
      const lines = ['number,name,email'];
      const seen = new Set<string>();
      const expected = { created: 0, updated: 0, failed: 0, badLines: [] as number[] };
      for (let i = 0; i < ROWS; i++) {
        if (i % 1000 === 500) {
          lines.push(`bad-${i},Broken ${i},`);
          expected.failed += 1;
          expected.badLines.push(i + 2);
          continue;
        }
        const number = String(5_500_000_000 + (i % 10 === 9 ? i - 9 : i));
        lines.push(`${number},Person ${i},p${i}@example.com`);
        if (seen.has(number)) expected.updated += 1;
        else {
          seen.add(number);
          expected.created += 1;
        }
      }
      return { csv: `${lines.join('\n')}\n`, expected };
    }

    const importRow = (server: Served) =>
      readDb(server, (db) => ({
        row: db
          .prepare('SELECT status, total_rows, processed_rows, created_count, updated_count, failed_count FROM contact_imports')
          .get() as Record<string, number | string>,
        contacts: db.prepare('SELECT count(*) FROM contacts').pluck().get() as number,
        integrity: db.pragma('integrity_check', { simple: true }),
      }));

    async function killWhenProcessed(server: Served, s: Session, id: number, atLeast: number) {
      const seen = await waitFor(async () => {
        const { json } = await api(s, 'GET', `/contact-imports/${id}`);
        if (json.data.status !== 'processing' && json.data.status !== 'pending')
          throw new Error(`import ended before the kill: ${JSON.stringify(json.data)}`);
        return json.data.processed_rows >= atLeast ? json.data.processed_rows : undefined;
      }, 10);
      await server.kill();
      return seen as number;
    }

    it('resumes (or fails with a reason) with exact counts, no duplicate contact and a whole database', () =>
      run(async (start) => {
        const { csv, expected } = buildCsv();
        let server = await start(['--approval-delay', '0']);
        const s = session(server);
        const form = new FormData();
        form.append('name', 'crash import');
        form.append('file', new Blob([csv], { type: 'text/csv' }), 'people.csv');
        const created = await fetch(`${s.base}/contact-imports`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.token}` },
          body: form,
        });
        expect(created.status).toBe(201);
        const id = ((await created.json()) as { data: { id: number } }).data.id;

        // First kill while rows are being committed.
        await killWhenProcessed(server, s, id, 10_000);
        const first = importRow(server);
        expect(first.integrity).toBe('ok');
        expect(first.row.status).toBe('processing');
        expect(first.row.total_rows).toBe(ROWS);
        // Contacts and counters commit together: nothing created is uncounted, nothing counted is missing.
        expect(first.contacts).toBe(first.row.created_count);
        expect(Number(first.row.created_count) + Number(first.row.updated_count) + Number(first.row.failed_count)).toBe(
          first.row.processed_rows,
        );

        // Second kill after the resumed run made progress.
        server = await start(['--approval-delay', '0'], server.dir);
        const resumedSession = session(server);
        await killWhenProcessed(server, resumedSession, id, Number(first.row.processed_rows) + 15_000);
        const second = importRow(server);
        expect(second.integrity).toBe('ok');
        expect(second.contacts).toBe(second.row.created_count);
        expect(Number(second.row.processed_rows)).toBeGreaterThan(Number(first.row.processed_rows));

        // Third start: let it finish.
        server = await start(['--approval-delay', '0'], server.dir);
        const last = session(server);
        const done = await waitFor(async () => {
          const { json } = await api(last, 'GET', `/contact-imports/${id}`);
          return ['completed', 'failed'].includes(json.data.status) ? json.data : undefined;
        }, 100);
        if (done.status === 'completed') {
          expect(done).toMatchObject({
            total_rows: ROWS,
            processed_rows: ROWS,
            created_count: expected.created,
            updated_count: expected.updated,
            failed_count: expected.failed,
          });
          expect(done.errors.map((e: { row: number }) => e.row)).toEqual(expected.badLines.slice(0, 100));
        } else {
          expect(done.errors.some((e: { message: string }) => e.message.length > 0)).toBe(true);
        }
        const contacts = await api(last, 'GET', '/contacts?per_page=1');
        expect(contacts.json.meta.total).toBe(done.created_count);
        expect(await server.stop()).toBe(0);
        assertWhole(server);
        expect(readDb(server, (db) => db.prepare('SELECT count(*) FROM contacts').pluck().get())).toBe(done.created_count);
      }));
  });

  describe('with provider deletions owed', () => {
    it('drains the outbox after a restart without the fault, and deletes at the provider', () =>
      run(async (start) => {
        let server = await start(['--approval-delay', '0', '--provider-fault', 'unavailable']);
        const s = session(server);
        const providerIds: string[] = [];
        for (let i = 0; i < 5; i++) {
          const made = await api(s, 'POST', '/templates', {
            name: `outbox_crash_${'abcde'[i]}`,
            language: 'en',
            category: 'UTILITY',
            body: { text: 'Your order has shipped today.' },
          });
          expect(made.status).toBe(201);
          providerIds.push(made.json.data.provider_id);
          const deleted = await api(s, 'DELETE', `/templates/${made.json.data.id}`);
          expect(deleted).toEqual({ status: 200, json: { success: true, message: 'Template deleted successfully.' } });
        }
        // Let every owed deletion fail at least once (its next attempt then backs off about 1 s), then kill.
        const owed = () =>
          readDb(
            server,
            (db) =>
              db.prepare('SELECT provider_id, attempts, last_error FROM provider_outbox ORDER BY id').all() as Array<{
                provider_id: string;
                attempts: number;
                last_error: string | null;
              }>,
          );
        await waitFor(() => owed().every((row) => row.attempts >= 1), 50);
        await server.kill();

        const afterKill = owed();
        expect(afterKill.map((row) => row.provider_id).sort()).toEqual([...providerIds].sort());
        expect(afterKill.every((row) => /unavailable/.test(row.last_error ?? ''))).toBe(true);
        expect(readDb(server, (db) => db.pragma('integrity_check', { simple: true }))).toBe('ok');
        const stillAtProvider = () =>
          readDb(server, (db) =>
            db
              .prepare(
                `SELECT count(*) FROM simulated_provider_templates WHERE deleted = 0 AND provider_id IN (${providerIds.map(() => '?').join(',')})`,
              )
              .pluck()
              .get(...providerIds),
          );
        expect(stillAtProvider()).toBe(5);

        // Restart healthy: the persisted backoff (about 1 s at this point) is the only wait.
        server = await start(['--approval-delay', '0'], server.dir);
        await waitFor(() => owed().length === 0, 100);
        expect(stillAtProvider()).toBe(0);
        expect(await server.stop()).toBe(0);
        assertWhole(server);
      }));
  });

  describe('while clients create contacts', () => {
    it('keeps every contact whose creation was acknowledged', () =>
      run(async (start) => {
        let server = await start(['--approval-delay', '0']);
        const s = session(server);
        const acknowledged = new Map<number, string>();
        let failedAfterKill = 0;
        let killed: Promise<void> | undefined;
        const TOTAL = 800;
        const PARALLEL = 25;
        let next = 0;
        const worker = async () => {
          while (next < TOTAL) {
            const number = String(5_551_000_000 + next++);
            try {
              const res = await api(s, 'POST', '/contacts', { number, name: `Crash ${number}` });
              if (res.status === 201) acknowledged.set(res.json.data.id, number);
              else throw new Error(`create answered ${res.status}: ${JSON.stringify(res.json)}`);
              // Kill mid-stream, with requests still in flight.
              if (acknowledged.size === 200) killed ??= server.kill();
            } catch (error) {
              if (!killed) throw error;
              failedAfterKill += 1; // refused or reset by the dead server: outcome unknown, not checked
            }
          }
        };
        await Promise.all(Array.from({ length: PARALLEL }, worker));
        await killed;
        expect(acknowledged.size).toBeGreaterThanOrEqual(200);
        expect(failedAfterKill).toBeGreaterThan(0);

        const stored = readDb(server, (db) => {
          expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
          return new Map(
            (db.prepare('SELECT id, number FROM contacts').all() as Array<{ id: number; number: string }>).map((r) => [r.id, r.number]),
          );
        });
        const missing = [...acknowledged].filter(([id, number]) => stored.get(id) !== number);
        expect(missing).toEqual([]);

        server = await start(['--approval-delay', '0'], server.dir);
        const again = session(server);
        for (const [id, number] of [...acknowledged].slice(0, 20)) {
          const got = await api(again, 'GET', `/contacts/${id}`);
          expect(got.json.data?.number).toBe(number);
        }
        const listed = await api(again, 'GET', '/contacts?per_page=1');
        expect(listed.json.meta.total).toBe(stored.size);
        expect((await api(again, 'POST', '/contacts', { number: '5559990000', name: 'After restart' })).status).toBe(201);
        expect(await server.stop()).toBe(0);
        assertWhole(server);
      }));
  });
});
