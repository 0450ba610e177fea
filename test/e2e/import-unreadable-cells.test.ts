/**
 * A contact_groups or custom field cell the check cannot read, on a server whose contacts do not
 * show that column (the stand-in of the published API, which ignores a column it does not know):
 * the row is no invalid row. The plan creates it on its other cells and says the cell is sent as
 * written, not known to be kept; the run creates it, its summary counts no failure, exit 0, no
 * reject, and undo deletes it. On `wsm serve`, whose contacts show groups and fields, the row is
 * refused, as the plan says. The real binary runs each command first on every backend, later runs of
 * it are in-process (binaryFirstRunner). On `wsm serve --api-only` into an empty
 * workspace nothing shows what its contacts hold: the plan says the cell as not known, and the
 * server's own error, naming the row, is what makes it failed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { binaryFirstRunner } from './in-process.js';
import { finalScreen, onTerminal } from './terminal.js';

const GROUPS_WHY = 'The contact groups cell must be a JSON array of group names, such as ["VIP","News"] (or [] for none).';
const COLUMNS = 240;

/** `? contact_groups cell not read in 1 row (row 2), sent as written: …`, as the plan and the run's warning say it. */
const unreadable = (key: string, what: string) =>
  `${key} cell not read in 1 row (row 2), sent as written: this server's contacts do not show ${what}, so whether its import keeps it is not known`;

interface Listed {
  id: number;
  number: string;
  name: string;
}

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  const shows = kind === BACKENDS[0];
  describe(`a groups or field cell the check cannot read, against ${kind.name}`, () => {
    let backend: Backend;
    const firstOnBinary = binaryFirstRunner();
    const run = (...args: string[]) => firstOnBinary(backend.env, args);
    const numbers = async () =>
      (JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Listed[]).map((contact) => contact.number).sort();

    beforeAll(async () => {
      backend = await kind.start();
    });
    afterAll(async () => {
      if (backend !== undefined) expect(await backend.stop()).toBe(0);
    });

    it('a malformed contact_groups cell: the plan, the run, its summary, --rejects and undo agree', async () => {
      const file = backendFile(backend, 'people.csv', 'number,name,contact_groups\n+351920000002,Bob,not-json\n+351920000003,Cid,\n');
      const plan = await run('contacts', 'import', file, '--dry-run', '-q');
      expect(plan.code, plan.stderr).toBe(shows ? 8 : 0);
      const cid = '+ row 3: create 351920000003\n    name: "Cid"\n';
      expect(plan.stdout).toBe(
        shows
          ? `x row 2: invalid\n    contact_groups: ${GROUPS_WHY}\n${cid}Plan: 1 to create, 0 to update, 0 unchanged, 1 invalid.\n${file}\n`
          : `+ row 2: create 351920000002\n    name: "Bob"\n    ? contact_groups: "not-json" sent as written, not read: ${GROUPS_WHY}\n` +
              `${cid}? ${unreadable('contact_groups', 'groups')}\nPlan: 2 to create, 0 to update, 0 unchanged, 0 invalid.\n${file}\n`,
      );
      const data = JSON.parse((await run('contacts', 'import', file, '--dry-run', '-o', 'json')).stdout);
      if (shows) expect(data).toMatchObject({ valid_rows: 1, invalid_rows: 1, create: 1, invalid: 1 });
      else {
        expect(data).toMatchObject({
          valid_rows: 2,
          invalid_rows: 0,
          problems: [],
          create: 2,
          invalid: 0,
          unreadable_cells: { contact_groups: { rows: 1, first: ['row 2'] } },
        });
        expect(data.contacts[0]).toMatchObject({
          action: 'create',
          number: '351920000002',
          unreadable: { contact_groups: { cell: 'not-json', why: GROUPS_WHY } },
          after: { name: 'Bob', contact_groups: [] },
        });
      }

      const shown = await onTerminal(
        backend.env,
        ['contacts', 'import', 'people.csv', '--wait', '--interval', '0.05s', '--rejects', 'fix.csv'],
        {
          columns: COLUMNS,
          cwd: backend.dir,
          redirect: '> out.txt',
        },
      );
      expect(shown.code).toBe(shows ? 8 : 0);
      const lines = await finalScreen(shown.raw, COLUMNS);
      expect(lines.filter((line) => /^Import \d+ completed/.test(line))).toEqual([
        expect.stringMatching(
          shows
            ? /^Import \d+ completed: 1 created, 0 unchanged, 0 rows left out, 1 row failed; 1 contact from 2 rows\.$/
            : /^Import \d+ completed: 2 created, 0 unchanged, 0 rows left out, 0 rows failed; 2 contacts from 2 rows\.$/,
        ),
      ]);
      expect(lines).toContain(
        shows
          ? `warning: people.csv row 2: contact_groups: ${GROUPS_WHY}`
          : `warning: people.csv: ${unreadable('contact_groups', 'groups')}`,
      );
      expect(await numbers()).toEqual(shows ? ['351920000003'] : ['351920000002', '351920000003']);
      expect(readFileSync(join(backend.dir, 'fix.csv'), 'utf8')).toBe(
        shows
          ? `number,name,contact_groups,import_error,import_line\n+351920000002,Bob,not-json,${csvQuoted(GROUPS_WHY)},2\n`
          : 'number,name,contact_groups,import_error,import_line\n',
      );

      const undone = await run('undo', 'last', '--yes');
      expect(undone.stderr).toMatch(new RegExp(`✓ undid change \\S+: 0 set back, ${shows ? 1 : 2} deleted, 0 created again, 0 failed\\n$`));
      expect(await numbers()).toEqual([]);
    });

    it('a file whose one row has such a cell, under --strict: sent and created on the stand-in, refused whole on wsm serve', async () => {
      const file = backendFile(backend, 'only.csv', 'number,name,contact_groups\n+351920000021,Fay,not-json\n');
      const imported = await run('contacts', 'import', file, '--strict', '--wait', '--interval', '0.05s');
      expect(imported.code, imported.stderr).toBe(shows ? 2 : 0);
      if (shows) expect(imported.stderr).toContain(`error: ${file}: 1 of 1 row is invalid (--strict): nothing was sent\n`);
      expect(await numbers()).toEqual(shows ? [] : ['351920000021']);
      // Nothing was sent on wsm serve: no change to undo.
      if (!shows) expect((await run('undo', 'last', '--yes')).code).toBe(0);
      expect(await numbers()).toEqual([]);
    });

    it('beside a cell the run holds (a name in scientific notation): the row is planned, its held cell left out, its contact made on the stand-in', async () => {
      const file = backendFile(backend, 'held.csv', 'number,name,contact_groups\n+351920000022,1.23457E+16,not-json\n+351920000023,Gus,\n');
      const imported = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '-o', 'json');
      expect(imported.code, imported.stderr).toBe(shows ? 8 : 0);
      expect(JSON.parse(imported.stdout).summary).toMatchObject(shows ? { created: 1, failed: 1 } : { created: 2, failed: 0 });
      const names = (JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Listed[]).map((c) => [c.number, c.name]);
      expect(names.sort()).toEqual(
        shows
          ? [['351920000023', 'Gus']]
          : [
              ['351920000022', 'Unknown'],
              ['351920000023', 'Gus'],
            ],
      );
      expect((await run('undo', 'last', '--yes')).code).toBe(0);
      expect(await numbers()).toEqual([]);
    });

    it('a custom field cell too long to keep, where the contacts do not show fields: sent as written on the stand-in, refused on wsm serve', async () => {
      const field = await run('fields', 'create', 'city');
      expect(field.code, field.stderr).toBe(0);
      const city = 'x'.repeat(1100);
      const file = backendFile(backend, 'cities.csv', `number,name,city\n+351920000012,Dan,${city}\n+351920000013,Eve,Oslo\n`);
      const plan = await run('contacts', 'import', file, '--dry-run', '-o', 'json');
      expect(plan.code, plan.stderr).toBe(shows ? 8 : 0);
      const why = 'The city field must not be greater than 1024 characters.';
      if (shows) expect(JSON.parse(plan.stdout)).toMatchObject({ invalid: 1, problems: [{ row: 2, field: 'fields.city', message: why }] });
      else
        expect(JSON.parse(plan.stdout)).toMatchObject({
          invalid: 0,
          create: 2,
          unreadable_cells: { 'fields.city': { rows: 1, first: ['row 2'] } },
          contacts: [{ place: 'row 2', unreadable: { 'fields.city': { cell: city, why } } }, { place: 'row 3' }],
        });
      const imported = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '-o', 'json');
      expect(imported.code, imported.stderr).toBe(shows ? 8 : 0);
      if (!shows) {
        expect(JSON.parse(imported.stdout).summary).toEqual({
          created: 2,
          updated: 0,
          unchanged: 0,
          left_out: 0,
          failed: 0,
          contacts: 2,
          rows: 2,
        });
        expect(imported.stderr).toContain(`warning: ${file}: ${unreadable('fields.city', 'custom fields')}\n`);
      }
      expect(await numbers()).toEqual(shows ? ['351920000013'] : ['351920000012', '351920000013']);
    });
  });
}

/** A CSV cell as the rejects file writes it: quoted when it holds a comma or a quote. */
const csvQuoted = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

describe('the same cell on wsm serve --api-only, whose empty workspace shows no contact yet', () => {
  let backend: Backend;
  const firstOnBinary = binaryFirstRunner();
  const run = (...args: string[]) => firstOnBinary(backend.env, args);
  beforeAll(async () => {
    backend = await BACKENDS[1].start();
  });
  afterAll(async () => {
    if (backend !== undefined) expect(await backend.stop()).toBe(0);
  });

  it('the plan cannot tell, so the cell is sent as written; the server refuses the row, and its error, not the plan, makes it failed', async () => {
    const file = backendFile(backend, 'people.csv', 'number,name,contact_groups\n+351920000002,Bob,not-json\n+351920000003,Cid,\n');
    const plan = await run('contacts', 'import', file, '--dry-run', '-q');
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`? ${unreadable('contact_groups', 'groups')}\n`);
    expect(plan.stdout).toContain('Plan: 2 to create, 0 to update, 0 unchanged, 0 invalid.\n');
    const rejects = join(backend.dir, 'fix.csv');
    const imported = await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '--rejects', rejects, '-o', 'json');
    expect(imported.code, imported.stderr).toBe(8);
    expect(JSON.parse(imported.stdout).summary).toEqual({
      created: 1,
      updated: 0,
      unchanged: 0,
      left_out: 0,
      failed: 1,
      contacts: 2,
      rows: 2,
    });
    expect(readFileSync(rejects, 'utf8')).toMatch(
      /^number,name,contact_groups,import_error,import_line\n\+351920000002,Bob,not-json,.+,2\n$/,
    );
  });
});
