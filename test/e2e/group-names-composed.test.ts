/**
 * Group names are matched and stored composed (NFC) and trimmed, as contact text is: `Café` written
 * with `e` and a combining accent names the group written with `é`, whether it comes from
 * `groups create`, an import's contact_groups cell or an `update --from` file. The plan shows the
 * existing group joined, the run joins it, and no look-alike second group is made.
 * The binary runs one `groups create`, the import and the update --from; plans, set-up and
 * read-backs run in-process (in-process.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

/** Each test's own group, composed, and the same name decomposed (`e` and a combining accent). */
const [CAFE, CREME, NOEL] = ['Caf\u00e9', 'Cr\u00e8me', 'No\u00ebl'];
const decomposed = (name: string) => name.normalize('NFD');

interface Group {
  id: number;
  name: string;
  contacts_count: number;
}

describe(`group names composed, against ${BACKENDS[0].name}`, () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  const binary = (...args: string[]) => wsm(backend.env, args);
  const file = (name: string, text: string) => backendFile(backend, name, text);
  /** The groups whose name is `name` written either way. */
  const groupsNamed = async (name: string) =>
    (JSON.parse((await run('groups', 'list', '--all', '-o', 'json')).stdout) as Group[])
      .filter((group) => group.name.normalize('NFC') === name)
      .map(({ name, contacts_count }) => ({ name, contacts_count }));
  const createGroup = async (name: string) => {
    const made = await run('groups', 'create', name, '-o', 'json');
    expect(made.code, made.stderr).toBe(0);
    return JSON.parse(made.stdout) as Group;
  };
  const groupsOf = async (number: string) => {
    const contacts = JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Array<{
      number: string;
      contact_groups: Array<{ name: string }>;
    }>;
    return contacts.find((contact) => contact.number === number)?.contact_groups.map((group) => group.name);
  };

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('groups create stores a decomposed name composed and trimmed; the same name written the other way is taken', async () => {
    expect((await createGroup(` ${decomposed(CAFE)} `)).name).toBe(CAFE);
    const again = await binary('groups', 'create', CAFE);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/name/i);
    expect(await groupsNamed(CAFE)).toEqual([{ name: CAFE, contacts_count: 0 }]);
  });

  it('an import naming the group decomposed joins the stored one: the plan says so and the run does it', async () => {
    await createGroup(CREME);
    const csv = file('creme-import.csv', `number,name,contact_groups\n14155550901,Ann,"[""${decomposed(CREME)}""]"\n`);
    const plan = await run('contacts', 'import', csv, '--dry-run', '-o', 'json');
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({
      new_groups: [],
      create: 1,
      contacts: [{ action: 'create', after: { contact_groups: [CREME] } }],
    });
    const text = await run('contacts', 'import', csv, '--dry-run', '-q');
    expect(text.stdout).not.toContain('contact group');
    const real = await binary('contacts', 'import', csv, '--wait', '--interval', '0.05s', '-q');
    expect([real.code, real.stderr]).toEqual([0, '']);
    expect(await groupsNamed(CREME)).toEqual([{ name: CREME, contacts_count: 1 }]);
    expect(await groupsOf('14155550901')).toEqual([CREME]);
  });

  it('contacts update --from naming the group decomposed sets the stored one, in the plan and the run', async () => {
    const created = await run('contacts', 'create', '--number', '14155550902', '--name', 'Bob', '-o', 'json');
    expect(created.code, created.stderr).toBe(0);
    const id = JSON.parse(created.stdout).id;
    await createGroup(NOEL);
    const csv = file('noel-update.csv', `id,contact_groups\n${id},"[""${decomposed(NOEL)}""]"\n`);
    const plan = await run('contacts', 'update', '--from', csv, '--dry-run', '-o', 'json');
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout).contacts[0]).toMatchObject({ action: 'update', changes: { contact_groups: { from: [], to: [NOEL] } } });
    const real = await binary('contacts', 'update', '--from', csv);
    expect(real.code, real.stderr).toBe(0);
    expect(await groupsOf('14155550902')).toEqual([NOEL]);
    expect(await groupsNamed(NOEL)).toEqual([{ name: NOEL, contacts_count: 1 }]);
  });
});
