/**
 * Cells a server whose rules are not known may take: an e-mail that is an address under a loose
 * reading but not under wsm serve's rule (`x@y.z`), and values beyond the header's columns. On the
 * stand-in of the published API, which creates such a row's contact, the row is no invalid row:
 * the plan sets the e-mail as written and says it with a `?` line, the run creates the contact,
 * its summary counts no failure, exit 0, no reject, and undo deletes it. On `wsm serve`, whose
 * rules the check is, the row stays invalid and its import refuses it. On
 * `wsm serve --api-only` (no extension tells it apart) the plan takes the row, and the server's
 * error, not the plan, makes it failed. The first run of each command is the built binary's, the
 * later ones run in-process (in-process.ts binaryFirstRunner).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { binaryFirstRunner } from './in-process.js';

const wsm = binaryFirstRunner();

const EMAIL_LINE = "? email in 1 row (row 3) is not an address wsm serve accepts; this server's rule is not known: sent as written\n";
const BEYOND_LINE =
  "? values beyond the header's columns in 1 row (row 2), sent as written: whether this server ignores them is not known\n";
const BEYOND_WHY = 'The row has 3 values but the header has 2 columns.';

interface Listed {
  number: string;
  name: string;
  email: string | null;
  gender: string | null;
  status: boolean;
}

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  const known = kind === BACKENDS[0];
  describe(`cells a server of unknown rules may take, against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsm(backend.env, args);
    const contacts = async () =>
      (JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Listed[])
        .map(({ number, name, email, gender, status }) => ({ number, name, email, gender, status }))
        .sort((a, b) => a.number.localeCompare(b.number));

    beforeAll(async () => {
      backend = await kind.start();
    });
    afterAll(async () => {
      if (backend !== undefined) expect(await backend.stop()).toBe(0);
    });

    it('an e-mail with a one-letter domain ending: the plan, the run, its summary, --rejects and undo agree', async () => {
      const file = backendFile(
        backend,
        'tabs.csv',
        'number,name,email,gender,status\n16505550007,Ann,ann@example.com,female,TRUE\n16505550008,Tab Name,x@y.z,Male,INACTIVE\n',
      );
      const ann = '+ row 2: create 16505550007\n    name: "Ann"\n    email: "ann@example.com"\n    gender: "female"\n    status: true\n';
      const plan = await run('contacts', 'import', file, '--dry-run', '-q');
      expect(plan.code, plan.stderr).toBe(known ? 8 : 0);
      expect(plan.stdout).toBe(
        known
          ? `${ann}x row 3: invalid\n    email: The email field must be a valid email address.\nPlan: 1 to create, 0 to update, 0 unchanged, 1 invalid.\n${file}\n`
          : `${ann}+ row 3: create 16505550008\n    name: "Tab Name"\n    email: "x@y.z"\n    gender: "male"\n    status: false\n` +
              `    ? email: "x@y.z" sent as written, this server's rule not known: The email field must be a valid email address.\n` +
              `${EMAIL_LINE}Plan: 2 to create, 0 to update, 0 unchanged, 0 invalid.\n${file}\n`,
      );
      if (!known) {
        const data = JSON.parse((await run('contacts', 'import', file, '--dry-run', '-o', 'json')).stdout);
        expect(data).toMatchObject({
          valid_rows: 2,
          invalid_rows: 0,
          problems: [],
          create: 2,
          unreadable_cells: { email: { rows: 1, first: ['row 3'] } },
        });
        expect(data.contacts[1]).toMatchObject({ place: 'row 3', after: { email: 'x@y.z' }, unreadable: { email: { cell: 'x@y.z' } } });
      }

      const rejects = join(backend.dir, 'fix.csv');
      const imported = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '--rejects', rejects, '-o', 'json');
      expect(imported.code, imported.stderr).toBe(known ? 8 : 0);
      expect(JSON.parse(imported.stdout).summary).toMatchObject(known ? { created: 1, failed: 1 } : { created: 2, failed: 0 });
      if (!known) expect(imported.stderr).toContain(`warning: ${file}: ${EMAIL_LINE.slice(2)}`);
      const annStored = { number: '16505550007', name: 'Ann', email: 'ann@example.com', gender: 'female', status: true };
      const tab = { number: '16505550008', name: 'Tab Name', email: 'x@y.z', gender: 'male', status: false };
      expect(await contacts()).toEqual(known ? [annStored] : [annStored, tab]);
      const rejected = readFileSync(rejects, 'utf8');
      if (known)
        expect(rejected).toMatch(
          /^number,name,email,gender,status,import_error,import_line\n16505550008,Tab Name,x@y\.z,Male,INACTIVE,.+,3\n$/,
        );
      else expect(rejected).toBe('number,name,email,gender,status,import_error,import_line\n');

      const undone = await run('undo', 'last', '--yes');
      expect(undone.stderr).toMatch(new RegExp(`✓ undid change \\S+: 0 set back, ${known ? 1 : 2} deleted, 0 created again, 0 failed\\n$`));
      expect(await contacts()).toEqual([]);
    });

    it('an e-mail that is no address under any reading stays invalid on both', async () => {
      const file = backendFile(backend, 'bad.csv', 'number,name,email\n16505550009,Bo,bo@localhost\n16505550010,Cy,cy@ex.com\n');
      const plan = await run('contacts', 'import', file, '--dry-run', '-o', 'json');
      expect(plan.code, plan.stderr).toBe(8);
      expect(JSON.parse(plan.stdout)).toMatchObject({ invalid: 1, create: 1, problems: [{ row: 2, field: 'email' }] });
      expect(JSON.parse(plan.stdout).unreadable_cells).toBeUndefined();
    });

    it('values beyond the header: planned on its columns on the stand-in, its contact created; refused on wsm serve', async () => {
      const file = backendFile(backend, 'extra.csv', 'number,name\n+351920000031,Hal,extra\n+351920000032,Ivy\n');
      const plan = await run('contacts', 'import', file, '--dry-run', '-q');
      expect(plan.code, plan.stderr).toBe(known ? 8 : 0);
      const ivy = '+ row 3: create 351920000032\n    name: "Ivy"\n';
      expect(plan.stdout).toBe(
        known
          ? `x row 2: invalid\n    ${BEYOND_WHY}\n${ivy}Plan: 1 to create, 0 to update, 0 unchanged, 1 invalid.\n${file}\n`
          : `+ row 2: create 351920000031\n    name: "Hal"\n` +
              `    ? extra_values: "extra" sent as written, not known to be ignored: ${BEYOND_WHY}\n${ivy}` +
              `${BEYOND_LINE}Plan: 2 to create, 0 to update, 0 unchanged, 0 invalid.\n${file}\n`,
      );
      if (!known)
        expect(JSON.parse((await run('contacts', 'import', file, '--dry-run', '-o', 'json')).stdout)).toMatchObject({
          valid_rows: 2,
          invalid_rows: 0,
          unreadable_cells: { extra_values: { rows: 1, first: ['row 2'] } },
          contacts: [{ place: 'row 2', unreadable: { extra_values: { cell: 'extra', why: BEYOND_WHY } } }, { place: 'row 3' }],
        });
      const imported = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '-o', 'json');
      expect(imported.code, imported.stderr).toBe(known ? 8 : 0);
      expect(JSON.parse(imported.stdout).summary).toMatchObject(known ? { created: 1, failed: 1 } : { created: 2, failed: 0 });
      if (!known) expect(imported.stderr).toContain(`warning: ${file}: ${BEYOND_LINE.slice(2)}`);
      expect((await contacts()).map((contact) => contact.number)).toEqual(known ? ['351920000032'] : ['351920000031', '351920000032']);
      expect((await run('undo', 'last', '--yes')).code).toBe(0);
      expect(await contacts()).toEqual([]);
    });
  });
}

describe('the same e-mail on wsm serve --api-only, which has no extension to tell it is wsm serve', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsm(backend.env, args);
  beforeAll(async () => {
    backend = await BACKENDS[1].start();
  });
  afterAll(async () => {
    if (backend !== undefined) expect(await backend.stop()).toBe(0);
  });

  it('the plan takes the row as given; the server refuses it, and its error, not the plan, makes it failed', async () => {
    const file = backendFile(backend, 'tabs.csv', 'number,name,email\n16505550007,Ann,\n16505550008,Tab Name,x@y.z\n');
    const plan = await run('contacts', 'import', file, '--dry-run', '-q');
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(EMAIL_LINE);
    expect(plan.stdout).toContain('Plan: 2 to create, 0 to update, 0 unchanged, 0 invalid.\n');
    const rejects = join(backend.dir, 'fix.csv');
    const imported = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '--rejects', rejects, '-o', 'json');
    expect(imported.code, imported.stderr).toBe(8);
    expect(JSON.parse(imported.stdout).summary).toMatchObject({ created: 1, failed: 1, rows: 2 });
    expect(readFileSync(rejects, 'utf8')).toMatch(/^number,name,email,import_error,import_line\n16505550008,Tab Name,x@y\.z,.+,3\n$/);
  });
});
