/**
 * A held cell that spans lines: a spreadsheet's quoted value such as `"1E+5⏎"` is read trimmed
 * (`1E+5`, scientific notation) and held, and the upload leaves it out. The rows after it must
 * stay on the file's lines, so that the server's errors, `imports errors` and `--rejects` name the
 * lines the operator's file has, and the failed row is written back. The real binary against
 * `wsm serve` (which lists every error) and the stand-in of the published API (its end state);
 * set-up and read-backs in-process (in-process.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const FILE =
  'number,name,email\n14155550301,"1E+5\n",ann@example.com\n16505550302,Zoe,not-an-email\n16505550303,"Two\nlines",cid@example.com\n';

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`a held cell over two lines against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);

    beforeAll(async () => {
      backend = await kind.start();
      const created = await run('contacts', 'create', '--number', '14155550301', '--name', 'Ann');
      expect(created.code, created.stderr).toBe(0);
    });
    afterAll(async () => {
      await backend?.stop();
    });

    it('keeps the rows after it on their lines: the stored name kept, the other rows as planned', async () => {
      const path = join(backend.dir, 'people.csv');
      writeFileSync(path, FILE);
      const rejects = join(backend.dir, 'fix.csv');
      const args = ['contacts', 'import', path, '--wait', '--interval', '0.1s'];
      const imported = await wsm(backend.env, [...args, ...(backend.extensions ? ['--rejects', rejects] : [])]);
      expect(imported.stderr).toMatch(/people\.csv row 2, contact \d+: name: "Ann" kept, not "1E\+5"/);
      expect(imported.stderr).toContain(`${path} row 3 (line 4): email: The email field must be a valid email address.`);
      const listed = JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as {
        number: string;
        name: string;
        email: string | null;
      }[];
      const inFile = listed.filter((contact) => FILE.includes(contact.number));
      expect(inFile.map((contact) => [contact.number, contact.name, contact.email])).toEqual([
        ['14155550301', 'Ann', 'ann@example.com'],
        ['16505550303', 'Two\nlines', 'cid@example.com'],
      ]);
      if (!backend.extensions) return;
      expect(imported.code, imported.stderr).toBe(8);
      const id = /as import (\d+)/.exec(imported.stderr)![1];
      const errors = await run('imports', 'errors', id, '-o', 'json');
      expect(JSON.parse(errors.stdout).map((error: { row: number; line: number }) => [error.row, error.line])).toEqual([[3, 4]]);
      expect(readFileSync(rejects, 'utf8')).toBe(
        'number,name,email,import_error,import_line\n16505550302,Zoe,not-an-email,The email field must be a valid email address.,4\n',
      );
    });
  });
}
