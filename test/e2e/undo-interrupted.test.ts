/**
 * Ctrl-C half-way through a bulk update and through an undo, on the real binary against a slow
 * stand-in of the published API: what was sent before the signal is in the journal (the change
 * says it never ended), so `wsm undo` takes it back, and the undo stopped half-way can be undone
 * too or run again to the end. At most the one request in flight at the signal goes unrecorded.
 * Another wsm making room in the journal meanwhile leaves a change still being written as it is.
 * A change still being written (its writes held by the stand-in) is not undone: exit 1, one line,
 * nothing sent; once it ended it is. A writer killed outright (SIGKILL) holds nothing: its change
 * is undone as far as it was written, never refused.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../standin/index.js';
import { waitFor } from '../wait-for.js';
import { seedStandinContact } from './backends.js';
import { cleanup, spawned, wsm } from './processes.js';

const CONTACTS = 40;

describe('a bulk update and an undo stopped by Ctrl-C or still being written, against a slow stand-in', () => {
  let standin: Standin;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let release = () => {};
  const run = (...args: string[]) => wsm(env, args);
  const renamed = () => standin.state.contacts.filter((contact) => String(contact.name).endsWith(' renamed')).length;
  /** Runs `args` until `enough` contacts are renamed (or back), then sends SIGINT; the exit status. */
  const interrupted = async (args: string[], enough: () => boolean) => {
    const child = spawned(env, args);
    await waitFor(enough);
    child.child.kill('SIGINT');
    await child.code;
    return child.child.signalCode;
  };
  /** The requests still on their way to the stand-in once the process ended have landed. */
  const settled = async () => {
    standin.quirks.delayMs = undefined;
    await waitFor(() => standin.pacing() === 0);
  };
  const journaled = async () =>
    JSON.parse((await run('history', '-o', 'json')).stdout)[0] as { id: string; summary: string; ended?: string; records: number };
  /** The records `wsm history show` gives of a change. */
  const shown = async (id: string) =>
    (JSON.parse((await run('history', 'show', id, '-o', 'json')).stdout) as { records: unknown[] }).records.length;

  /** The stand-in holds every write from now until `release()`. */
  const holdWrites = () => {
    standin.quirks.holdWrites = new Promise<void>((resolve) => (release = resolve));
  };
  const letWritesGo = () => {
    standin.quirks.holdWrites = undefined;
    release();
  };
  /** A bulk update of every contact, started, once its first write waits at the stand-in; and its change. */
  const bulkUpdateHeld = async () => {
    holdWrites();
    const bulk = spawned(env, ['contacts', 'update', '--from', join(dir, 'names.csv'), '--yes', '--concurrency', '1']);
    await waitFor(() => standin.pacing() >= 1);
    const [change] = JSON.parse((await run('history', '-o', 'json')).stdout) as Array<{ id: string; summary: string; ended?: string }>;
    expect([change.summary, change.ended]).toEqual([`contacts update --from ${join(dir, 'names.csv')}`, undefined]);
    return { bulk, change };
  };

  beforeAll(async () => {
    standin = await startStandin();
    dir = mkdtempSync(join(tmpdir(), 'wsm-interrupted-'));
    env = standin.env(dir);
    for (let index = 0; index < CONTACTS; index++)
      seedStandinContact(standin, `1415555${String(index).padStart(4, '0')}`, `Person ${index}`);
    const rows = standin.state.contacts.map((contact) => `${contact.id},${contact.name} renamed`);
    writeFileSync(join(dir, 'names.csv'), `id,name\n${rows.join('\n')}\n`);
  });
  afterAll(async () => {
    letWritesGo();
    await standin?.close();
    if (dir) cleanup(dir);
  });

  it('the contacts updated before the signal are journaled, and undo sets them back', async () => {
    standin.quirks.delayMs = 40;
    const signal = await interrupted(
      ['contacts', 'update', '--from', join(dir, 'names.csv'), '--yes', '--concurrency', '1'],
      () => renamed() >= 5,
    );
    expect(signal).toBe('SIGINT');
    await settled();
    const changed = renamed();
    expect(changed).toBeGreaterThanOrEqual(5);
    expect(changed).toBeLessThan(CONTACTS);
    const change = await journaled();
    expect(change.summary).toBe(`contacts update --from ${join(dir, 'names.csv')}`);
    expect(change.ended).toBeUndefined();
    expect(change.records).toBeGreaterThanOrEqual(changed - 1);
    expect(await shown(change.id)).toBe(change.records);
    const undo = await run('undo', change.id, '--yes');
    expect([undo.code, undo.stderr]).toEqual([
      0,
      expect.stringMatching(/^✓ undid change \S+: \d+ set back, 0 deleted, 0 created again, 0 failed\n$/),
    ]);
    expect(renamed()).toBeLessThanOrEqual(1);
  });

  it('an undo stopped half-way is journaled as far as it went: it can be undone, and the first undo run again to the end', async () => {
    // The one request the first test's signal may have left unrecorded: its contact named as before.
    for (const contact of standin.state.contacts) contact.name = String(contact.name).replace(/ renamed$/, '');
    const everyone = await run('contacts', 'update', '--from', join(dir, 'names.csv'), '--yes');
    expect(everyone.code).toBe(0);
    expect(renamed()).toBe(CONTACTS);
    const update = await journaled();
    standin.quirks.delayMs = 40;
    const signal = await interrupted(['undo', update.id, '--yes', '--concurrency', '1'], () => renamed() <= CONTACTS - 5);
    expect(signal).toBe('SIGINT');
    await settled();
    const setBack = CONTACTS - renamed();
    const undo = await journaled();
    expect([undo.summary, undo.ended]).toEqual([`undo ${update.id}`, undefined]);
    expect(undo.records).toBeGreaterThanOrEqual(setBack - 1);
    expect(await shown(undo.id)).toBe(undo.records);
    const again = await run('undo', undo.id, '--yes');
    expect(again.code).toBe(0);
    expect(renamed()).toBeGreaterThanOrEqual(CONTACTS - 1);
    const rest = await run('undo', update.id, '--yes');
    expect(rest.code).toBe(0);
    expect(renamed()).toBe(0);
  });

  it('a change another wsm makes with WSM_HISTORY_CHANGES=1 while a bulk run is being written leaves that run whole: shown, and undone', async () => {
    for (const contact of standin.state.contacts) contact.name = String(contact.name).replace(/ renamed$/, '');
    standin.quirks.delayMs = 40;
    const bulk = spawned(env, ['contacts', 'update', '--from', join(dir, 'names.csv'), '--yes', '--concurrency', '1']);
    await waitFor(() => renamed() >= 3);
    const other = await wsm({ ...env, WSM_HISTORY_CHANGES: '1' }, ['contacts', 'create', '--number', '14155559999', '--name', 'Other']);
    expect(other.code).toBe(0);
    expect(await bulk.code).toBe(0);
    standin.quirks.delayMs = undefined;
    const listed = JSON.parse((await run('history', '-o', 'json')).stdout) as Array<{ id: string; summary: string }>;
    const change = listed.find((kept) => kept.summary.startsWith('contacts update --from'))!;
    expect(change).toBeDefined();
    expect(await shown(change.id)).toBe(CONTACTS);
    expect((await run('undo', change.id, '--yes')).code).toBe(0);
    expect(renamed()).toBe(0);
  });

  it('is refused while it is written (exit 1, one line, nothing sent), shown as still being written, kept by history clear, and undone once it ended', async () => {
    const { bulk, change } = await bulkUpdateHeld();
    const sentBefore = standin.requests.length;
    const refusal = new RegExp(
      `^error: change ${change.id} \\(contacts update --from .*names\\.csv\\) is still being written by process ${bulk.child.pid} \\(another wsm\\): wait for it to end, or stop it, then undo it; nothing was sent\\n$`,
    );
    for (const args of [
      ['undo', change.id, '--yes'],
      ['undo', 'last', '--dry-run'],
    ]) {
      const refused = await run(...args);
      expect([refused.code, refused.stdout, refused.stderr]).toEqual([1, '', expect.stringMatching(refusal)]);
    }
    expect(standin.requests.slice(sentBefore)).toEqual([]);
    const shown = await run('history', 'show', change.id);
    expect(shown.stdout).toContain(`  still being written by process ${bulk.child.pid} (another wsm): the records so far`);
    const json = JSON.parse((await run('history', 'show', change.id, '-o', 'json')).stdout) as { writing?: boolean; pid?: number };
    expect([json.writing, json.pid]).toEqual([true, bulk.child.pid]);

    const others = (JSON.parse((await run('history', '-o', 'json')).stdout) as unknown[]).length - 1;
    const cleared = await run('history', 'clear', '--yes');
    expect([cleared.code, cleared.stderr]).toEqual([0, `✓ forgot ${others} changes; kept 1 change another wsm is still writing\n`]);

    letWritesGo();
    expect(await bulk.code).toBe(0);
    expect(renamed()).toBe(CONTACTS);
    expect((JSON.parse((await run('history', '-o', 'json')).stdout) as Array<{ id: string }>).map((kept) => kept.id)).toEqual([change.id]);
    const undo = await run('undo', change.id, '--yes');
    expect([undo.code, undo.stderr]).toEqual([
      0,
      `✓ undid change ${change.id}: ${CONTACTS} set back, 0 deleted, 0 created again, 0 failed\n`,
    ]);
    expect(renamed()).toBe(0);
    const ended = JSON.parse((await run('history', 'show', change.id, '-o', 'json')).stdout) as { writing?: boolean; pid?: number };
    expect([ended.writing, ended.pid]).toEqual([undefined, undefined]);
  });

  it('a writer killed outright (SIGKILL) mid-change does not hold it: undo is not refused, and history says it never ended', async () => {
    const { bulk, change } = await bulkUpdateHeld();
    bulk.child.kill('SIGKILL');
    await bulk.code;
    const shown = await run('history', 'show', change.id);
    expect(shown.stdout).toContain('  never ended: the command stopped before its end');
    expect(shown.stdout).not.toContain('still being written');
    // The killed run's records were held in memory, never written: nothing of it to take back, and no refusal.
    const undo = await run('undo', change.id, '--yes');
    expect([undo.code, undo.stderr]).toEqual([0, `✓ nothing to undo of change ${change.id}\n`]);
    letWritesGo();
  });
});
