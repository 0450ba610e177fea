/**
 * Quotes the stand-in of the published API reads otherwise than wsm. A quote that opens a value and
 * never closes: wsm's reader costs that row its own line; the stand-in reads RFC 4180 to the letter
 * and takes every line after it into that value, so the rows the plan shows as created would never
 * exist. A quote inside a value not quoted whole (`Ann "Lee" Smith`, `"Ann" Lee`, `Ann ""Lee""`),
 * the quotes even in number: wsm's reader fails the row alone; the stand-in toggles on quotes and
 * creates "Ann Lee Smith". On a server whose reading of a file is not known (the stand-in, wsm serve
 * --api-only) such a file is refused before anything is sent, in the dry run as in the run (its
 * other cases on the stand-in alone); on wsm serve the row alone fails, as its plan says. A file
 * whose quotes all stand around whole values (doubled inside them, over several lines) goes as
 * before, and the stand-in creates what the plan shows. The real binary runs each command first on
 * every backend, later runs of it are in-process (binaryFirstRunner).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { binaryFirstRunner } from './in-process.js';
import { testEnv } from './processes.js';

const MAX_NED_OLI = 'number,name\n+351920000051,"Max\n+351920000052,Ned\n+351920000053,Oli\n';
const ANN_LEE = 'number,name\n+351920000061,Ann "Lee" Smith\n+351920000062,Bob\n';

/** The one line a refused file gets: the line where the quote opens, and why nothing was sent. */
const refusal = (file: string, where: string) =>
  `error: ${file} ${where}: a quote opens a value and never closes: nothing was sent, since how this server reads the rest of the file is not known (a reader that follows RFC 4180 takes every line after it into that value); close the quote, or double it ("") where it is part of the text, then import again\n`;

/** The one line a file with a misplaced quote gets: where it stands, why nothing was sent, and how to quote the value. */
const misplaced = (file: string, where: string) =>
  `error: ${file} ${where}: a quote stands inside a value that is not quoted whole: nothing was sent, since how this server reads such a value is not known (wsm reads the row as failed; a reader that follows RFC 4180 may take it with the quotes left out); quote the whole value and double each quote inside it ("Ann ""Lee"" Smith"), then import again\n`;

interface Listed {
  number: string;
  name: string;
}

for (const kind of [BACKENDS[2], BACKENDS[1]]) {
  describe(`quotes read otherwise by a strict reader, against ${kind.name}`, () => {
    let backend: Backend;
    const firstOnBinary = binaryFirstRunner();
    const run = (...args: string[]) => firstOnBinary(backend.env, args);
    const listed = async (what: 'contacts' | 'imports') => JSON.parse((await run(what, 'list', '-o', 'json')).stdout) as unknown[];

    beforeAll(async () => {
      backend = await kind.start();
    });
    afterAll(async () => {
      if (backend !== undefined) expect(await backend.stop()).toBe(0);
    });

    for (const [what, name, text, line] of [
      ['a quote that never closes', 'people.csv', MAX_NED_OLI, refusal],
      ['a quote inside a value not quoted whole, the quotes even in number', 'ann-lee.csv', ANN_LEE, misplaced],
    ] as const)
      it(`${what} is refused before anything is sent, naming the line: the dry run and the run alike`, async () => {
        const file = backendFile(backend, name, text);
        for (const args of [['--dry-run'], ['--wait', '--interval', '0.05s'], ['--apply-flagged']]) {
          const result = await run('contacts', 'import', file, ...args);
          expect({ code: result.code, stderr: result.stderr, stdout: result.stdout }).toEqual({
            code: 2,
            stderr: line(file, 'line 2'),
            stdout: '',
          });
        }
        // With -o json the refusal is the one document on stdout, as any error's.
        const json = await run('contacts', 'import', file, '--dry-run', '-o', 'json');
        expect([json.code, JSON.parse(json.stdout)]).toEqual([2, { error: { message: line(file, 'line 2').slice(7, -1), exit_code: 2 } }]);
        const created = await run('imports', 'create', file);
        expect([created.code, created.stderr]).toEqual([2, line(file, 'line 2')]);
        expect(await listed('contacts')).toEqual([]);
        expect(await listed('imports')).toEqual([]);
      });

    // The rest once, on the stand-in: the refusal does not depend on which server lacks the extensions.
    if (kind !== BACKENDS[2]) return;

    it('two quotes that open and do not close (even in number) are refused too, at the one wsm reads as never closed', async () => {
      const file = backendFile(
        backend,
        'two.csv',
        'number,name\n+351920000061,"Max\n+351920000062,Ned\n+351920000063,"Oli\n+351920000064,Pia\n',
      );
      const result = await run('contacts', 'import', file, '--wait', '--interval', '0.05s');
      expect([result.code, result.stderr]).toEqual([2, refusal(file, 'line 4')]);
      expect(await listed('contacts')).toEqual([]);
    });

    it('a stray quote inside a value, the only one of the file, is refused: a reader of RFC 4180 never leaves it', async () => {
      const file = backendFile(backend, 'stray.csv', 'number,name\n+351920000071,Ma"x\n+351920000072,Ned\n');
      const result = await run('contacts', 'import', file, '--dry-run');
      expect([result.code, result.stderr]).toEqual([2, refusal(file, 'line 2')]);
    });

    it('a file whose quotes all close, over several lines too, is sent as before', async () => {
      const file = backendFile(
        backend,
        'closed.csv',
        'number,name,city\n+351920000081,"Smith, J","Porto\nNorte"\n+351920000082,"Ann ""A""",\n+351920000083,Oli,","\n',
      );
      const result = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '-o', 'json');
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).summary).toMatchObject({ created: 3, failed: 0 });
      const names = (await listed('contacts')).map((contact) => (contact as { name: string }).name).sort();
      expect(names).toEqual(['Ann "A"', 'Oli', 'Smith, J']);
    });

    it('text after a closing quote and a doubled quote in an unquoted value are refused too, the first line named and the others counted', async () => {
      const file = backendFile(
        backend,
        'three.csv',
        'number,name\n+351920000071,"Ann" Lee\n+351920000072,Bob\n+351920000073,Cy ""C""\n+351920000074,Di "D" E\n',
      );
      const imports = await listed('imports');
      const result = await run('contacts', 'import', file, '--wait', '--interval', '0.05s');
      expect([result.code, result.stderr, result.stdout]).toEqual([2, misplaced(file, 'line 2 (and 2 more lines)'), '']);
      expect(await listed('imports')).toEqual(imports);
    });

    it('a hostile file of 200,000 rows each with a misplaced quote: one line names the first and counts the rest', async () => {
      const rows = Array.from({ length: 200_000 }, (_, i) => `+3519${String(i).padStart(8, '0')},a"b\n`).join('');
      const file = backendFile(backend, 'hostile.csv', `number,name\n${rows}`);
      const result = await run('contacts', 'import', file, '--dry-run');
      expect([result.code, result.stderr, result.stdout]).toEqual([2, misplaced(file, 'line 2 (and 199,999 more lines)'), '']);
    });

    it('a dry run without a login, which has no server to ask, refuses it too', async () => {
      const file = backendFile(backend, 'no-login.csv', ANN_LEE);
      const result = await firstOnBinary(testEnv(join(backend.dir, 'no-login')), ['contacts', 'import', file, '--dry-run']);
      expect([result.code, result.stderr, result.stdout]).toEqual([2, misplaced(file, 'line 2'), '']);
    });

    it('quotes around whole values, doubled inside them and over several lines: the stand-in creates what the plan shows', async () => {
      const file = backendFile(
        backend,
        'quoted.csv',
        'number,name,note\n+351920000091,"Ann ""Lee"" Smith","a\nb"\r\n+351920000092,"Smith, K",\n+351920000093,"""Oli""","x,\r\n""y"""\n+351920000094,Pia,""\n',
      );
      const dry = await run('contacts', 'import', file, '--dry-run', '-o', 'json');
      expect(dry.code, dry.stderr).toBe(0);
      const plan = JSON.parse(dry.stdout) as { contacts: { action: string; number: string; after: { name: string } }[] };
      const planned = plan.contacts.map((contact) => ({ action: contact.action, number: contact.number, name: contact.after.name }));
      expect(planned).toEqual([
        { action: 'create', number: '351920000091', name: 'Ann "Lee" Smith' },
        { action: 'create', number: '351920000092', name: 'Smith, K' },
        { action: 'create', number: '351920000093', name: '"Oli"' },
        { action: 'create', number: '351920000094', name: 'Pia' },
      ]);
      const imported = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '-o', 'json');
      expect(imported.code, imported.stderr).toBe(0);
      const made = (JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Listed[])
        .filter((contact) => contact.number.startsWith('35192000009'))
        .map((contact) => ({ action: 'create', number: contact.number, name: contact.name }));
      expect(made.sort((a, b) => a.number.localeCompare(b.number))).toEqual(planned);
    });
  });
}

describe('quotes read otherwise by a strict reader, against wsm serve, which reads a file as wsm does', () => {
  let backend: Backend;
  const firstOnBinary = binaryFirstRunner();
  const run = (...args: string[]) => firstOnBinary(backend.env, args);
  beforeAll(async () => {
    backend = await BACKENDS[0].start();
  });
  afterAll(async () => {
    if (backend !== undefined) expect(await backend.stop()).toBe(0);
  });

  it('costs that row alone: the plan and the run agree, Ned and Oli are created', async () => {
    const file = backendFile(backend, 'people.csv', MAX_NED_OLI);
    const plan = await run('contacts', 'import', file, '--dry-run', '-q');
    expect(plan.code, plan.stderr).toBe(8);
    expect(plan.stdout).toContain('Plan: 2 to create, 0 to update, 0 unchanged, 1 invalid.\n');
    const imported = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '-o', 'json');
    expect(imported.code, imported.stderr).toBe(8);
    expect(JSON.parse(imported.stdout).summary).toMatchObject({ created: 2, failed: 1 });
    const numbers = (JSON.parse((await run('contacts', 'list', '-o', 'json')).stdout) as { number: string }[]).map((c) => c.number);
    expect(numbers.sort()).toEqual(['351920000052', '351920000053']);
  });

  it('a quote inside a value not quoted whole costs that row alone: the plan and the run agree, Bob is created', async () => {
    const file = backendFile(backend, 'ann-lee.csv', ANN_LEE);
    const plan = await run('contacts', 'import', file, '--dry-run', '-q');
    expect(plan.code, plan.stderr).toBe(8);
    expect(plan.stdout).toContain('x row 2: invalid\n    The row has a quote inside a value that does not start with one.\n');
    expect(plan.stdout).toContain('Plan: 1 to create, 0 to update, 0 unchanged, 1 invalid.\n');
    const imported = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '-o', 'json');
    expect(imported.code, imported.stderr).toBe(8);
    expect(JSON.parse(imported.stdout).summary).toMatchObject({ created: 1, failed: 1 });
    const listed = JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Listed[];
    const contacts = listed.filter((contact) => contact.number.startsWith('35192000006'));
    expect(contacts.map((contact) => [contact.number, contact.name])).toEqual([['351920000062', 'Bob']]);
  });
});
