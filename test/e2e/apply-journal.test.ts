/**
 * `wsm apply` is journaled, on the real binary: one change per apply, a record per resource it
 * created, updated, replaced (its delete, then its create) or deleted, in the order it made them,
 * with the before-image its plan read; what failed is named in the change. Against `wsm serve`
 * and the stand-in of the published API (no list of labels: the state file). The binary runs the
 * first test's apply, history and history show, and the apply on a terminal; every other run is
 * in-process (in-process.ts), the entry point the binary runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEFORE } from './applied-workspace.js';
import { startStandin, type Standin } from '../standin/index.js';
import { wsmInProcess } from './in-process.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup, wsm } from './processes.js';
import { onTerminal, plainLines } from './terminal.js';

interface Listed {
  id: string;
  summary: string;
  command: string;
  records: number;
  failed?: number[];
  notes: string[];
}

const AFTER = [
  'fields: [plan_tier]',
  'groups: [VIP, Newsletter]',
  'labels:',
  '  - { name: urgent, color: "#00ff00" }',
  '  - { name: later }',
  'roles:',
  '  - { name: Agent, permissions: [contacts.view, contacts.update] }',
  'templates:',
  '  - { name: order_update, language: en, category: UTILITY, body: { text: "Your order {{1}} has shipped.", variables: ["A-1"] } }',
  '',
].join('\n');

describe('wsm apply on wsm serve: a change per apply, a record per resource', () => {
  let server: Backend;
  const run = (...args: string[]) => wsmInProcess(server.env, args);
  const binary = (...args: string[]) => wsm(server.env, args);
  beforeAll(async () => {
    server = await serveBackend();
    writeFileSync(join(server.dir, 'before.yaml'), BEFORE);
    writeFileSync(join(server.dir, 'after.yaml'), AFTER);
    const seeded = await run('apply', '-f', join(server.dir, 'before.yaml'), '--yes');
    expect(seeded.code, seeded.stderr).toBe(0);
  });
  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
    if (server) cleanup(server.dir);
  });

  it('history lists the apply, and shows each record in the order the apply made them', async () => {
    const path = join(server.dir, 'after.yaml');
    const applied = await binary('apply', '-f', path, '--prune', '--replace-templates', '--yes');
    expect(applied.code, applied.stderr).toBe(0);
    const [change] = JSON.parse((await binary('history', '-o', 'json')).stdout) as Listed[];
    expect(change).toMatchObject({ summary: `apply ${path}`, records: 8, notes: [] });
    expect(change.failed).toBeUndefined();
    const shown = await binary('history', 'show', change.id);
    expect(shown.code, shown.stderr).toBe(0);
    const titles = shown.stdout.split('\n').filter((line) => /^\S/.test(line) && line.includes('record'));
    expect(titles).toEqual([
      '+ record 1: create contact field 2',
      '+ record 2: create contact group 2',
      '+ record 3: create label 2',
      '~ record 4: update label 1',
      '~ record 5: update role 2',
      '- record 6: delete template 1',
      '+ record 7: create template 2',
      '- record 8: delete contact field 1',
    ]);
    // The before-images are the plan's read: the label's colour and the role's permissions as they were.
    expect(shown.stdout).toContain('~ record 4: update label 1\n    color: "#ff0000" -> "#00ff00"\n');
    expect(shown.stdout).toContain(
      '~ record 5: update role 2\n    permissions: ["contacts.view"] -> ["contacts.view","contacts.update"]\n',
    );
  });

  it('a dry run and an apply with nothing to change journal nothing', async () => {
    const before = JSON.parse((await run('history', '-o', 'json')).stdout) as Listed[];
    expect((await run('apply', '-f', join(server.dir, 'before.yaml'), '--replace-templates', '--dry-run')).code).toBe(0);
    expect((await run('apply', '-f', join(server.dir, 'after.yaml'), '--yes')).code).toBe(0);
    expect(JSON.parse((await run('history', '-o', 'json')).stdout)).toEqual(before);
  });
});

describe('wsm apply and a journal it cannot keep', () => {
  let server: Backend;
  let path: string;
  beforeAll(async () => {
    server = await serveBackend();
    path = join(server.dir, 'labels.yaml');
    writeFileSync(path, 'labels:\n  - { name: urgent }\n');
  });
  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
    if (server) cleanup(server.dir);
  });
  const labels = async () => (await wsmInProcess(server.env, ['labels', 'list', '-q'])).stdout;

  it('a bad limit or an unwritable journal stops the apply before anything is sent; WSM_HISTORY=off applies without one', async () => {
    const bad = await wsmInProcess({ ...server.env, WSM_HISTORY_DAYS: 'forever' }, ['apply', '-f', path, '--yes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: WSM_HISTORY_DAYS must be a whole number from 1 to 36,500, got "forever"\n');
    const folder = join(server.env.WSM_CONFIG_DIR!, 'history');
    rmSync(folder, { recursive: true, force: true });
    writeFileSync(folder, 'not a folder');
    // On a terminal: stopped before the question, which is never asked.
    const blocked = await onTerminal(server.env, ['apply', '-f', 'labels.yaml'], { cwd: server.dir, keys: 'y\r', when: 'Apply' });
    const lines = plainLines(blocked.screen);
    expect(lines.some((line) => line.includes('Apply 1 change'))).toBe(false);
    expect({ code: blocked.code, last: lines.at(-1) }).toEqual({
      code: 1,
      last: expect.stringMatching(/^error: cannot write the change journal in \S+ \(EEXIST\): nothing was sent; WSM_HISTORY=off/),
    });
    expect(await labels()).toBe('');
    rmSync(folder);
    const off = await wsmInProcess({ ...server.env, WSM_HISTORY: 'off' }, ['apply', '-f', path, '--yes']);
    expect(off.code, off.stderr).toBe(0);
    expect(await labels()).toBe('1\n');
    expect((await wsmInProcess(server.env, ['history', '-o', 'json'])).stdout).toBe('[]\n');
  });
});

describe('wsm apply on the stand-in of the published API', () => {
  let standin: Standin;
  let dir: string;
  const run = (...args: string[]) => wsmInProcess(standin.env(dir), args);
  beforeAll(async () => {
    standin = await startStandin();
    dir = mkdtempSync(join(tmpdir(), 'wsm-apply-journal-'));
  });
  afterAll(async () => {
    await standin?.close();
    if (dir) cleanup(dir);
  });

  it('a create that fails is named in the change; what was made is recorded', async () => {
    // A label made elsewhere: the state file does not know it, so the apply's create of it fails.
    expect((await run('labels', 'create', 'urgent')).code).toBe(0);
    const path = join(dir, 'ws.yaml');
    writeFileSync(path, 'fields: [city]\nlabels:\n  - { name: urgent, color: "#ff0000" }\n');
    const applied = await run('apply', '-f', path, '--yes');
    expect(applied.code).toBe(5);
    const [change] = JSON.parse((await run('history', '-o', 'json')).stdout) as Listed[];
    expect(change).toMatchObject({ summary: `apply ${path}`, records: 1 });
    expect(change.notes).toHaveLength(1);
    expect(change.notes[0]).toMatch(
      /^labels urgent: its create failed \(Validation error \(422\) name: The name has already been taken\. /,
    );
    const shown = await run('history', 'show', change.id);
    expect(shown.stdout).toContain('+ record 1: create contact field');
  });
});
