/**
 * The change journal's store: bounded by count and by age, large changes gzipped (read back whole),
 * the command line kept without its secrets, limits from the environment checked.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandLine } from '../../src/journal/journal.js';
import { JournalStore } from '../../src/journal/store.js';
import { limitsFrom } from '../../src/journal/journal-limits.js';
import type { JournalRecord, ResourceRecord } from '../../src/journal/records.js';
import { resourceImage } from '../../src/journal/resource-image.js';
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
    for (let minute = 0; minute < 5; minute++) store.begin(meta, 1, at(minute)).finish({});
    expect(store.list().map((change) => change.id)).toEqual(['20261128-120400-000', '20261128-120300-000', '20261128-120200-000']);
  });

  it('a change not ended yet (another wsm still writing it) is not removed to make room: the oldest ended change goes instead', () => {
    const store = new JournalStore(dir, { changes: 2, days: 90 });
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 12, minute));
    const running = store.begin(meta, 1, at(0));
    store.begin(meta, 1, at(1)).finish({});
    store.begin(meta, 1, at(2)).finish({});
    running.add([record(1)]);
    running.finish({});
    expect(store.list().map((change) => change.id)).toEqual(['20261128-120200-000', '20261128-120000-000']);
    expect(store.read(store.find('20261128-120000-000')!).records).toEqual([record(1)]);
  });

  it('a change being written holds its lock until it ends, and a single write kept whole is never seen unended', () => {
    const store = new JournalStore(dir);
    const running = store.begin(meta, 1);
    const begun = store.find(running.id)!;
    expect([store.beingWritten(begun), begun.pid]).toEqual([true, process.pid]);
    expect(readdirSync(dir)).toContain(`${running.id}.lock`);
    running.finish({});
    const ended = store.find(running.id)!;
    expect([store.beingWritten(ended), ended.pid]).toEqual([false, undefined]);
    expect(readdirSync(dir).filter((name) => name.endsWith('.lock'))).toEqual([]);
    const kept = store.find(store.keep(meta, [record(1)], ['a note']))!;
    expect([kept.ended !== undefined, kept.records, kept.notes, store.beingWritten(kept)]).toEqual([true, 1, ['a note'], false]);
    expect(store.read(kept).records).toEqual([record(1)]);
  });

  it('a change whose writer died (no lock held: never ended, its lock file left or gone) is made room for like an ended one', () => {
    const store = new JournalStore(dir, { changes: 2, days: 90 });
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 12, minute));
    const dead = store.keep(meta, [], [], at(0));
    const { ended: _ended, ...unended } = store.find(dead)!;
    writeFileSync(`${dir}/${dead}.json`, JSON.stringify({ ...unended, pid: 999_999 }));
    writeFileSync(`${dir}/${dead}.lock`, 'SQLite format 3 and nothing else: no one holds it');
    expect(store.beingWritten(store.find(dead)!)).toBe(false);
    store.begin(meta, 1, at(1)).finish({});
    store.begin(meta, 1, at(2)).finish({});
    expect(store.list().map((change) => change.id)).toEqual(['20261128-120200-000', '20261128-120100-000']);
    expect(readdirSync(dir).filter((name) => name.startsWith(dead))).toEqual([]);
  });

  it('a change keeps at most its bound of records, and says at the time that the rest are not kept', () => {
    const store = new JournalStore(dir, { changes: 10, days: 90 }, 3);
    const change = store.begin(meta, 5);
    change.add([record(1), record(2)]);
    change.add([record(3), record(4)]);
    change.add([record(5)]);
    change.finish({});
    const kept = store.find(change.id)!;
    expect([kept.records, kept.notes]).toEqual([
      3,
      ['only its first 3 records are kept (the most a change keeps): undo leaves the rest as they are'],
    ]);
    expect(store.read(kept).records).toEqual([record(1), record(2), record(3)]);
  });

  it('keeps D days: a change older than that goes when a change begins', () => {
    const store = new JournalStore(dir, { changes: 100, days: 2 });
    store.begin(meta, 1, new Date(Date.UTC(2026, 10, 20))).finish({});
    store.begin(meta, 1, new Date(Date.UTC(2026, 10, 27))).finish({});
    store.begin(meta, 1, new Date(Date.UTC(2026, 10, 28))).finish({});
    expect(store.list().map((change) => change.id)).toEqual(['20261128-000000-000', '20261127-000000-000']);
  });

  it('a large change is gzipped, in batches, and read back whole with its failures', () => {
    const store = new JournalStore(dir);
    const change = store.begin(meta, 3000);
    change.add(Array.from({ length: 2000 }, (_, i) => record(i + 1)));
    change.add(Array.from({ length: 1000 }, (_, i) => record(i + 2001)));
    change.finish({ contacts: [7] });
    expect(readdirSync(dir).sort()).toEqual([`${change.id}.json`, `${change.id}.jsonl.gz`]);
    const read = store.read(store.find('last')!);
    expect(read.records).toHaveLength(3000);
    expect(read.records[2999]).toEqual(record(3000));
    expect(read.meta).toMatchObject({ records: 3000, failed: [7], failed_resources: { contacts: [7] } });
    expect(readFileSync(`${dir}/${change.id}.jsonl.gz`).length).toBeLessThan(3000 * 40);
  });

  it('two changes begun in the same millisecond, one large (gzipped) and one small, get ids of their own and keep their own records', () => {
    const store = new JournalStore(dir);
    const now = new Date(Date.UTC(2026, 10, 28, 12, 0));
    const small = store.begin({ ...meta, summary: 'small' }, 1, now);
    const large = store.begin({ ...meta, summary: 'large' }, 600, now);
    expect(large.id).not.toBe(small.id);
    small.add([record(1)]);
    large.add(Array.from({ length: 600 }, (_, i) => record(i + 2)));
    small.finish({});
    large.finish({});
    const read = (id: string) => store.read(store.find(id)!);
    expect([read(small.id).meta.summary, read(small.id).records.length]).toEqual(['small', 1]);
    expect([read(large.id).meta.summary, read(large.id).records.length]).toEqual(['large', 600]);
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

  it('keeps a record of another resource whole and reads it back; contact records of an older journal still load', () => {
    const store = new JournalStore(dir);
    const label: ResourceRecord = {
      kind: 'resource',
      resource: 'labels',
      op: 'update',
      id: 3,
      before: { id: 3, name: 'A', color: null },
      after: { id: 3, name: 'B', color: '#aabbcc' },
    };
    const partner: ResourceRecord = {
      kind: 'resource',
      resource: 'permissions',
      op: 'update',
      id: null,
      before: null,
      after: { permissions: ['contacts.view'] },
      unknown: 'the partner defaults: no before-image (this server cannot read them)',
      unkept: [],
    };
    const change = store.begin(meta, 3);
    change.add([record(1), label, partner]);
    change.finish({});
    expect(store.read(store.find('last')!).records).toEqual([record(1), label, partner]);
    // A contact record as journals before the resource kind wrote it, byte for byte.
    const old = store.begin(meta, 1);
    old.finish({});
    writeFileSync(
      `${dir}/${old.id}.jsonl`,
      '{"kind":"contact","op":"delete","id":9,"before":{"id":9,"number":"14155550199","name":"Zed","email":null,"gender":null,"status":true,"fields":{"city":"Lisbon"},"contact_groups":[{"id":1,"name":"VIP"}]},"after":null}\n',
    );
    const meta0 = store.find(old.id)!;
    expect(store.read({ ...meta0, records: 1 }).records[0]).toMatchObject({
      kind: 'contact',
      id: 9,
      before: { fields: { city: 'Lisbon' } },
    });
  });

  it('a record image is bounded when kept: too large or too deep is said, never written', () => {
    expect(resourceImage({ id: 1, name: 'A', created_at: 'x', updated_at: 'y' })).toEqual({ id: 1, name: 'A' });
    expect(resourceImage({ id: 1, body: 'x'.repeat(70 * 1024) })).toBe('its record is over 64 KB, more than the journal keeps');
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 20; i++) deep = { deeper: deep };
    expect(resourceImage(deep)).toBe('its record nests deeper than 16, more than the journal keeps');
    expect(resourceImage(undefined)).toBe('the server answered no record');
  });

  const planted: Array<[string, string, RegExp]> = [
    ['an image over 64 KB', `{"name":"${'x'.repeat(70 * 1024)}"}`, /before: not a record image/],
    ['an image nested 100,000 deep', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`, /before: not a record image/],
    ['an image that is a list', '[1,2]', /before: not a record image/],
  ];
  for (const [what, before, message] of planted)
    it(`a planted resource record with ${what} is refused when read back, naming the record`, () => {
      const store = new JournalStore(dir);
      const change = store.begin(meta, 1);
      change.finish({});
      const line = `{"kind":"resource","resource":"labels","op":"update","id":3,"before":${before},"after":null}\n`;
      writeFileSync(`${dir}/${change.id}.jsonl`, line);
      expect(() => store.read({ ...store.find(change.id)!, records: 1 })).toThrow(message);
    });

  it('a resource record naming contacts or a resource there is none of is refused', () => {
    const store = new JournalStore(dir);
    const change = store.begin(meta, 1);
    change.finish({});
    for (const resource of ['contacts', 'planets']) {
      writeFileSync(
        `${dir}/${change.id}.jsonl`,
        `{"kind":"resource","resource":"${resource}","op":"create","id":1,"before":null,"after":{}}\n`,
      );
      expect(() => store.read({ ...store.find(change.id)!, records: 1 })).toThrow(/has no journal record at record 1 \(resource: /);
    }
  });
});
