/**
 * What the journal keeps of an import after --wait: each contact as the rows
 * sent leave it, predicted, with no read of the workspace after the upload (`-v`'s trace shows no
 * list request once the file is sent), and `wsm undo`, finding the contacts by number, puts the
 * workspace back as it was. On `wsm serve` and on the stand-in for the hosted service; on the
 * stand-in also with contacts made by someone else while the import runs, and with a page of 100
 * refused.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../standin/index.js';
import { BACKENDS, backendFile, seedStandinContact, type Backend, serveBackend } from './backends.js';
import { cleanup, localProfile } from './processes.js';
import { makesContactFirst, throughProxy } from './forward.js';
import { binaryFirstRunner, wsmInProcess } from './in-process.js';

/** The first run of each command goes to the built binary, every later one in-process (in-process.ts). */
const wsm = binaryFirstRunner();

type Listed = { id: number; number: string; created_at: string; updated_at: string } & Record<string, unknown>;

/** 250 contacts: pages 1 to 3 of 100, 14155550000 to 14155550249 in the order they were made. */
const SEED = `number,name\n${Array.from({ length: 250 }, (_, i) => `1415555${String(i).padStart(4, '0')},Old ${i}`).join('\n')}\n`;

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`the import journal after --wait, on ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsm(backend.env, args);
    // The seed and the reads of the workspace: in-process.
    const arrange = (args: string[], more: NodeJS.ProcessEnv = {}) => wsmInProcess({ ...backend.env, ...more }, args);
    const csv = (name: string, text: string) => backendFile(backend, name, text);
    /** Every contact with every value the server shows, but for what it makes itself (id, times). */
    const workspace = async () =>
      (JSON.parse((await arrange(['contacts', 'list', '--all', '-o', 'json'])).stdout) as Listed[])
        .map(({ id: _id, created_at: _created, updated_at: _updated, ...values }) => values)
        .sort((a, b) => String(a.number).localeCompare(String(b.number)));
    /** The contact list's requests after the upload, as `-v` traces them: their queries. */
    const readsAfterUpload = (stderr: string) =>
      stderr
        .slice(stderr.indexOf('✓ uploaded'))
        .split('\n')
        .flatMap((line) => /^> GET \S+\/contacts\?(\S+)$/.exec(line)?.[1] ?? []);
    const importUndone = async (file: string, created: number, updated: number, env: NodeJS.ProcessEnv = {}) => {
      const before = await workspace();
      const imported = await wsm({ ...backend.env, ...env }, ['contacts', 'import', file, '--wait', '-v']);
      expect(imported.code).toBe(0);
      const shown = (await run('history', 'show', 'last')).stdout;
      expect(shown).toContain(`Plan: ${created} to create, ${updated} to update, 0 unchanged, 0 invalid.`);
      expect(shown).not.toContain('note:');
      const undone = await run('undo', 'last', '--yes');
      expect(undone.stderr).toMatch(
        new RegExp(`✓ undid change \\S+: ${updated} set back, ${created} deleted, 0 created again, 0 failed\\n$`),
      );
      expect(await workspace()).toEqual(before);
      return readsAfterUpload(imported.stderr);
    };

    beforeAll(async () => {
      backend = await kind.start();
      const seeded = await arrange(['contacts', 'import', csv('seed.csv', SEED), '--wait', '-q'], { WSM_HISTORY: 'off' });
      expect(seeded.code).toBe(0);
    });
    afterAll(async () => {
      if (backend) await backend.stop();
    });

    it('new numbers and one on the last page: nothing is read after the import, and undo puts the workspace back', async () => {
      const file = csv('new.csv', 'number,name,email\n14155559001,New A,a@example.com\n+1 415 555 9002,New B,\n14155550249,Updated Old,\n');
      expect(await importUndone(file, 2, 1)).toEqual([]);
    });

    it('numbers on the first and middle pages: nothing is read after the import, and undo puts the workspace back', async () => {
      const file = csv('first.csv', 'number,name\n14155559003,New C\n14155550001,Updated First\n14155550150,Updated Middle\n');
      expect(await importUndone(file, 1, 2, { WSM_CONCURRENCY: '1' })).toEqual([]);
    });
  });
}

describe('the import journal, on the stand-in for the hosted service, with contacts made by someone else while the import runs', () => {
  let standin: Standin;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const run = (args: string[], more: NodeJS.ProcessEnv = {}) => wsm({ ...env, ...more }, args);
  const arrange = (args: string[], more: NodeJS.ProcessEnv = {}) => wsmInProcess({ ...env, ...more }, args);
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const listed = async () =>
    (JSON.parse((await arrange(['contacts', 'list', '--all', '-o', 'json'])).stdout) as Listed[]).sort((a, b) => a.id - b.id);
  /** Once the import is sent and before the stand-in makes its rows (300 ms later), someone else makes these contacts. */
  const meanwhile = (contacts: Array<[string, string]>) => {
    const sent = standin.state.imports.length;
    const watch = setInterval(() => {
      if (standin.state.imports.length === sent) return;
      clearInterval(watch);
      for (const [number, name] of contacts) seedStandinContact(standin, number, name);
    }, 2);
    return () => clearInterval(watch);
  };
  /** The workspace before, and the change shown, of an import of `text` while someone else makes `contact`. */
  const importWhile = async (name: string, text: string, contact: [string, string]) => {
    const before = await listed();
    const stop = meanwhile([contact]);
    const imported = await run(['contacts', 'import', file(name, text), '--wait']);
    stop();
    expect(imported.code).toBe(0);
    return { before, shown: (await run(['history', 'show', 'last'])).stdout };
  };

  beforeAll(async () => {
    standin = await startStandin({ importDelayMs: 300 });
    dir = mkdtempSync(join(tmpdir(), 'wsm-standin-'));
    env = standin.env(dir);
    expect((await arrange(['contacts', 'import', file('seed.csv', SEED), '--wait', '-q'], { WSM_HISTORY: 'off' })).code).toBe(0);
  });
  afterAll(async () => {
    await standin?.close();
    if (dir) cleanup(dir);
  });

  it("a contact whose number is not in the file is not the import's: undo leaves it", async () => {
    const { before, shown } = await importWhile('beside.csv', 'number,name\n14155559202,New F\n', ['14155559201', 'Someone Else']);
    expect(shown).toContain('Plan: 1 to create, 0 to update, 0 unchanged, 0 invalid.');
    expect(shown).not.toContain('14155559201');
    expect((await run(['undo', 'last', '--yes'])).code).toBe(0);
    const after = await listed();
    expect(after.map((contact) => contact.number)).toEqual([...before.map((contact) => contact.number), '14155559201']);
  });

  it('a contact someone else made with a number of the file cannot be told from one the import made: it is recorded as created, and undone', async () => {
    const { before, shown } = await importWhile('same.csv', 'number,name\n14155559301,From The File\n', ['14155559301', 'Made Meanwhile']);
    expect(shown).toMatch(/\+ record 1: create 14155559301\n {4}number: "14155559301"\n {4}name: "From The File"\n/);
    expect((await run(['undo', 'last', '--yes'])).code).toBe(0);
    expect(await listed()).toEqual(before);
  });

  it('on a server that refuses a page of 100, undo reads the pages it takes and puts the workspace back', async () => {
    standin.quirks.perPageMax = 50;
    try {
      const before = await listed();
      const imported = await run([
        'contacts',
        'import',
        file('narrow.csv', 'number,name\n14155559101,New E\n14155550000,Updated Zero\n'),
        '--wait',
      ]);
      expect(imported.code).toBe(0);
      const shown = (await run(['history', 'show', 'last'])).stdout;
      expect(shown).toContain('Plan: 1 to create, 1 to update, 0 unchanged, 0 invalid.');
      const undone = await run(['undo', 'last', '--yes']);
      expect(undone.stderr).toMatch(/✓ undid change \S+: 1 set back, 1 deleted, 0 created again, 0 failed\n$/);
      const values = (contacts: Listed[]) => contacts.map(({ updated_at: _updated, ...rest }) => rest);
      expect(values(await listed())).toEqual(values(before));
    } finally {
      standin.quirks.perPageMax = undefined;
    }
  });
});

describe('the import journal, on wsm serve, with a contact made by someone else while the import runs', () => {
  it("one with a number of the file is recorded as the import's, and the change says that the import's own count is lower", async () => {
    const server = await serveBackend();
    const local = localProfile(server);
    const proxy = await makesContactFirst(new URL(server.url), { number: '14155559401', name: 'Made Meanwhile' });
    try {
      const env = throughProxy(server.env, proxy, local);
      const file = join(server.dir, 'meanwhile.csv');
      writeFileSync(file, 'number,name\n14155559401,From The File\n14155559402,New G\n');
      expect((await wsm(env, ['contacts', 'import', file, '--wait'])).code).toBe(0);
      const shown = (await wsm(env, ['history', 'show', 'last'])).stdout;
      expect(shown).toContain(
        "note: the import says it created 1 contact, and its rows name 2 numbers that had no contact before: 1 of those contacts was made by someone else while it ran (which cannot be told); undo deletes them too, unless their values differ from what the file's rows set\n",
      );
      expect(shown).toMatch(/\+ record 1: create 14155559401\n/);
      const undone = await wsm(env, ['undo', 'last', '--yes']);
      expect(undone.stderr).toMatch(/✓ undid change \S+: 0 set back, 2 deleted, 0 created again, 0 failed\n$/);
      expect(JSON.parse((await wsmInProcess(env, ['contacts', 'list', '--all', '-o', 'json'])).stdout)).toEqual([]);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
      await server.stop();
      cleanup(server.dir);
    }
  });
});
