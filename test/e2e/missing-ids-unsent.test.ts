/**
 * `contacts update|delete --from` naming a contact the workspace does not hold (999): where the
 * run's read of the workspace establishes that (the list read whole, or GET one contact answered
 * 404), the run does not send it and the journal does not look for its before-image. An update
 * counts it failed (exit 8), a delete already gone, as when it was sent. Where the read stopped
 * short of it (past the walk's bound), it is still sent as the file gives it. Every run here has
 * `-v`, whose trace shows each request made; the first of each command (contacts update, contacts
 * delete, history list) is the built binary's, the later ones run in-process (in-process.ts binaryFirstRunner).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../standin/index.js';
import { BACKENDS, backendFile, seedStandinContact, type Backend } from './backends.js';
import { contactReads, importPeople, person, sentTo, type Listed, withThreePeople } from './people.js';
import { binaryFirstRunner } from './in-process.js';
import { cleanup } from './processes.js';

const wsm = binaryFirstRunner();

/** The reads of contacts a `-v` run made, the workspace's part of each path left out. */
const reads = (stderr: string) => contactReads(stderr).map((path) => path.replace(/^.*\/contacts/, 'contacts'));
/** The report lines (stdout) and the summary lines (stderr) of a run. */
const said = (run: { stdout: string; stderr: string }) => [
  run.stdout,
  run.stderr.split('\n').filter((line) => line.startsWith('✓') || line.startsWith('error:')),
];
const MISSING = 999;

describe.each(BACKENDS)('an id the workspace lacks, in a workspace read whole, on $name', (kind) => {
  let backend: Backend;
  let named: Listed;
  withThreePeople(kind, (started, first) => {
    backend = started;
    named = first;
  });

  it('update: the missing contact fails unsent, and the list is read once', async () => {
    const file = backendFile(backend, 'update.csv', `id,name\n${named.id},Renamed\n${MISSING},Nobody\n`);
    const run = await wsm(backend.env, ['contacts', 'update', '--from', file, '-v']);
    expect(sentTo(run.stderr)).toEqual([named.id]);
    expect(reads(run.stderr)).toEqual(['contacts?page=1&per_page=100', 'contacts?per_page=1']);
    expect(run.code, run.stderr).toBe(8);
    expect(said(run)).toEqual([
      `${MISSING}\tfailed\t\tcontact ${MISSING} not found, not sent\n`,
      [`✓ updated 1 of the 2 contacts read from ${file}: 0 unchanged, 0 skipped, 1 failed`, 'error: 1 of 2 failed'],
    ]);
    expect((await person(backend, 1)).name).toBe('Renamed');
    // The history counts it failed, as when its request failed.
    const history = await wsm(backend.env, ['history', 'list', '-o', 'json']);
    expect(JSON.parse(history.stdout)[0]).toMatchObject({ summary: `contacts update --from ${file}`, failed: [MISSING] });
  });

  it('delete: the missing contact is already gone, unsent; without a journal (so no read) it is sent', async () => {
    const file = backendFile(backend, 'delete.csv', `id\n${named.id}\n${MISSING}\n`);
    const run = await wsm(backend.env, ['contacts', 'delete', '--from', file, '--yes', '-v', '-o', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject([
      { id: named.id, outcome: 'deleted', status: 200 },
      { id: MISSING, outcome: 'already gone', status: null, message: `contact ${MISSING} not found, not sent` },
    ]);
    expect(sentTo(run.stderr)).toEqual([named.id]);
    expect(said(run)[1]).toEqual([`✓ deleted 1 of the 2 contacts read from ${file}: 1 already gone, 0 failed`]);

    const unread = await wsm({ ...backend.env, WSM_HISTORY: 'off' }, ['contacts', 'delete', '--from', file, '--yes', '-v']);
    expect(unread.code, unread.stderr).toBe(0);
    expect(sentTo(unread.stderr)).toEqual([named.id, MISSING]);
    expect(said(unread)[1]).toEqual([`✓ deleted 0 of the 2 contacts read from ${file}: 2 already gone, 0 failed`]);
  });
});

describe('an id the workspace lacks, read by itself (wsm serve, more list pages than rows)', () => {
  let backend: Backend;
  let named: Listed;

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
    await importPeople(backend, 250);
    named = await person(backend, 7);
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('update: GET of the contact answered 404 once; nothing sent to it, no list walked', async () => {
    const file = backendFile(backend, 'update.csv', `id,name\n${named.id},Renamed\n${MISSING},Nobody\n`);
    const run = await wsm(backend.env, ['contacts', 'update', '--from', file, '-v']);
    expect(run.code, run.stderr).toBe(8);
    expect(sentTo(run.stderr)).toEqual([named.id]);
    expect(reads(run.stderr)).toEqual([`contacts/${MISSING}`, `contacts/${named.id}`, 'contacts?per_page=1'].sort());

    const onlyMissing = backendFile(backend, 'missing.csv', `id,name\n${MISSING},Nobody\n`);
    const alone = await wsm(backend.env, ['contacts', 'update', '--from', onlyMissing, '-v']);
    expect([sentTo(alone.stderr), reads(alone.stderr)]).toEqual([[], [`contacts/${MISSING}`, 'contacts?per_page=1']]);
    expect(said(alone)).toEqual([
      `${MISSING}\tfailed\t\tcontact ${MISSING} not found, not sent\n`,
      [`✓ updated 0 of the 1 contact read from ${onlyMissing}: 0 unchanged, 0 skipped, 1 failed`, 'error: 1 of 1 failed'],
    ]);
    expect(alone.code).toBe(8);
  });

  it('delete: the 404 of the journal read is the contact already gone, not asked again', async () => {
    const run = await wsm(backend.env, ['contacts', 'delete', '--from', '-', '--yes', '-v'], `${MISSING}\n`);
    expect(run.code, run.stderr).toBe(0);
    expect([sentTo(run.stderr), reads(run.stderr)]).toEqual([[], [`contacts/${MISSING}`, 'contacts?per_page=1']]);
    expect(said(run)[1]).toEqual(['✓ deleted 0 of the 1 contact read from standard input: 1 already gone, 0 failed']);
  });
});

describe('an id past the walk bound, on the stand-in for the hosted service', () => {
  let standin: Standin;
  let dir: string;

  beforeAll(async () => {
    standin = await startStandin();
    dir = mkdtempSync(join(tmpdir(), 'wsm-standin-'));
    for (let n = 0; n < 10_050; n += 1) seedStandinContact(standin, `1416${String(n).padStart(7, '0')}`, `Seeded ${n}`);
  });
  afterAll(async () => {
    await standin?.close();
    cleanup(dir);
  });

  it('update: the plan did not read it, so it is sent as the file gives it and fails on its 404', async () => {
    const missing = 99_999_999;
    const run = await wsm(standin.env(dir), ['contacts', 'update', '--from', '-', '-v'], `id,name\n${missing},Nobody\n`);
    expect(run.code, run.stderr).toBe(8);
    expect(sentTo(run.stderr)).toEqual([missing]);
    expect(said(run)).toEqual([
      `${missing}\tfailed\t404\tResource not found.\n`,
      [
        '✓ updated 0 of the 1 contact read from standard input: 0 unchanged, 0 skipped, 1 failed; 1 of them sent as its row gives it, not read first',
        'error: 1 of 1 failed',
      ],
    ]);
  });
});
