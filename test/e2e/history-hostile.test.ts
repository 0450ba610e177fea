/**
 * A journal file in the config folder that is damaged, forged or too large (truncated, wrong
 * types, a record image nested past its bound, a meta naming another file, a broken gzip stream, a 600 MB record file, more
 * records than a change keeps, in tiny lines: refused before one is parsed), and a history
 * folder another user can write to: `wsm history`, `history show` and `wsm undo --dry-run` on the
 * real binary answer each with one clear line and a usage exit, never a raw JavaScript error;
 * the history folder and every journal file end private (0700 and 0600).
 * The binary runs `history -o json`, `history show` and `undo --dry-run` on the first damage and
 * `contacts update` with a bad WSM_HISTORY_DAYS; every other run is in-process (in-process.ts).
 */
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_RECORDS } from '../../src/journal/journal-files.js';
import { BACKENDS, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

/** The shortest line the journal's schema takes as a record: a million of them made 1 GB of memory once read. */
const TINY_RECORD = '{"kind":"contact","op":"create","id":1,"before":null,"after":null}\n';

describe('a damaged or forged journal, against wsm serve', () => {
  let backend: Backend;
  let history: string;
  let pristine: string;
  let last: string;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  const restore = () => {
    for (const name of readdirSync(history)) rmSync(join(history, name));
    for (const name of readdirSync(pristine)) copyFileSync(join(pristine, name), join(history, name));
  };

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
    expect((await run('contacts', 'create', '--number', '14155550301', '--name', 'Ann')).code).toBe(0);
    expect((await run('contacts', 'update', '1', '--name', 'Ann Two')).code).toBe(0);
    history = join(backend.env.WSM_CONFIG_DIR!, 'history');
    pristine = mkdtempSync(join(tmpdir(), 'wsm-history-'));
    for (const name of readdirSync(history)) copyFileSync(join(history, name), join(pristine, name));
    last = readdirSync(history)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .at(-1)!
      .replace(/\.json$/, '');
  });
  beforeEach(() => restore());
  afterAll(async () => {
    rmSync(pristine, { recursive: true, force: true });
    await backend?.stop();
  });

  // Whether the damage is in the meta (the change is left out of the list, with a warning) or in the records (listed as it was).
  const damages: Array<[string, () => void, 'meta' | 'records']> = [
    [
      'a record file cut short',
      () => writeFileSync(join(history, `${last}.jsonl`), readFileSync(join(pristine, `${last}.jsonl`)).subarray(0, 50)),
      'records',
    ],
    ['a record file emptied, fewer records than its meta names', () => writeFileSync(join(history, `${last}.jsonl`), ''), 'records'],
    [
      'a record of the wrong shape',
      () => writeFileSync(join(history, `${last}.jsonl`), '{"kind":"contact","op":"drop","id":"1","before":7,"after":null}\n'),
      'records',
    ],
    ['a meta that is null', () => writeFileSync(join(history, `${last}.json`), 'null\n'), 'meta'],
    [
      'a meta of the wrong types',
      () => writeFileSync(join(history, `${last}.json`), '{"id":5,"when":7,"records":"x","notes":3}\n'),
      'meta',
    ],
    [
      'a meta naming a file outside the journal',
      () => writeFileSync(join(history, `${last}.json`), '{"id":"../config","when":"x","records":1,"notes":[]}\n'),
      'meta',
    ],
    [
      'a gzip stream cut short',
      () => {
        rmSync(join(history, `${last}.jsonl`));
        writeFileSync(join(history, `${last}.jsonl.gz`), gzipSync(readFileSync(join(pristine, `${last}.jsonl`))).subarray(0, 30));
      },
      'records',
    ],
    [
      "a label's record with an image nested 100,000 deep",
      () =>
        writeFileSync(
          join(history, `${last}.jsonl`),
          `{"kind":"resource","resource":"labels","op":"update","id":1,"before":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)},"after":null}\n`,
        ),
      'records',
    ],
    [
      'a record of a resource there is none of',
      () =>
        writeFileSync(
          join(history, `${last}.jsonl`),
          '{"kind":"resource","resource":"planets","op":"delete","id":1,"before":{},"after":null}\n',
        ),
      'records',
    ],
    ['a record file of 600 MB', () => truncateSync(join(history, `${last}.jsonl`), 600 * 1024 * 1024), 'records'],
    [
      `a record file of ${MAX_RECORDS + 1} tiny lines (each a record, far under the size bound)`,
      () => writeFileSync(join(history, `${last}.jsonl`), TINY_RECORD.repeat(MAX_RECORDS + 1)),
      'records',
    ],
    [
      `a gzipped record file of ${MAX_RECORDS + 1} tiny lines, the last without its newline`,
      () => {
        rmSync(join(history, `${last}.jsonl`));
        writeFileSync(join(history, `${last}.jsonl.gz`), gzipSync(TINY_RECORD.repeat(MAX_RECORDS + 1).trimEnd()));
      },
      'records',
    ],
    [
      `a meta naming ${MAX_RECORDS + 1} records`,
      () => {
        const meta = JSON.parse(readFileSync(join(pristine, `${last}.json`), 'utf8'));
        writeFileSync(join(history, `${last}.json`), JSON.stringify({ ...meta, records: MAX_RECORDS + 1 }));
      },
      'records',
    ],
  ];
  for (const [at, [what, damage, where]] of damages.entries())
    it(`${what}: one clear line naming the file and exit 2 from history show and undo --dry-run; history lists the rest`, async () => {
      const run = (...args: string[]) => (at === 0 ? wsm : wsmInProcess)(backend.env, args);
      damage();
      const listed = await run('history', '-o', 'json');
      const ids = (JSON.parse(listed.stdout) as Array<{ id: string }>).map((change) => change.id);
      expect(listed.code).toBe(0);
      if (where === 'meta') {
        expect(ids).not.toContain(last);
        expect(ids.length).toBeGreaterThan(0);
        expect(listed.stderr).toMatch(new RegExp(`^warning: the change journal's history/${last}\\.json [^\n]*: left out\n$`));
      } else expect([ids[0], listed.stderr]).toEqual([last, '']);
      for (const args of [
        ['history', 'show', 'last'],
        ['undo', 'last', '--dry-run'],
      ]) {
        const res = await run(...args);
        expect({ args, code: res.code }).toEqual({ args, code: 2 });
        expect(res.stderr).toMatch(new RegExp(`^error: the change journal's history/${last}\\.json[^\n]*\n$`));
        if (what.includes(String(MAX_RECORDS + 1)))
          expect(res.stderr).toMatch(
            /(holds 500,001 lines, more records|names 500,001 records, more) than a change keeps \(500,000\): that change cannot be shown or undone/,
          );
        expect(res.stderr).not.toMatch(/Cannot read properties|in JSON at position|unexpected end of file|Cannot create a string|ENOENT/);
      }
    });

  it('a change that never ended, its last record cut short (its writer killed mid-line), plain or gzipped: shown and undone without it', async () => {
    const meta = JSON.parse(readFileSync(join(pristine, `${last}.json`), 'utf8'));
    const { ended: _ended, ...unended } = meta;
    writeFileSync(join(history, `${last}.json`), JSON.stringify({ ...unended, pid: 999_999 }));
    const whole = readFileSync(join(pristine, `${last}.jsonl`), 'utf8');
    writeFileSync(join(history, `${last}.jsonl`), `${whole}${whole.slice(0, 40)}`);
    const shown = await run('history', 'show', 'last');
    expect([shown.code, shown.stderr]).toEqual([0, '']);
    expect(shown.stdout).toContain('  never ended: the command stopped before its end');
    expect(shown.stdout).toContain(
      '  note: its last record is cut short (its command stopped while writing it): left out, so undo leaves that one',
    );
    expect(shown.stdout).toMatch(/~ record 1: update contact 1/);
    const planned = await run('undo', 'last', '--dry-run');
    expect([planned.code, planned.stderr]).toEqual([0, '']);
    expect(planned.stdout).toMatch(
      /^~ record 1: update contact 1 \(14155550301\)\n {4}name: "Ann Two" -> "Ann"\nPlan: 0 to create, 1 to update/,
    );

    rmSync(join(history, `${last}.jsonl`));
    const members = Buffer.concat([gzipSync(whole), gzipSync(whole)]);
    writeFileSync(join(history, `${last}.jsonl.gz`), members.subarray(0, members.length - 30));
    const json = await run('history', 'show', 'last', '-o', 'json');
    expect([json.code, json.stderr, (JSON.parse(json.stdout) as { records: unknown[] }).records.length]).toEqual([0, '', 1]);
    expect((await run('undo', 'last', '--dry-run')).code).toBe(0);
  });

  it('a change is known by its file name, whatever id its meta holds; an id of another shape is refused', async () => {
    const meta = JSON.parse(readFileSync(join(pristine, `${last}.json`), 'utf8'));
    writeFileSync(join(history, `${last}.json`), JSON.stringify({ ...meta, id: '../config' }));
    const listed = await run('history', '-o', 'json');
    expect([listed.code, JSON.parse(listed.stdout)[0].id]).toEqual([0, last]);
    expect((await run('history', 'show', last)).code).toBe(0);
    for (const ref of ['../config', `${last}/../../config`, '']) {
      const res = await run('history', 'show', ref);
      expect([res.code, res.stderr]).toEqual([2, expect.stringMatching(/^error: "[^\n]*" is no change id: [^\n]*\n$/)]);
    }
  });

  it('a history folder others may write to, and journal files others may read, are made private by the next change', async () => {
    chmodSync(history, 0o777);
    for (const name of readdirSync(history)) chmodSync(join(history, name), 0o644);
    expect((await run('contacts', 'update', '1', '--name', 'Ann Three')).code).toBe(0);
    expect((statSync(history).mode & 0o777).toString(8)).toBe('700');
    for (const name of readdirSync(history))
      expect([name, (statSync(join(history, name)).mode & 0o777).toString(8)]).toEqual([name, '600']);
  });

  it('a WSM_HISTORY_DAYS or WSM_HISTORY_CHANGES past its bound is refused, nothing sent, and never empties the journal', async () => {
    const kept = JSON.parse((await run('history', '-o', 'json')).stdout).length;
    expect(kept).toBeGreaterThan(0);
    const name1 = async () => JSON.parse((await run('contacts', 'get', '1', '-o', 'json')).stdout).name;
    const before = await name1();
    for (const [name, value, most] of [
      ['WSM_HISTORY_DAYS', '200000000', '36,500'],
      ['WSM_HISTORY_DAYS', '36501', '36,500'],
      ['WSM_HISTORY_CHANGES', '100001', '100,000'],
    ]) {
      const res = await (name === 'WSM_HISTORY_CHANGES' ? wsm : wsmInProcess)({ ...backend.env, [name]: value }, [
        'contacts',
        'update',
        '1',
        '--name',
        'Ann Four',
      ]);
      expect([res.code, res.stderr]).toEqual([2, `error: ${name} must be a whole number from 1 to ${most}, got "${value}"\n`]);
    }
    expect(await name1()).toBe(before);
    const res = await wsmInProcess({ ...backend.env, WSM_HISTORY_DAYS: '36500', WSM_HISTORY_CHANGES: '100000' }, [
      'contacts',
      'update',
      '1',
      '--name',
      'Ann Five',
    ]);
    expect(res.code).toBe(0);
    expect(JSON.parse((await run('history', '-o', 'json')).stdout).length).toBe(kept + 1);
  });

  it('a file where the history folder should be: one line and exit 2, not ENOTDIR', async () => {
    const aside = `${history}-aside`;
    const { renameSync } = await import('node:fs');
    renameSync(history, aside);
    writeFileSync(history, 'x');
    try {
      for (const args of [['history'], ['history', 'show', 'last']]) {
        const res = await run(...args);
        expect([res.code, res.stderr]).toEqual([2, expect.stringMatching(/^error: [^\n]*history[^\n]*\n$/)]);
        expect(res.stderr).not.toContain('ENOTDIR');
      }
    } finally {
      rmSync(history);
      renameSync(aside, history);
    }
  });
});
