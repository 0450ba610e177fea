/**
 * An `update|delete --from` file whose ids are no contact ids, or an update file whose rows set
 * what the API would refuse or name groups the workspace lacks, is refused before anything is sent
 * (exit 2), in a few lines however large it is: each value quoted at most 40 characters long, and
 * the first 20 rows' places named with how many rows there are, so that a file of a million bad
 * lines, or of one 50 MB line, is said in a few. The built binary runs the delete; wsm runs
 * in-process (in-process.ts) otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

describe('ids that are no contact ids, on wsm serve', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  let id: number;
  const stillThere = async () => {
    const listed = await run('contacts', 'list', '--all', '-q');
    expect(listed.stdout).toBe(`${id}\n`);
  };

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
    const made = await run('contacts', 'create', '--number', '14155550501', '--name', 'Ann', '-o', 'json');
    expect(made.code, made.stderr).toBe(0);
    id = (JSON.parse(made.stdout) as { id: number }).id;
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('a delete list of 25 bad lines names the first 20 and says how many', async () => {
    const file = backendFile(backend, 'ids.txt', `${id}\n${'x1\n'.repeat(25)}`);
    const refused = await wsm(backend.env, ['contacts', 'delete', '--from', file, '--yes']);
    const lines = Array.from({ length: 20 }, (_, at) => `  line ${at + 2}: "x1" is not a contact id (a positive whole number).\n`);
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([
      2,
      '',
      `error: ${file} has lines that are not contact ids (25 lines; the first 20 below): nothing was sent\n${lines.join('')}`,
    ]);
    await stillThere();
  });

  it('an id of 5,000 digits is quoted by its first 40', async () => {
    const digits = '9'.repeat(5000);
    const file = backendFile(backend, 'long.csv', `id,name\n${digits},Bob\n`);
    const refused = await run('contacts', 'update', '--from', file, '--dry-run');
    expect([refused.code, refused.stderr]).toEqual([
      2,
      `error: ${file} has rows without a contact id: nothing was sent\n` +
        `  line 2 id: "${'9'.repeat(40)}…" (5,000 characters) is not a contact id (at most 9007199254740991).\n`,
    ]);
    await stillThere();
  });
});

describe('rows an update file sets wrongly, on wsm serve', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  const rows = (cell: string) => Array.from({ length: 25 }, (_, at) => `${at + 1},${cell}\n`).join('');
  const places = (what: string) => Array.from({ length: 20 }, (_, at) => `  line ${at + 2} ${what}\n`).join('');

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('25 rows whose e-mail the API would refuse: the first 20 named and the rows counted', async () => {
    const file = backendFile(backend, 'emails.csv', `id,email\n${rows('not-an-address')}`);
    const refused = await run('contacts', 'update', '--from', file, '--dry-run');
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([
      2,
      '',
      `error: ${file} has updates the API would refuse (25 lines; the first 20 below): nothing was sent\n` +
        places('email: The email field must be a valid email address.'),
    ]);
  });

  it('25 rows that are no readable CSV: the first 20 named and the rows counted', async () => {
    const file = backendFile(backend, 'quotes.csv', `id,name\n${rows('"Ann"x')}`);
    const refused = await run('contacts', 'update', '--from', file, '--dry-run');
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([
      2,
      '',
      `error: ${file} is neither contact ids one a line nor a readable CSV (25 lines; the first 20 below): nothing was sent\n` +
        Array.from({ length: 20 }, (_, at) => `  line ${at + 2}: The row has text after the closing quote of a value.\n`).join(''),
    ]);
  });

  it('25 rows naming a group the workspace lacks: the first 20 named and the rows counted', async () => {
    const file = backendFile(backend, 'groups.csv', `id,contact_groups\n${rows('"[""Nowhere""]"')}`);
    const refused = await run('contacts', 'update', '--from', file, '--dry-run');
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([
      2,
      '',
      `error: ${file} names contact groups this workspace does not have (25 lines; the first 20 below): nothing was sent\n` +
        places('contact_groups: No contact group is named "Nowhere" (`wsm groups create` makes one).'),
    ]);
  });
});
