/**
 * An import that ran from its plan ends in the plan's categories: contacts created, updated and
 * unchanged, rows left out (their changes look made by a spreadsheet) and rows failed, out of the
 * distinct contacts the rows name, on a terminal as it finishes and in -o json's `summary`; without
 * --wait, as expected. The server counts every row it applied as updated (wsm serve) or nothing at
 * all (the published API, here its stand-in): the real binary on both, on a terminal. Set-up and
 * the runs whose stdout, stderr and exit code are read from pipes run in-process (in-process.ts).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeExcelLike } from '../formats/xlsx/excel-like.js';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { makesContactFirst, throughProxy } from './forward.js';
import { wsmInProcess } from './in-process.js';
import { loginWithRole } from './processes.js';
import { finalScreen, onTerminal } from './terminal.js';

const COLUMNS = 240;

/**
 * `wsm contacts import <args>` on a terminal, in the backend's folder (stdout to a file): its exit
 * code and the lines saying what the import did or is expected to do, and where the server disagrees.
 */
async function importOnScreen(backend: Backend, args: string[], env = backend.env) {
  const shown = await onTerminal(env, ['contacts', 'import', ...args], { columns: COLUMNS, cwd: backend.dir, redirect: '> out.txt' });
  const lines = await finalScreen(shown.raw, COLUMNS);
  return { code: shown.code, lines: lines.filter((line) => /^(Import \d+ |warning: import \d+: the server counts)/.test(line)) };
}

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The line of a finished import, whatever its id, saying `counts`. */
const completed = (counts: string) => expect.stringMatching(new RegExp(`^Import \\d+ completed: ${literally(counts)}\\.$`));

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`an import's finished summary in its plan's categories, against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const file = (name: string, text: string) => backendFile(backend, name, text);

    beforeAll(async () => {
      backend = await kind.start();
      const seed = file(
        'seed.csv',
        'number,name,email\n16505551001,Ann,ann@example.com\n16505551002,Bob,bob@example.com\n16505551003,Cy,\n16505551004,Dee,\n',
      );
      expect((await run('contacts', 'import', seed, '--wait', '-q')).code).toBe(0);
    });
    afterAll(async () => {
      await backend?.stop();
    });

    const heldRows =
      'number,name,email\n16505551001,Ann,ann@example.com\n16505551002,Bobby,bob@example.com\n16505551003,3.51E+12,\n16505551004,4.2E+11,\n';

    it('1 update, 1 unchanged and 2 rows whose one change is held: said so, not "4 updated"; the counters agree', async () => {
      file('held.csv', heldRows);
      expect(await importOnScreen(backend, ['held.csv', '--wait'])).toEqual({
        code: 0,
        lines: [completed('1 updated, 1 unchanged, 2 rows left out (cells a spreadsheet changed), 0 rows failed; 2 contacts from 4 rows')],
      });
    });

    it('--strict plans the whole file before the upload: the same categories', async () => {
      file('strict.csv', 'number,name\n16505551001,Ann\n16505551031,Lea\n16505551003,3.51E+12\n');
      expect(await importOnScreen(backend, ['strict.csv', '--strict', '--wait'])).toEqual({
        code: 0,
        lines: [completed('1 created, 1 unchanged, 1 row left out (cells a spreadsheet changed), 0 rows failed; 2 contacts from 3 rows')],
      });
    });

    it('a file that can hold nothing, planned while the server works: a number on two rows is one contact', async () => {
      file('plain.csv', 'number,name\n16505551071,Pia\n+1 (650) 555-1071,Pia Two\n16505551001,Ann\n');
      expect(await importOnScreen(backend, ['plain.csv', '--wait'])).toEqual({
        code: 0,
        lines: [completed('1 created, 1 unchanged, 0 rows left out, 0 rows failed; 2 contacts from 3 rows')],
      });
    });

    it("--group: a stored contact it joins is updated, where the server shows a contact's groups", async () => {
      const group = await run('groups', 'create', 'Club', '-q');
      expect(group.code, group.stderr).toBe(0);
      file('joined.csv', 'number,name\n16505551001,Ann\n16505551061,Ola\n');
      // The published API shows no contact's groups: whether its import joined one is not known, so no change is counted.
      const ann = backend.extensions ? '1 updated, 0 unchanged' : '1 unchanged';
      expect(await importOnScreen(backend, ['joined.csv', '--group', group.stdout.trim(), '--wait'])).toEqual({
        code: 0,
        lines: [completed(`1 created, ${ann}, 0 rows left out, 0 rows failed; 2 contacts from 2 rows`)],
      });
    });

    it('an .xlsx row not sent (a cell holding an error) is failed, the sheet rows counted', async () => {
      await writeExcelLike(join(backend.dir, 'sheet.xlsx'), [
        {
          name: 'People',
          rows: {
            1: ['number', 'name'],
            2: [{ number: 16505551001 }, 'Ann'],
            3: [{ number: 16505551051 }, 'Ned'],
            4: [{ number: 16505551052 }, { error: '#N/A' }],
          },
        },
      ]);
      expect(await importOnScreen(backend, ['sheet.xlsx', '--wait'])).toEqual({
        code: 8,
        lines: [completed('1 created, 1 unchanged, 0 rows left out, 1 row failed; 2 contacts from 3 rows')],
      });
    });

    it('-o json keeps the server record and adds the summary; new, repeated and invalid rows are counted once each', async () => {
      const csv = file(
        'mixed.csv',
        'number,name\n16505551011,Eve\n+1 650 555 1011,Eve Two\nnot a number,Nobody\n16505551012,Fay\n016505551013,Gus\n16505551013,Gus Unpadded\n',
      );
      const json = await run('contacts', 'import', csv, '--wait', '-o', 'json');
      // The invalid row failed on both: wsm serve counts it, the published API counts nothing but skipped it all the same.
      expect(json.code).toBe(8);
      const record = JSON.parse(json.stdout);
      expect(record).toMatchObject({ status: 'completed', name: 'mixed.csv' });
      if (backend.extensions) expect(record).toMatchObject({ created_count: 3, updated_count: 1, failed_count: 1 });
      expect(record.summary).toEqual({ created: 3, updated: 0, unchanged: 0, left_out: 1, failed: 1, contacts: 3, rows: 6 });
    });

    it('a row the plan found invalid fails the job (exit 8) unless --max-failures tolerates it, with or without server counters', async () => {
      const csv = file('bad-email.csv', 'number,name,email\n16505551021,Hal,not-an-email\n16505551022,Ida,\n');
      const failing = await run('contacts', 'import', csv, '--wait');
      expect(failing.code).toBe(8);
      expect(failing.stderr).toMatch(/^error: import \d+: 1 of 2 rows failed \(/m);
      const tolerated = await run('contacts', 'import', csv, '--wait', '--max-failures', '1');
      expect(tolerated.code).toBe(0);
      expect(tolerated.stderr).toMatch(/^warning: import \d+: 1 of 2 rows failed \(.*\) \(tolerated: --max-failures 1\)$/m);
    });

    // Last: the import it starts is not waited for.
    it('without --wait the plan says what it expects of the import', async () => {
      file('again.csv', heldRows.replace('Bobby', 'Robert'));
      const { code, lines } = await importOnScreen(backend, ['again.csv']);
      expect({ code, lines }).toEqual({
        code: 0,
        lines: [
          expect.stringMatching(
            /^Import (\d+) expected: 1 updated, 1 unchanged, 2 rows left out \(cells a spreadsheet changed\), 0 rows failed; 2 contacts from 4 rows \(`wsm imports get \1 --wait` reports what it did\)\.$/,
          ),
        ],
      });
    });
  });
}

describe('an import on wsm serve whose server does otherwise than planned', () => {
  let backend: Backend;
  const file = (name: string, text: string) => backendFile(backend, name, text);

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('a valid row the server refuses moves its contact out of created into failed', async () => {
    // Dee may import contacts but not create groups: the server refuses a row naming a group the workspace lacks.
    await loginWithRole((args, input) => wsmInProcess(backend.env, args, input), backend.url, 'Importer', [
      'contacts.view',
      'contacts.create',
      'contacts.update',
      'contact_imports.view',
      'contact_imports.create',
      'contact_groups.view',
    ]);
    const dee = { ...backend.env, WSM_PROFILE: 'dee', WSM_WORKSPACE: backend.workspace };
    file('groups.csv', 'number,name,contact_groups\n16505552001,Ida,\n16505552002,Jo,"[""VIP""]"\n');
    expect(await importOnScreen(backend, ['groups.csv', '--wait'], dee)).toEqual({
      code: 8,
      lines: [completed('1 created, 0 unchanged, 0 rows left out, 1 row failed; 2 contacts from 2 rows')],
    });
  });

  it("counters that disagree with the plan are said in one line, the server's figures in it", async () => {
    // Someone else makes a contact with one of the file's numbers after the plan read the workspace.
    const proxy = await makesContactFirst(new URL(backend.url), { number: '16505553001', name: 'Made Meanwhile' });
    try {
      const env = throughProxy(backend.env, proxy, backend);
      file('meanwhile.csv', 'number,name\n16505553001,From The File\n16505553002,Kim\n');
      expect(await importOnScreen(backend, ['meanwhile.csv', '--wait'], env)).toEqual({
        code: 0,
        lines: [
          completed('2 created, 0 unchanged, 0 rows left out, 0 rows failed; 2 contacts from 2 rows'),
          expect.stringMatching(
            new RegExp(
              `^warning: import \\d+: ${literally('the server counts 1 created, 1 updated, 0 failed where the plan expects 2 created, 0 updated, 0 failed of the rows sent: some rows were not applied as planned')}$`,
            ),
          ),
        ],
      });
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
