/**
 * The change journal's store: bounded by count and by age, large changes gzipped (read back whole),
 * the command line kept without its secrets, limits from the environment checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandLine } from '../../src/journal/journal.js';
import { JournalStore, limitsFrom } from '../../src/journal/store.js';
import type { JournalRecord } from '../../src/journal/records.js';
import { tempDir } from './helpers.js';

const meta = { profile: 'p', base_url: 'http://127.0.0.1:1/api/v3', workspace: 'w', command: 'wsm x', summary: 's' };
const record = (id: number): JournalRecord => ({
  kind: 'contact',
  op: 'update',
  id,
  before: { id, number: `1415555${id}`, name: 'Ann', email: null, gender: null, status: true, fields: {}, contact_groups: [] },
  after: { id, number: `1415555${id}`, name: 'Bob', email: null, gender: null, status: true, fields: {}, contact_groups: [] },
});

describe('the journal store', () => {
  let dir: string;
  let done: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup: done } = await tempDir()));
  afterEach(() => done());

  it('keeps the last N changes: the oldest go when a change begins past the limit', () => {
    const store = new JournalStore(dir, { changes: 3, days: 90 });
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 12, minute));
    for (let minute = 0; minute < 5; minute++) store.begin(meta, 1, at(minute)).finish([]);
    expect(store.list().map((change) => change.id)).toEqual(['20261128-120400-000', '20261128-120300-000', '20261128-120200-000']);
  });

  it('keeps D days: a change older than that goes when a change begins', () => {
    const store = new JournalStore(dir, { changes: 100, days: 2 });
    store.begin(meta, 1, new Date(Date.UTC(2026, 10, 20))).finish([]);
    store.begin(meta, 1, new Date(Date.UTC(2026, 10, 27))).finish([]);
    store.begin(meta, 1, new Date(Date.UTC(2026, 10, 28))).finish([]);
    expect(store.list().map((change) => change.id)).toEqual(['20261128-000000-000', '20261127-000000-000']);
  });

  it('a large change is gzipped, in batches, and read back whole with its failures', () => {
    const store = new JournalStore(dir);
    const change = store.begin(meta, 3000);
    change.add(Array.from({ length: 2000 }, (_, i) => record(i + 1)));
    change.add(Array.from({ length: 1000 }, (_, i) => record(i + 2001)));
    change.finish([7]);
    expect(readdirSync(dir).sort()).toEqual([`${change.id}.json`, `${change.id}.jsonl.gz`]);
    const read = store.read(store.find('last')!);
    expect(read.records).toHaveLength(3000);
    expect(read.records[2999]).toEqual(record(3000));
    expect(read.meta).toMatchObject({ records: 3000, failed: [7] });
    expect(readFileSync(`${dir}/${change.id}.jsonl.gz`).length).toBeLessThan(3000 * 40);
  });

  it('the command line is kept without its secrets', () => {
    expect(commandLine(['--token', 'sekrit-token', 'contacts', 'delete', '4', '--yes'], [])).toBe(
      'wsm --token *** contacts delete 4 --yes',
    );
    expect(commandLine(['--token=sekrit-token', 'x'], [])).toBe('wsm --token=*** x');
    expect(commandLine(['api', '/x?t=abcd1234', 'it is'], ['abcd1234'])).toBe("wsm api '/x?t=***' 'it is'");
  });

  it('limits come from WSM_HISTORY_CHANGES and WSM_HISTORY_DAYS; a bad value is named', () => {
    expect(limitsFrom({})).toEqual({ changes: 200, days: 90 });
    expect(limitsFrom({ WSM_HISTORY_CHANGES: '10', WSM_HISTORY_DAYS: '7' })).toEqual({ changes: 10, days: 7 });
    expect(limitsFrom({ WSM_HISTORY_CHANGES: 'ten' })).toBe('WSM_HISTORY_CHANGES must be a whole number from 1 to 100,000, got "ten"');
    expect(limitsFrom({ WSM_HISTORY_DAYS: '0' })).toBe('WSM_HISTORY_DAYS must be a whole number from 1 to 36,500, got "0"');
    expect(limitsFrom({ WSM_HISTORY_DAYS: '36501' })).toBe('WSM_HISTORY_DAYS must be a whole number from 1 to 36,500, got "36501"');
    expect(limitsFrom({ WSM_HISTORY_CHANGES: '100000', WSM_HISTORY_DAYS: '36500' })).toEqual({ changes: 100000, days: 36500 });
  });
});
