/**
 * An import's plan says only what it knows of groups and custom fields: on a server whose contacts
 * show neither (the stand-in of the published API), their cells are said as sent, not as changes,
 * and no group is promised; on wsm serve they are planned and made. Text compared as the contract
 * stores it (NFC): a decomposed name equal to the stored one is no change, before or after the run.
 * wsm runs in-process (in-process.ts: the binary's entry point, its bytes and exit code); the built
 * binary runs the command the file is about, `contacts import`, once on each backend (the import
 * of a group stored decomposed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const COMPOSED = 'Zo\u00eb';
const DECOMPOSED = 'Zoe\u0308';

/** The plan's lines on a server whose contacts show neither groups nor fields. */
const unshown = (groupRows: string, fieldRows: string) =>
  `? contact_groups sent for ${groupRows}: this server's contacts do not show groups, so whether its import keeps them is not known\n` +
  `? fields.city sent for ${fieldRows}: this server's contacts do not show custom fields, so whether its import keeps them is not known\n` +
  `? contact group "VIP" is not in the workspace: this server's import is not known to create it\n`;

interface Listed {
  number: string;
  name: string;
  contact_groups?: Array<{ name: string }>;
  fields?: Record<string, string>;
}

for (const kind of BACKENDS) {
  describe(`groups and custom fields in an import's plan, against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const file = (name: string, text: string) => backendFile(backend, name, text);
    const listed = async () => JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Listed[];

    beforeAll(async () => {
      backend = await kind.start();
      const field = await run('fields', 'create', 'city');
      expect(field.code, field.stderr).toBe(0);
      const group = await run('groups', 'create', 'Staff');
      expect(group.code, group.stderr).toBe(0);
    });
    afterAll(async () => {
      if (backend !== undefined) expect(await backend.stop()).toBe(0);
    });

    it('into an empty workspace: groups promised only where the server has the extensions', async () => {
      const grouped = file(
        'first.csv',
        'number,name,contact_groups,city\n14155550301,Ann,"[""VIP""]",Oslo\n14155550302,Bob,"[""VIP""]",\n',
      );
      const plan = await run('contacts', 'import', grouped, '--dry-run', '-q');
      expect(plan.code, plan.stderr).toBe(0);
      const made =
        '+ row 2: create 14155550301\n    name: "Ann"\n' +
        (backend.extensions ? '    fields.city: "Oslo"\n    contact_groups: ["VIP"]\n' : '') +
        '+ row 3: create 14155550302\n    name: "Bob"\n' +
        (backend.extensions ? '    contact_groups: ["VIP"]\n' : '');
      const counts =
        'Plan: 2 to create, 0 to update, 0 unchanged, 0 invalid' + (backend.extensions ? '; 1 contact group to create: "VIP".\n' : '.\n');
      // --api-only switches the extensions off: an empty workspace shows nothing of its contacts, so nothing is promised.
      expect(plan.stdout).toBe(
        `${made}${backend.extensions ? '+ contact group "VIP": created by the import\n' : unshown('2 rows', '1 row')}${counts}${grouped}\n`,
      );
    });

    it('a group the server stores decomposed is the one the file names composed: --wait warns of no group not created', async () => {
      // Made over HTTP, as another client of the hosted service may have made it: wsm itself sends names composed.
      const made = await fetch(`${backend.url}/workspaces/${backend.workspace}/contact-groups`, {
        method: 'POST',
        headers: { authorization: `Bearer ${backend.token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ name: 'Cafe\u0301' }),
      });
      expect(made.status).toBe(201);
      const people = file('cafe.csv', 'number,name,contact_groups\n14155550421,Dee,"[""Caf\u00e9""]"\n');
      const imported = await wsm(backend.env, ['contacts', 'import', people, '--wait', '--interval', '0.05s', '-q']);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([]);
    });

    it('a decomposed name, group and field cells: the plan says what the run does, --wait says what it did not, a second plan finds nothing to do', async () => {
      for (const [number, name] of [
        ['14155550311', COMPOSED],
        ['14155550312', 'Bob'],
      ]) {
        const created = await run('contacts', 'create', '--number', number, '--name', name);
        expect(created.code, created.stderr).toBe(0);
      }
      const text =
        'number,name,contact_groups,city\n' +
        `14155550311,${DECOMPOSED},"[""VIP""]",Oslo\n14155550312,Bob,"[""VIP"",""Staff""]",\n14155550313,Cid,,Bergen\n`;
      const people = file('people.csv', text);
      // wsm serve --api-only keeps the extension fields of a contact record: its contacts show groups and fields.
      const shows = kind !== BACKENDS[2];
      const plan = await run('contacts', 'import', people, '--dry-run', '-q');
      expect(plan.code, plan.stderr).toBe(0);
      const [zoe, bob] = (await listed()).filter((c) => c.number === '14155550311' || c.number === '14155550312') as Array<
        Listed & { id: number }
      >;
      expect(plan.stdout).toBe(
        (shows
          ? `~ row 2: update contact ${zoe.id} (14155550311)\n    fields.city: null -> "Oslo"\n    contact_groups: [] -> ["VIP"]\n` +
            `~ row 3: update contact ${bob.id} (14155550312)\n    contact_groups: [] -> ["VIP","Staff"]\n` +
            '+ row 4: create 14155550313\n    name: "Cid"\n    fields.city: "Bergen"\n' +
            '+ contact group "VIP": created by the import\n' +
            'Plan: 1 to create, 2 to update, 0 unchanged, 0 invalid; 1 contact group to create: "VIP".\n'
          : `+ row 4: create 14155550313\n    name: "Cid"\n${unshown('2 rows', '2 rows')}` +
            'Plan: 1 to create, 0 to update, 2 unchanged, 0 invalid.\n') + `${people}\n`,
      );
      const data = JSON.parse((await run('contacts', 'import', people, '--dry-run', '-o', 'json')).stdout);
      if (shows) expect(data).toMatchObject({ new_groups: ['VIP'], update: 2 });
      else {
        expect(data).toMatchObject({
          new_groups: [],
          lacking_groups: ['VIP'],
          not_shown: { contact_groups: 2, 'fields.city': 2 },
          create: 1,
          update: 0,
          unchanged: 2,
        });
        expect(data.contacts[0]).toMatchObject({
          action: 'unchanged',
          changes: {},
          not_shown: { contact_groups: ['VIP'], 'fields.city': 'Oslo' },
          after: { name: COMPOSED, fields: {}, contact_groups: [] },
        });
        expect(data.contacts[2]).toMatchObject({
          action: 'create',
          changes: { name: { to: 'Cid' } },
          not_shown: { 'fields.city': 'Bergen' },
        });
      }

      const imported = await run('contacts', 'import', people, '--wait', '--interval', '0.05s', '-q');
      expect(imported.code, imported.stderr).toBe(0);
      // After the wait, what the published API shows is checked: the group list once, and the fields as `--field` is.
      const id = imported.stdout.trim();
      expect(imported.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual(
        shows
          ? []
          : [
              `warning: import ${id} did not create the contact group "VIP" named in ${people}: this server's contacts do not show groups, and its import does not create them (\`wsm groups create\` makes one)`,
              'warning: the server did not keep the custom field value of city: custom field values need the wsm serve extension (the published API has no field for them)',
            ],
      );
      const after = (await listed()).filter((c) => c.number.startsWith('141555503'));
      expect(after.map((c) => [c.number, c.name.normalize('NFC')])).toEqual([
        ['14155550311', COMPOSED],
        ['14155550312', 'Bob'],
        ['14155550313', 'Cid'],
      ]);
      if (shows)
        expect(after.map((c) => [c.contact_groups?.map((g) => g.name), c.fields])).toEqual([
          [['VIP'], { city: 'Oslo' }],
          [['Staff', 'VIP'], {}],
          [[], { city: 'Bergen' }],
        ]);

      const again = await run('contacts', 'import', people, '--dry-run', '-q');
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toBe(
        `${shows ? '' : unshown('2 rows', '2 rows')}Plan: 0 to create, 0 to update, 3 unchanged, 0 invalid.\n${people}\n`,
      );
    });

    // Only the stand-in's import creates no groups.
    if (kind === BACKENDS[2])
      it('many groups the import did not create: the first five named, the rest counted', async () => {
        const names = ['G1', 'G2', 'G3', 'G4', 'G5', 'G6', 'G7', 'G8'];
        const rows = names.map((name, at) => `1415555040${at},Row ${at},"[""${name}""]"\n`).join('');
        const many = file('many-groups.csv', `number,name,contact_groups\n${rows}`);
        const imported = await run('contacts', 'import', many, '--wait', '--interval', '0.05s', '-q');
        expect(imported.code, imported.stderr).toBe(0);
        expect(imported.stderr).toContain(
          `warning: import ${imported.stdout.trim()} did not create the contact groups "G1", "G2", "G3", "G4", "G5" and 3 more named in ${many}:`,
        );
      });
  });
}
