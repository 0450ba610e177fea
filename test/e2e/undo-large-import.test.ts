/**
 * An import into a workspace too large to read whole (WSM_IMPORT_READ_LIMIT=10
 * makes 30 contacts "too large"): its before-images are the contacts found by searching the file's
 * numbers, what it created is predicted from its rows (nothing is searched after --wait), and
 * `wsm undo` (finding them by number) puts the workspace back as it was. A search hit counts only when its number is the row's: a number held
 * inside a longer one, or in a name, is not that contact. Where the server's search does not find
 * numbers, or the file names more numbers than are looked up, the change says so at the time. On
 * `wsm serve` and on the stand-in for the hosted service.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../standin/index.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup, localProfile } from './processes.js';
import { forward } from './forward.js';
import { binaryFirstRunner, wsmInProcess } from './in-process.js';

/** The first run of each command goes to the built binary, every later one in-process (in-process.ts). */
const wsm = binaryFirstRunner();

/** A contact as listed: what the test compares is whatever else it holds. */
type Listed = { id: number; number: string; created_at: string; updated_at: string } & Record<string, unknown>;

interface Target {
  env: NodeJS.ProcessEnv;
  dir: string;
  /** The same server, behind something that makes its contact search useless for numbers (`lags`: only after an import). */
  blindSearch(mode?: 'ignores' | 'lags'): Promise<NodeJS.ProcessEnv>;
  /** Pages of at most 50 from now on, where the server can be told so (a per_page of 100 refused). */
  narrowPages?(): Promise<void>;
  stop(): Promise<void>;
}

const LARGE = { WSM_IMPORT_READ_LIMIT: '10' };
const TOO_LARGE = 'no before-image was taken: the workspace holds over 10 contacts, too many to read before an import, and';

/**
 * A proxy to `upstream` whose contact search is of no use for numbers: `ignores` drops the list's
 * `search` (a server that ignores it answers the whole list); `lags` answers every search made
 * after an import was sent with no contact (a search index that does not show new contacts yet).
 */
async function searchProxy(upstream: URL, mode: 'ignores' | 'lags'): Promise<Server> {
  let importSent = false;
  const proxy = createServer((req, res) => {
    if (req.method === 'POST' && req.url!.includes('/contact-imports')) importSent = true;
    if (mode === 'lags' && importSent && req.method === 'GET' && req.url!.includes('search=')) {
      const meta = { current_page: 1, per_page: 100, total: 0, last_page: 1, from: null, to: null };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [], meta, links: { next: null } }));
      return;
    }
    const path = mode === 'ignores' ? req.url!.replace(/([?&])search=[^&]*&?/, '$1') : req.url!;
    forward(upstream, req, res, path);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return proxy;
}

const TARGETS: Array<{ name: string; blind: string; start(): Promise<Target> }> = [
  {
    name: 'wsm serve',
    blind: "the server's contact search for 14155550110 answered every contact of the workspace",
    async start() {
      const server: Backend = await serveBackend();
      const local = localProfile(server);
      const proxies: Server[] = [];
      return {
        env: server.env,
        dir: server.dir,
        async blindSearch(mode = 'ignores') {
          const proxy = await searchProxy(new URL(server.url), mode);
          proxies.push(proxy);
          const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v3`;
          return { ...server.env, WSM_BASE_URL: url, WSM_TOKEN: local.token, WSM_WORKSPACE: local.workspace };
        },
        async stop() {
          for (const proxy of proxies) await new Promise((resolve) => proxy.close(resolve));
          await server.stop();
          cleanup(server.dir);
        },
      };
    },
  },
  {
    name: 'the stand-in for the hosted service',
    blind: "the server's contact search did not find contact 4 by its number 14155550110",
    async start() {
      const standin: Standin = await startStandin({ importDelayMs: 50 });
      const dir = mkdtempSync(join(tmpdir(), 'wsm-standin-'));
      return {
        env: standin.env(dir),
        dir,
        async blindSearch() {
          standin.quirks.searchSkipsNumbers = true;
          return standin.env(dir);
        },
        async narrowPages() {
          standin.quirks.perPageMax = 50;
        },
        async stop() {
          await standin.close();
          cleanup(dir);
        },
      };
    },
  },
];

for (const kind of TARGETS) {
  describe(`an import into a workspace too large to read, undone, on ${kind.name}`, () => {
    let target: Target;
    const run = (args: string[], env: NodeJS.ProcessEnv = {}) => wsm({ ...target.env, ...env }, args);
    // Seeding and reads of the workspace: in-process.
    const arrange = (args: string[]) => wsmInProcess(target.env, args);
    const csv = (name: string, text: string) => {
      const file = join(target.dir, name);
      writeFileSync(file, text);
      return file;
    };
    /** Every contact with every value the server shows, but for what it makes itself (id, times): the workspace to compare. */
    const workspace = async () =>
      (JSON.parse((await arrange(['contacts', 'list', '--all', '-o', 'json'])).stdout) as Listed[])
        .map(({ id: _id, created_at: _created, updated_at: _updated, ...values }) => values)
        .sort((a, b) => String(a.number).localeCompare(String(b.number)));
    const shown = async () => (await run(['history', 'show', 'last'])).stdout;

    beforeAll(async () => {
      target = await kind.start();
      // 30 contacts; one's name holds a number the file will create, so a search for it finds that name.
      const rows = Array.from({ length: 30 }, (_, i) => `141555501${10 + i},Person ${10 + i}`);
      rows[29] = '14155550139,Ticket 14155550901';
      expect((await arrange(['contacts', 'import', csv('seed.csv', `number,name\n${rows.join('\n')}\n`), '--wait', '-q'])).code).toBe(0);
    });
    afterAll(async () => {
      if (target) await target.stop();
    });

    for (const strict of [false, true]) {
      it(`updates found and creates made are recorded by number${strict ? ' (--strict: the rows planned first)' : ''}, and undo puts the workspace back`, async () => {
        const before = await workspace();
        const file = csv(
          'import.csv',
          // 4155550110 is inside 14155550110, 14155550901 inside a name: both are new contacts.
          'number,name\n14155550110,Changed Ten\n+1 (415) 555-0111,Changed Eleven\n4155550110,Inside Ten\n14155550901,New Ticket\n',
        );
        const imported = await run(['contacts', 'import', file, '--wait', ...(strict ? ['--strict'] : [])], LARGE);
        expect(imported.stderr).toContain(
          'the workspace holds over 10 contacts: the rows were compared with the contacts of their 4 numbers, each looked up by itself\n',
        );
        expect(imported.code).toBe(0);
        expect((await workspace()).length).toBe(32);
        const change = await shown();
        expect(change).not.toContain(TOO_LARGE);
        expect(change).toMatch(/~ record 1: update contact \d+ \(14155550110\)\n {4}name: "Person 10" -> /);
        expect(change).toMatch(/~ record 2: update contact \d+ \(14155550111\)\n {4}name: "Person 11" -> /);
        expect(change).toMatch(/\+ record 3: create 4155550110\n {4}number: "4155550110"\n {4}name: "Inside Ten"\n/);
        expect(change).toMatch(/\+ record 4: create 14155550901\n {4}number: "14155550901"\n {4}name: "New Ticket"\n/);
        expect(change).toContain('Plan: 2 to create, 2 to update, 0 unchanged, 0 invalid.');
        // The undo finds the change's contacts by number too, never walking the whole list.
        const traced = (await run(['undo', 'last', '--dry-run', '-v'], LARGE)).stderr;
        const listed = traced.match(/^> GET \S+\/contacts\?\S*$/gm)!.map((line) => line.replace(/^.*\/contacts/, ''));
        expect(listed).toContain('?search=4155550110&per_page=100&page=1');
        expect(listed.filter((query) => !query.includes('search=') && query !== '?per_page=1')).toEqual([]);
        const undone = await run(['undo', 'last', '--yes'], LARGE);
        expect(undone.stderr).toMatch(/^✓ undid change \S+: 2 set back, 2 deleted, 0 created again, 0 failed\n$/);
        expect(undone.code).toBe(0);
        expect(await workspace()).toEqual(before);
      });
    }

    it('a file naming more numbers than are looked up takes no before-image, and its change says so at the time', async () => {
      const file = csv('over.csv', 'number,name\n14155550112,Over Twelve\n14155550113,Over Thirteen\n14155550902,Over New\n');
      const imported = await run(['contacts', 'import', file, '--wait'], { ...LARGE, WSM_IMPORT_LOOKUP_LIMIT: '2' });
      expect(imported.code).toBe(0);
      expect(await shown()).toContain(
        `  note: ${TOO_LARGE} the file names over 2 numbers, more than are looked up one by one (WSM_IMPORT_LOOKUP_LIMIT); undo leaves the import's contacts as they are\n`,
      );
      const refused = await run(['contacts', 'import', file, '--wait'], { ...LARGE, WSM_IMPORT_LOOKUP_LIMIT: 'many' });
      expect(refused.stderr).toBe('error: WSM_IMPORT_LOOKUP_LIMIT must be a whole number from 0 to 100,000, got "many"\n');
      expect(refused.code).toBe(2);
      const unread = await run(['contacts', 'import', file, '--wait'], { WSM_IMPORT_READ_LIMIT: '-1' });
      expect(unread.stderr).toBe('error: WSM_IMPORT_READ_LIMIT must be a whole number from 0 to 100,000, got "-1"\n');
      expect(unread.code).toBe(2);
      expect((await shown()).split('\n')[1]).toBe(`  wsm contacts import ${file} --wait`);
    });

    it('looking up no number, its warnings name a row by its number, not as a new contact: the contact may be stored', async () => {
      const file = csv('held.csv', 'number,name\n14155550116,1.23457E+16\n14155550117,Person 27\n14155550117,Person 27\n');
      const unread = { ...LARGE, WSM_IMPORT_LOOKUP_LIMIT: '0' };
      const imported = await run(['contacts', 'import', file, '--wait'], unread);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toContain(
        `warning: ${file} row 2, contact with number 14155550116: name: "1.23457E+16" left out: "1.23457E+16" is in scientific notation`,
      );
      expect(imported.stderr).toContain(`warning: ${file} rows 3, 4, contact with number 14155550117: the rows name one contact`);
      expect(imported.stderr).not.toContain('new contact');
      // --strict plans the whole file before the upload, and says it the same way.
      const strict = await run(['contacts', 'import', csv('strict.csv', 'number,name\n14155550116,1.23457E+16\n'), '--strict'], unread);
      expect(strict.code, strict.stderr).toBe(0);
      expect(strict.stderr).toContain('row 2, contact with number 14155550116: name: "1.23457E+16" left out');
      const stored = JSON.parse((await arrange(['contacts', 'list', '--search', '14155550116', '-o', 'json'])).stdout) as Listed[];
      expect(stored.map((contact) => contact.name)).toEqual(['Person 16']);
    });

    it('a number whose search gives 300 other contacts is left unknown: no record for it, said at the time', async () => {
      // 301 contacts whose names hold 14155550950; on the stand-in, pages of at most 50.
      const crowd = Array.from({ length: 301 }, (_, i) => `${1_999_000_000 + i},Caller of 14155550950 no ${i}`);
      expect((await arrange(['contacts', 'import', csv('crowd.csv', `number,name\n${crowd.join('\n')}\n`), '--wait', '-q'])).code).toBe(0);
      await target.narrowPages?.();
      const file = csv('crowded.csv', 'number,name\n14155550950,Crowded\n14155550115,Fifteen\n');
      expect((await run(['contacts', 'import', file, '--wait'], LARGE)).code).toBe(0);
      const change = await shown();
      expect(change).toContain(
        "  note: 1 of the file's numbers could not be looked up (a search failed or gave too many other contacts): no before-image was taken for them, and undo leaves their contacts as they are\n",
      );
      expect(change).toMatch(/~ record 1: update contact \d+ \(14155550115\)\n/);
      expect(change).not.toContain('14155550950');
    });

    if (kind.name === 'wsm serve')
      it('a search that does not show new contacts yet: nothing is searched after the import, its rows say what it created', async () => {
        const env = { ...(await target.blindSearch('lags')), ...LARGE };
        const file = csv('lagging.csv', 'number,name\n14155550116,Lag Sixteen\n14155550960,Lag New\n14155550961,Lag Newer\n');
        const imported = await wsm(env, ['contacts', 'import', file, '--wait', '-v']);
        expect(imported.code).toBe(0);
        expect(imported.stderr.slice(imported.stderr.indexOf('✓ uploaded'))).not.toMatch(/^> GET \S+\/contacts\?/m);
        const change = (await wsm(env, ['history', 'show', 'last'])).stdout;
        expect(change).not.toContain('note:');
        expect(change).toMatch(/~ record 1: update contact \d+ \(14155550116\)\n {4}name: "Person 16" -> "Lag Sixteen"\n/);
        expect(change).toMatch(/\+ record 2: create 14155550960\n {4}number: "14155550960"\n {4}name: "Lag New"\n/);
        expect(change).toContain('Plan: 2 to create, 1 to update, 0 unchanged, 0 invalid.');
      });

    it('a server whose search does not find contacts by number: no before-image, said at the time, and undo leaves the contacts', async () => {
      const env = { ...(await target.blindSearch()), ...LARGE };
      const file = csv('blind.csv', 'number,name\n14155550114,Blind Fourteen\n14155550903,Blind New\n');
      expect((await wsm(env, ['contacts', 'import', file, '--wait'])).code).toBe(0);
      const change = (await wsm(env, ['history', 'show', 'last'])).stdout;
      expect(change).toContain(
        `  note: ${TOO_LARGE} ${kind.blind}, so the file's contacts cannot be found by their numbers; undo leaves the import's contacts as they are\n`,
      );
      expect(change).not.toContain('record');
    });
  });
}
