/**
 * Plan = apply for import files wsm reads but the published API does not read as it does: semicolon-
 * and tab-separated, UTF-16 with its BOM, and an export whose `'` guards a formula-like value. The
 * dry run's contacts are the contacts stored after the real run, and the rows that fail are named
 * by the user's file's own lines, against `wsm serve` and the stand-in. The imports run in-process
 * (in-process.ts: the binary's entry point, its bytes and exit code); the built binary runs the one
 * command, `contacts import`, on each backend (the bad rows' import with --rejects).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import type { Stored } from './plan-property.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const EXPORT_HEADER = 'id,number,name,email,gender,status,contact_groups,created_at,updated_at';

/** The files, each creating one contact and updating the one made before it, as their bytes. */
const FILES: Array<{ name: string; bytes: (n: string) => Buffer; notice: string }> = [
  {
    name: 'semicolon.csv',
    bytes: (n) => Buffer.from(`number;name;email\n1415555${n}01;Ann, Semi;ann@example.com\n1415555${n}00;Old Updated;\n`),
    notice: 'semicolon-separated',
  },
  {
    name: 'tab.tsv',
    bytes: (n) => Buffer.from(`number\tname\temail\r\n1415555${n}01\t"Tab ""T"" Ann"\ttab@example.com\r\n1415555${n}00\tOld Updated\t\r\n`),
    notice: 'tab-separated',
  },
  {
    name: 'utf16.txt',
    bytes: (n) =>
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from(`number,name,email\r\n1415555${n}01,Zoë Ünicode,zoe@example.com\r\n1415555${n}00,Old Updated,\r\n`, 'utf16le'),
      ]),
    notice: 'UTF-16',
  },
  {
    name: 'export.csv',
    bytes: (n) => Buffer.from(`${EXPORT_HEADER}\n,1415555${n}01,'=1+1,,,,[],,\n,1415555${n}00,'@Old Updated,,,,[],,\n`),
    notice: 'wsm contacts export',
  },
];

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`import files in other formats, planned as applied, against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const arrange = run;
    const listed = async () => JSON.parse((await arrange('contacts', 'list', '--all', '-o', 'json')).stdout) as Stored[];

    beforeAll(async () => {
      backend = await kind.start();
    });
    afterAll(async () => {
      await backend?.stop();
    });

    FILES.forEach((format, index) => {
      it(`${format.name}: the dry run's contacts are the stored contacts after the real run`, async () => {
        const n = String(10 + index);
        const made = await arrange('contacts', 'create', '--number', `1415555${n}00`, '--name', 'Old', '--email', 'old@example.com');
        expect(made.code, made.stderr).toBe(0);
        const path = join(backend.dir, format.name);
        writeFileSync(path, format.bytes(n));
        const dry = await run('contacts', 'import', path, '--dry-run', '-o', 'json');
        expect(dry.code, dry.stderr).toBe(0);
        expect(dry.stderr).toContain(format.notice);
        const planned = (JSON.parse(dry.stdout).contacts as Array<{ number: string; after: Partial<Stored> }>).map(({ number, after }) => [
          number,
          after.name,
          after.email,
        ]);
        expect(planned).toHaveLength(2);
        const real = await run('contacts', 'import', path, '--wait', '-q');
        expect([real.code, real.stderr]).toEqual([0, '']);
        const stored = (await listed())
          .filter((contact) => contact.number.startsWith(`1415555${n}`))
          .map((contact) => [contact.number, contact.name, contact.email]);
        expect(stored.sort()).toEqual(planned.sort());
      });
    });

    it('a Windows-1252 file with an accented name is refused by the plan and the run alike, naming the line: nothing is guessed or stored', async () => {
      const path = join(backend.dir, 'cp1252.csv');
      writeFileSync(path, Buffer.from('number,name\n14155559700,Ren\xe9\n', 'latin1'));
      const dry = await run('contacts', 'import', path, '--dry-run');
      const real = await run('contacts', 'import', path, '--wait');
      expect([dry.code, real.code]).toEqual([2, 2]);
      expect(real.stderr).toBe(dry.stderr);
      expect(real.stderr).toContain('line 2 is not UTF-8 (byte 0xE9, "é" in Windows-1252: the file looks like Windows-1252)');
      expect((await listed()).filter((c) => c.number === '14155559700')).toEqual([]);
    });

    it('a semicolon file with a cell the plan holds: the cell is left out, the rest of its row goes in, as planned', async () => {
      const made = await arrange('contacts', 'create', '--number', '14155559800', '--name', 'Kept', '--email', 'kept@example.com');
      expect(made.code, made.stderr).toBe(0);
      const path = join(backend.dir, 'held.csv');
      writeFileSync(path, 'number;name;email\n14155559800;3.51E+12;new@example.com\n');
      const dry = await run('contacts', 'import', path, '--dry-run', '-o', 'json');
      const [planned] = JSON.parse(dry.stdout).contacts;
      expect([planned.after.name, planned.after.email, Object.keys(planned.held)]).toEqual(['Kept', 'new@example.com', ['name']]);
      const real = await run('contacts', 'import', path, '--wait', '-q');
      expect(real.code, real.stderr).toBe(0);
      expect(real.stderr).toContain('1 cell looks changed by a spreadsheet and was kept as stored');
      const stored = (await listed()).filter((c) => c.number === '14155559800').map((c) => [c.name, c.email]);
      expect(stored).toEqual([[planned.after.name, planned.after.email]]);
    });

    it('a semicolon file with a blank, a bad and an unreadable row after a value on two lines: the rows failed are named by their own lines', async () => {
      const path = join(backend.dir, 'bad-rows.csv');
      writeFileSync(
        path,
        'number;name;email\n14155559901;"Two\nLines";two@example.com\n;;\n14155559902;Bad;not-an-email\n14155559904;Str"ay;\n14155559903;Fine;\n',
      );
      const rejects = join(backend.dir, 'rejects.csv');
      const dry = await run('contacts', 'import', path, '--dry-run', '--rejects', rejects, '-q');
      expect(dry.code, dry.stderr).toBe(8);
      const planned = readFileSync(rejects, 'utf8');
      expect(planned).toBe(
        'number;name;email;import_error;import_line\n' +
          '14155559902;Bad;not-an-email;The email field must be a valid email address.;5\n' +
          ';;;The row has a quote inside a value that does not start with one.;6\n',
      );
      const real = await wsm(backend.env, ['contacts', 'import', path, '--wait', '--rejects', rejects, '-q']);
      // wsm serve names each failed row by the line the copy sent has it on: the file's own. The published API lists
      // no errors of an import, so the rows the local check found invalid are written, and failed all the same (exit 8).
      expect(real.code, real.stderr).toBe(8);
      expect(real.stderr).toContain(kind === BACKENDS[0] ? '2 of 4 rows failed' : 'none of import');
      expect(readFileSync(rejects, 'utf8')).toBe(planned);
      expect(
        (await listed())
          .filter((c) => c.number.startsWith('141555599'))
          .map((c) => c.name)
          .sort(),
      ).toEqual(['Fine', 'Two\nLines']);
    });
  });
}
