/**
 * Full walks and bulk verbs, run in-process (in-process.ts): `contacts delete|update --from` against
 * `wsm serve` (report, exit codes, confirmation, dry run), and against the stand-in throttling
 * every few requests with 429 + Retry-After (nothing lost or duplicated; -v shows the window).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wsmInProcess } from './in-process.js';
import { startStandin, type Standin } from '../standin/index.js';
import { BACKENDS, seedStandinContact, type Backend } from './backends.js';
import { cleanup } from './processes.js';

describe('contacts delete|update --from against wsm serve', () => {
  let backend: Backend;
  const run = (args: string[], input?: string) => wsmInProcess(backend.env, args, input);
  const ids: string[] = [];
  beforeAll(async () => {
    backend = await BACKENDS[0].start();
    const file = join(backend.dir, 'people.csv');
    writeFileSync(file, 'number,name\n' + Array.from({ length: 12 }, (_, i) => `1415555${String(1000 + i)},Person ${i}`).join('\n') + '\n');
    expect((await run(['contacts', 'import', file, '--wait', '--interval', '0.2s'])).code).toBe(0);
    ids.push(...(await run(['contacts', 'list', '--all', '-q'])).stdout.trim().split('\n'));
    expect(ids).toHaveLength(12);
  });
  afterAll(async () => {
    if (backend) expect(await backend.stop()).toBe(0);
  });

  it('update --from a CSV as export writes it: each row its own changes; a missing id fails, exit 8 (done, some failed), summary line', async () => {
    const file = join(backend.dir, 'changes.csv');
    writeFileSync(file, `id,name,status\n${ids[0]},Renamed,false\n${ids[1]},Also renamed,\n999999,Ghost,true\n`);
    const res = await run(['contacts', 'update', '--from', file, '-o', 'ndjson']);
    expect(res.code).toBe(8);
    expect(res.stderr).toBe(`✓ updated 2 of the 3 contacts read from ${file}: 0 unchanged, 0 skipped, 1 failed\nerror: 1 of 3 failed\n`);
    expect(
      res.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { id: Number(ids[0]), outcome: 'updated', status: 200, message: 'Contact updated successfully.' },
      { id: Number(ids[1]), outcome: 'updated', status: 200, message: 'Contact updated successfully.' },
      { id: 999999, outcome: 'failed', status: null, message: 'contact 999999 not found, not sent' },
    ]);
    const listed = JSON.parse((await run(['contacts', 'list', '--per-page', '2', '-o', 'json'])).stdout);
    expect(listed.map((c: { name: string; status: boolean }) => [c.name, c.status])).toEqual([
      ['Renamed', false],
      ['Also renamed', true],
    ]);
  });

  it('a row the API would refuse stops everything before sending (exit 2, the line named)', async () => {
    const res = await run(['contacts', 'update', '--from', '-'], `id,name,email\n${ids[2]},Ok,\n${ids[3]},Bad,not-mail\n`);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('  line 3 email: The email field must be a valid email address.\n');
  });

  it('delete --from: the confirmation names the count; --dry-run sends nothing; 404 is "already gone"; repeatable', async () => {
    const list = ids.slice(4).join('\n') + '\n';
    const unconfirmed = await run(['contacts', 'delete', '--from', '-'], list);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toBe('error: deleting all 8 contacts read from standard input needs --yes when not on a terminal\n');
    const dry = await run(['contacts', 'delete', '--from', '-', '--dry-run', '-o', 'json'], list);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ delete: 8, absent: 0 });
    expect(JSON.parse(dry.stdout).contacts.map((c: { action: string }) => c.action)).toEqual(Array(8).fill('delete'));
    expect((await run(['contacts', 'list', '--all', '-q'])).stdout.trim().split('\n')).toHaveLength(12);

    const first = await run(['contacts', 'delete', '--from', '-', '--yes', '-o', 'json'], ids.slice(4, 8).join('\n'));
    expect(first.code, first.stderr).toBe(0);
    const again = await run(['contacts', 'delete', '--from', '-', '--yes', '-o', 'json', '--concurrency', '3'], list);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).map((r: { id: string; outcome: string }) => r.outcome)).toEqual([
      ...Array(4).fill('already gone'),
      ...Array(4).fill('deleted'),
    ]);
    expect((await run(['contacts', 'list', '--all', '-q'])).stdout.trim().split('\n')).toEqual(ids.slice(0, 4));
  });

  it('refuses a bad --concurrency or WSM_CONCURRENCY (exit 2)', async () => {
    expect((await run(['contacts', 'list', '--all', '--concurrency', '0'])).stderr).toBe(
      'error: --concurrency takes a whole number from 1 to 64, got "0"\n',
    );
    const env = await wsmInProcess({ ...backend.env, WSM_CONCURRENCY: 'many' }, ['contacts', 'export']);
    expect(env.code).toBe(2);
    expect(env.stderr).toBe('error: WSM_CONCURRENCY takes a whole number from 1 to 64, got "many"\n');
  });
});

describe('against a server that throttles (429 + Retry-After every few requests)', () => {
  let standin: Standin;
  let dir: string;
  const run = (args: string[], input?: string) => wsmInProcess(standin.env(dir), args, input);
  beforeAll(async () => {
    standin = await startStandin();
    dir = mkdtempSync(join(tmpdir(), 'wsm-throttle-'));
    for (let i = 0; i < 300; i++) seedStandinContact(standin, `1555${String(i).padStart(6, '0')}`, `P${i}`);
  });
  afterAll(async () => {
    await standin?.close();
    cleanup(dir);
  });

  it('export and --all lose and repeat nothing; -v shows the window halving and growing back', async () => {
    const plain = await run(['contacts', 'list', '--all', '--per-page', '10', '-q']);
    expect(plain.code, plain.stderr).toBe(0);
    const expected = standin.state.contacts.map((c) => String(c.id));
    expect(plain.stdout.trim().split('\n')).toEqual(expected);

    standin.quirks.throttle = { every: 7, retryAfterSeconds: 1 };
    const throttled = await run(['contacts', 'list', '--all', '--per-page', '10', '-q', '-v']);
    expect(throttled.code, throttled.stderr.slice(-500)).toBe(0);
    expect(throttled.stdout.trim().split('\n')).toEqual(expected);
    expect(throttled.stderr).toMatch(/^\* 429 on page \d+: window 6 -> 3, waiting 1000 ms \(Retry-After\)$/m);
    expect(throttled.stderr).toMatch(/^\* window 3 -> 4$/m);
  });

  it('bulk delete under throttling deletes each contact once', async () => {
    // The test above holds a whole-second Retry-After to its pause; here the point is that no delete
    // is lost or repeated, whatever the pause, so each throttle waits a tenth of a second, not eight seconds in all.
    standin.quirks.throttle = { every: 5, retryAfterSeconds: 0.1 };
    const ids = standin.state.contacts.slice(0, 40).map((c) => String(c.id));
    const res = await run(['contacts', 'delete', '--from', '-', '--yes', '-o', 'json'], ids.join('\n'));
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).map((r: { id: string; outcome: string }) => `${r.id}:${r.outcome}`)).toEqual(
      ids.map((id) => `${id}:deleted`),
    );
    expect(standin.state.contacts).toHaveLength(260);
  });
});
