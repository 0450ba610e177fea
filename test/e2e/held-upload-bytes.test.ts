/**
 * A file with held cells is sent as its own bytes with the held records rewritten in their place,
 * read from disk as they are sent: no copy of the file is written first, so an import goes where
 * the temporary directory cannot be written (a read-only or full disk, TMPDIR naming a file), and
 * the bytes around the held records reach the server as the file has them: a byte order mark, CRLF,
 * CR and LF line ends, a held value spanning two lines, a held last row without a line end. The
 * real binary against `wsm serve` (whose errors name the lines the file has) and the stand-in;
 * read-backs in-process (in-process.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const FILE = [
  '\uFEFFnumber,name,email\r\n',
  '14155550301,"3.51E+12\r\n",ann@example.com\r\n',
  '16505550302,Zoe,zoe@example.com\r',
  '16505550303,Cid,not-an-email\n',
  '16505550304,Dee,dee@example.com\r\n',
  '16505550305,4.2E+5,eve@example.com',
].join('');

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`held cells left out of the file's own bytes against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);

    beforeAll(async () => {
      backend = await kind.start();
    });
    afterAll(async () => {
      await backend?.stop();
    });

    it('imports the other cells and rows as the file has them, with no temporary directory to write', async () => {
      const path = join(backend.dir, 'people.csv');
      writeFileSync(path, FILE);
      const notADirectory = join(backend.dir, 'a-file');
      writeFileSync(notADirectory, '');
      const imported = await wsm({ ...backend.env, TMPDIR: join(notADirectory, 'tmp') }, [
        'contacts',
        'import',
        path,
        '--wait',
        '--interval',
        '0.1s',
      ]);
      expect(imported.stderr).toMatch(/people\.csv row 2, new contact 14155550301: name: .*"3\.51E\+12" is in scientific notation/);
      expect(imported.stderr).toMatch(
        /people\.csv row 6 \(line 7\), new contact 16505550305: name: .*"4\.2E\+5" is in scientific notation/,
      );
      expect(imported.stderr).toContain('2 cells look changed by a spreadsheet and were');
      expect(imported.stderr).toContain(`${path} row 4 (line 5): email: The email field must be a valid email address.`);
      expect(imported.stderr).not.toMatch(/ENOTDIR|mkdtemp/);
      const listed = JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as {
        number: string;
        name: string;
        email: string | null;
      }[];
      const named = new Map(listed.map((contact) => [contact.number, [contact.name === 'Unknown' ? '' : contact.name, contact.email]]));
      expect(Object.fromEntries(named)).toEqual({
        '14155550301': ['', 'ann@example.com'],
        '16505550302': ['Zoe', 'zoe@example.com'],
        '16505550304': ['Dee', 'dee@example.com'],
        '16505550305': ['', 'eve@example.com'],
      });
      if (!backend.extensions) return;
      expect(imported.code, imported.stderr).toBe(8);
      const id = /as import (\d+)/.exec(imported.stderr)![1];
      const errors = await run('imports', 'errors', id, '-o', 'json');
      expect(JSON.parse(errors.stdout).map((error: { row: number; line: number }) => [error.row, error.line])).toEqual([[4, 5]]);
    });
  });
}
