/**
 * Files planted in the journal folder that are not files wsm wrote: a symbolic link to a file
 * elsewhere, and a named pipe (FIFO) under a change's name. The real binary against `wsm serve`:
 * a change never changes the mode of a file outside the journal through a link, and `wsm history`,
 * `history show` and `undo --dry-run` never read through a link nor wait on a pipe: one line naming
 * the file, exit 2 (the list leaves the change out with a warning and goes on). The set-up runs
 * in-process (in-process.ts).
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { spawned, wsm } from './processes.js';

describe('links and pipes planted in the journal folder, against wsm serve', () => {
  let backend: Backend;
  let history: string;
  let outside: string;
  let last: string;
  const children: ChildProcess[] = [];
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  /** The binary as a process this file stops should it hang on a pipe. */
  const ended = async (...args: string[]) => {
    const started = spawned(backend.env, args);
    children.push(started.child);
    return { code: await started.code, stdout: started.stdout(), stderr: started.stderr() };
  };
  const planted = '20261101-000000-001';

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
    expect((await run('contacts', 'create', '--number', '14155550401', '--name', 'Ann')).code).toBe(0);
    expect((await run('contacts', 'update', '1', '--name', 'Ann Two')).code).toBe(0);
    history = join(backend.env.WSM_CONFIG_DIR!, 'history');
    last = readdirSync(history)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .at(-1)!
      .replace(/\.json$/, '');
    outside = mkdtempSync(join(tmpdir(), 'wsm-outside-'));
  });
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const name of readdirSync(history)) if (name.startsWith(planted)) rmSync(join(history, name));
  });
  afterAll(async () => {
    rmSync(outside, { recursive: true, force: true });
    await backend?.stop();
  });

  it('a change leaves the mode of a file outside the journal as it is, whatever links to it from the folder', async () => {
    const secret = join(outside, 'shared.txt');
    writeFileSync(secret, 'not the journal\n');
    chmodSync(secret, 0o644);
    symlinkSync(secret, join(history, `${planted}.json`));
    symlinkSync(secret, join(history, `${planted}.jsonl`));
    expect((await wsm(backend.env, ['contacts', 'update', '1', '--name', 'Ann Three'])).code).toBe(0);
    expect((statSync(secret).mode & 0o777).toString(8)).toBe('644');
  });

  it('a meta that is a link to a file elsewhere is not read through: left out of the list, refused by show and undo', async () => {
    const elsewhere = join(outside, 'elsewhere.json');
    copyFileSync(join(history, `${last}.json`), elsewhere);
    symlinkSync(elsewhere, join(history, `${planted}.json`));
    copyFileSync(join(history, `${last}.jsonl`), join(history, `${planted}.jsonl`));
    const listed = await ended('history', '-o', 'json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).map((change: { id: string }) => change.id)).not.toContain(planted);
    expect(listed.stderr).toMatch(
      new RegExp(`^warning: the change journal's history/${planted}\\.json is a link, not a file wsm wrote[^\\n]*: left out\\n$`),
    );
    for (const args of [
      ['history', 'show', planted],
      ['undo', planted, '--dry-run'],
    ]) {
      const res = await ended(...args);
      expect([res.code, res.stdout, res.stderr]).toEqual([
        2,
        '',
        expect.stringMatching(new RegExp(`^error: the change journal's history/${planted}\\.json is a link[^\\n]*\\n$`)),
      ]);
    }
  });

  it('a record file that is a link is refused, exit 2, not read through', async () => {
    copyFileSync(join(history, `${last}.json`), join(history, `${planted}.json`));
    const elsewhere = join(outside, 'records.jsonl');
    copyFileSync(join(history, `${last}.jsonl`), elsewhere);
    symlinkSync(elsewhere, join(history, `${planted}.jsonl`));
    const res = await ended('history', 'show', planted);
    expect([res.code, res.stdout, res.stderr]).toEqual([
      2,
      '',
      expect.stringMatching(
        new RegExp(`^error: the change journal's history/${planted}\\.jsonl is a link, not a file wsm wrote[^\\n]*\\n$`),
      ),
    ]);
  });

  it('a named pipe under a change name: the list goes on without it, show and undo stop with one line, none waits for a writer', async () => {
    execFileSync('mkfifo', [join(history, `${planted}.json`)]);
    const listed = await ended('history');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(last);
    expect(listed.stderr).toMatch(
      new RegExp(`^warning: the change journal's history/${planted}\\.json is not a regular file[^\\n]*: left out\\n$`),
    );
    rmSync(join(history, `${planted}.json`));
    copyFileSync(join(history, `${last}.json`), join(history, `${planted}.json`));
    execFileSync('mkfifo', [join(history, `${planted}.jsonl`)]);
    for (const args of [
      ['history', 'show', planted],
      ['undo', planted, '--dry-run'],
    ]) {
      const res = await ended(...args);
      expect([res.code, res.stdout, res.stderr]).toEqual([
        2,
        '',
        expect.stringMatching(new RegExp(`^error: the change journal's history/${planted}\\.jsonl is not a regular file[^\\n]*\\n$`)),
      ]);
    }
  });
});
