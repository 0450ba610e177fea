import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli.js';
import { createTestIO } from '../../../src/cli/io.js';
import { scriptedPrompter } from '../helpers.js';
import { BASE_URL, JSON_HEADERS, TOKEN, WS, WSP, contact, formOf, jsonBodies, meHolds, noMe, page, setupApi, type Api } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

describe('contacts list', () => {
  const rows = [contact(1, { email: 'ann@example.com', contact_groups: [{ id: 3, name: 'VIP' }] }), contact(2, { status: false })];

  it('piped: one tab-separated row a contact, no header, no chatter', async () => {
    api.pool.intercept({ path: `${WSP}/contacts`, method: 'GET' }).reply(200, page(rows, 1, 1), JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['contacts', 'list']);
    expect(code).toBe(0);
    // Groups as the export writes them (a JSON array of names): a name may hold a comma.
    expect(stdout).toBe('1\t14155550001\tContact 1\tann@example.com\ttrue\t["VIP"]\n2\t14155550002\tContact 2\t\tfalse\t[]\n');
    expect(stderr).toBe('');
  });

  it('on a terminal: a table with headers and a hint when there are more pages', async () => {
    api.pool.intercept({ path: `${WSP}/contacts?page=2&per_page=2`, method: 'GET' }).reply(200, page(rows, 2, 3, 2, 6), JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['contacts', 'list', '--page', '2', '--per-page', '2', '--no-color'], {
      stdoutTTY: true,
    });
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^ID\s+NUMBER\s+NAME\s+EMAIL\s+ACTIVE\s+GROUPS$/);
    expect(stdout).toMatch(/1\s+14155550001\s+Contact 1\s+ann@example.com\s+true\s+VIP/);
    expect(stderr).toBe('Showing 3-4 of 6 contacts (page 2 of 3): use --page or --all for more\n');
  });

  it('--search goes to the query; -o json prints the array of records', async () => {
    api.pool.intercept({ path: `${WSP}/contacts?search=ann`, method: 'GET' }).reply(200, page([rows[0]]), JSON_HEADERS);
    const { code, stdout } = await api.run(['contacts', 'list', '--search', 'ann', '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([rows[0]]);
  });

  it('--all walks every page (100 a page) and -q prints only the ids', async () => {
    api.pool
      .intercept({ path: `${WSP}/contacts?per_page=100&page=1`, method: 'GET' })
      .reply(200, page([contact(1), contact(2)], 1, 2, 100, 3), JSON_HEADERS);
    api.pool
      .intercept({ path: `${WSP}/contacts?per_page=100&page=2`, method: 'GET' })
      .reply(200, page([contact(3)], 2, 2, 100, 3), JSON_HEADERS);
    const { code, stdout } = await api.run(['contacts', 'list', '--all', '-q']);
    expect(code).toBe(0);
    expect(stdout).toBe('1\n2\n3\n');
  });

  it('bad paging flags are usage errors (exit 2) and nothing is sent', async () => {
    for (const argv of [
      ['--page', '0'],
      ['--per-page', '500'],
      ['--page', 'two'],
      ['--all', '--page', '2'],
    ]) {
      const { code, stderr } = await api.run(['contacts', 'list', ...argv]);
      expect(code, argv.join(' ')).toBe(2);
      expect(stderr).toMatch(/^error: /);
    }
  });
});

describe('answers wsm cannot use', () => {
  it('a list without its data array is exit 1, one sentence naming the field', async () => {
    api.pool.intercept({ path: `${WSP}/contacts`, method: 'GET' }).reply(200, { items: [] }, JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['contacts', 'list']);
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toBe("error: the server's answer to listing contacts has no `data` list\n");
  });

  it('a create answered 201 without a record is a warning and exit 0; -o json shows the body as sent', async () => {
    api.pool.intercept({ path: `${WSP}/contacts`, method: 'POST' }).reply(201, { success: true }, JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['contacts', 'create', '--number', '14155550100', '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ success: true });
    expect(stderr).toBe("warning: the contact was created, but the server's answer holds no record: no id to show\n");
  });
});

describe('contacts get', () => {
  it('prints one contact as key/value lines when piped, the record with -o json', async () => {
    const record = contact(7, { email: 'x@example.com', fields: { city: 'Lisbon' } });
    api.pool
      .intercept({ path: `${WSP}/contacts/7`, method: 'GET' })
      .reply(200, { data: record }, JSON_HEADERS)
      .times(2);
    const piped = await api.run(['contacts', 'get', '7']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain('id\t7\nnumber\t14155550007\nname\tContact 7\nemail\tx@example.com\n');
    expect(piped.stdout).toContain('contact_groups\t[]\nfields\t{"city":"Lisbon"}\n');
    const json = await api.run(['contacts', 'get', '7', '-o', 'json']);
    expect(JSON.parse(json.stdout)).toEqual(record);
  });

  it('the API\'s own 404 body is "not found", exit 4', async () => {
    api.pool
      .intercept({ path: `${WSP}/contacts/9`, method: 'GET' })
      .reply(404, { message: 'Resource not found.', status: 404 }, JSON_HEADERS);
    const { code, stderr } = await api.run(['contacts', 'get', '9']);
    expect(code).toBe(4);
    expect(stderr).toBe('error: contact 9 not found\n');
  });

  it('a backend without the extension (405, or a router 404) says so, exit 1', async () => {
    api.pool
      .intercept({ path: `${WSP}/contacts/9`, method: 'GET' })
      .reply(405, { message: 'The GET method is not supported for route.' }, JSON_HEADERS);
    api.pool.intercept({ path: `${WSP}/contacts/10`, method: 'GET' }).reply(404, '<html>Not Found</html>');
    for (const id of ['9', '10']) {
      const { code, stderr } = await api.run(['contacts', 'get', id]);
      expect(code).toBe(1);
      expect(stderr).toBe(
        'error: this server does not support getting one contact: find it with `wsm contacts list --search <number or name>`\n',
      );
    }
  });

  it('an id that is not a positive integer is exit 2, nothing sent', async () => {
    const { code, stderr } = await api.run(['contacts', 'get', '7x']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: contact id must be a positive integer, got "7x"\n');
  });
});

describe('contacts create', () => {
  it('sends JSON when only number/name/email/gender are given, and prints the record', async () => {
    const { bodies, capture } = jsonBodies();
    api.pool.intercept({ path: `${WSP}/contacts`, method: 'POST' }).reply(
      (opts) => (
        capture(opts),
        {
          statusCode: 201,
          data: JSON.stringify({ status: 201, message: 'Contact created successfully.', data: contact(12, { name: 'Ann Lee' }) }),
          responseOptions: JSON_HEADERS,
        }
      ),
    );
    const { code, stdout, stderr } = await api.run([
      'contacts',
      'create',
      '--number',
      '+1 (415) 555-0012',
      '--name',
      ' Ann Lee ',
      '--email',
      'ann@example.com',
      '--gender',
      'female',
      '-q',
    ]);
    expect(code).toBe(0);
    expect(bodies).toEqual([{ number: '14155550012', name: 'Ann Lee', email: 'ann@example.com', gender: 'female' }]);
    expect(stdout).toBe('12\n');
    expect(stderr).toBe('');
  });

  it('a field value the server stored normalised (trimmed, composed) is not reported as lost; one it dropped is', async () => {
    const answer = (fields: Record<string, string>) =>
      api.pool
        .intercept({ path: `${WSP}/contacts`, method: 'POST' })
        .reply(201, { status: 201, message: 'Contact created successfully.', data: contact(14, { fields }) }, JSON_HEADERS);
    answer({ note: 'padded', city: 'São Paulo' });
    const kept = await api.run([
      'contacts',
      'create',
      '--number',
      '14155550014',
      '--field',
      'note= padded ',
      '--field',
      'city=Sa\u0303o Paulo',
      '-q',
    ]);
    expect([kept.code, kept.stderr]).toEqual([0, '']);
    answer({ city: 'São Paulo' });
    const dropped = await api.run([
      'contacts',
      'create',
      '--number',
      '14155550014',
      '--field',
      'note= padded ',
      '--field',
      'city=São Paulo',
      '-q',
    ]);
    expect(dropped.code).toBe(0);
    expect(dropped.stderr).toMatch(/^warning: the server did not keep the custom field value of note: /);
  });

  it('--group, --inactive and --field go as a multipart form with bracket names', async () => {
    let form: Promise<FormData> | undefined;
    api.pool.intercept({ path: `${WSP}/contacts`, method: 'POST' }).reply((opts) => {
      form = formOf(opts);
      return { statusCode: 201, data: JSON.stringify({ status: 201, message: 'ok', data: contact(13) }), responseOptions: JSON_HEADERS };
    });
    const { code } = await api.run([
      'contacts',
      'create',
      '--number',
      '14155550013',
      '--inactive',
      '--group',
      '3',
      '--group',
      '4',
      '--field',
      'city=Porto',
    ]);
    expect(code).toBe(0);
    expect([...(await form!).entries()]).toEqual([
      ['number', '14155550013'],
      ['status', '0'],
      ['contact_groups[0]', '3'],
      ['contact_groups[1]', '4'],
      ['fields[city]', 'Porto'],
    ]);
  });

  it('--avatar uploads the file as the avatar part', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const avatar = await api.file('ann.png', png);
    let form: Promise<FormData> | undefined;
    api.pool.intercept({ path: `${WSP}/contacts`, method: 'POST' }).reply((opts) => {
      form = formOf(opts);
      return { statusCode: 201, data: JSON.stringify({ status: 201, message: 'ok', data: contact(14) }), responseOptions: JSON_HEADERS };
    });
    const { code } = await api.run(['contacts', 'create', '--number', '14155550014', '--avatar', avatar]);
    expect(code).toBe(0);
    const file = (await form!).get('avatar') as File;
    expect(file.name).toBe('ann.png');
    expect(file.type).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);
  });

  it('a body that fails the contract is exit 2 with field lines named by flag, and nothing is sent', async () => {
    const { code, stdout, stderr } = await api.run([
      'contacts',
      'create',
      '--number',
      '12',
      '--email',
      'not-an-email',
      '--gender',
      'robot',
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'error: the contact is invalid: nothing was sent\n' +
        '  --number: The number must be a phone number of 7 to 15 digits.\n' +
        '  --email: The email field must be a valid email address.\n' +
        '  --gender takes one of male, female, other, got "robot"\n',
    );
  });

  it('a missing avatar file is exit 2, nothing sent', async () => {
    const { code, stderr } = await api.run(['contacts', 'create', '--number', '14155550015', '--avatar', '/nonexistent/a.png']);
    expect({ code, stderr }).toEqual({ code: 2, stderr: 'error: cannot read /nonexistent/a.png (ENOENT): nothing was sent\n' });
  });

  it('a 422 from the server is exit 5 with its field errors; -o json prints them with the body', async () => {
    const body = { message: 'Validation error', errors: { number: ['The number has already been taken.'] } };
    api.pool.intercept({ path: `${WSP}/contacts`, method: 'POST' }).reply(422, body, JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['contacts', 'create', '--number', '14155550016', '-o', 'json']);
    expect(code).toBe(5);
    expect(stderr).toBe('error: the server rejected the contact:\n  --number: The number has already been taken.\n');
    expect(JSON.parse(stdout)).toEqual({
      error: { message: 'the server rejected the contact:', exit_code: 5, status: 422, fields: body.errors, server: body },
    });
  });
});

describe('contacts update', () => {
  it('POSTs the contact with the required name (JSON without groups or avatar), after reading it for the change journal', async () => {
    const { bodies, capture } = jsonBodies();
    api.pool.intercept({ path: `${WSP}/contacts/7`, method: 'GET' }).reply(200, { data: contact(7, { name: 'Ann Lee' }) }, JSON_HEADERS);
    api.pool.intercept({ path: `${WSP}/contacts/7`, method: 'POST' }).reply(
      (opts) => (
        capture(opts),
        {
          statusCode: 200,
          data: JSON.stringify({ status: 200, message: 'ok', data: contact(7, { name: 'Ann' }) }),
          responseOptions: JSON_HEADERS,
        }
      ),
    );
    const { code, stdout } = await api.run(['contacts', 'update', '7', '--name', 'Ann', '--active', '-o', 'json']);
    expect(code).toBe(0);
    expect(bodies).toEqual([{ name: 'Ann', status: true }]);
    expect(JSON.parse(stdout)).toMatchObject({ id: 7, name: 'Ann' });
  });

  it('without --name keeps the current name, read from the server (the API requires one)', async () => {
    const { bodies, capture } = jsonBodies();
    api.pool.intercept({ path: `${WSP}/contacts/7`, method: 'GET' }).reply(200, { data: contact(7, { name: 'Ann Lee' }) }, JSON_HEADERS);
    api.pool.intercept({ path: `${WSP}/contacts/7`, method: 'POST' }).reply(
      (opts) => (
        capture(opts),
        {
          statusCode: 200,
          data: JSON.stringify({ status: 200, message: 'ok', data: contact(7, { name: 'Ann Lee', email: 'a@b.co' }) }),
          responseOptions: JSON_HEADERS,
        }
      ),
    );
    const { code } = await api.run(['contacts', 'update', '7', '--email', 'a@b.co']);
    expect(code).toBe(0);
    expect(bodies).toEqual([{ name: 'Ann Lee', email: 'a@b.co' }]);
  });

  it('without --name against a server that cannot read one contact: exit 1 as for any extension it lacks, saying --name is needed', async () => {
    api.pool.intercept({ path: `${WSP}/contacts/7`, method: 'GET' }).reply(404, { message: 'The route could not be found.' }, JSON_HEADERS);
    const { code, stderr } = await api.run(['contacts', 'update', '7', '--inactive']);
    expect(code).toBe(1);
    expect(stderr).toBe(
      'error: this server does not support getting one contact: wsm cannot keep what the contact holds, so pass --name (the API requires the name on every update)\n',
    );
  });

  it('with nothing to change is exit 2, nothing sent', async () => {
    const { code, stderr } = await api.run(['contacts', 'update', '7']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: nothing to update: pass at least one of --name/);
  });

  it('--active with --inactive is exit 2', async () => {
    const { code, stderr } = await api.run(['contacts', 'update', '7', '--name', 'A', '--active', '--inactive']);
    expect(code).toBe(2);
    expect(stderr).toBe('error: --active and --inactive cannot be used together\n');
  });

  it('a bad body is exit 2 with its fields named by flag, nothing sent: with --name, and without (before the contact is read)', async () => {
    const expected =
      'error: the contact is invalid: nothing was sent\n' +
      '  --email: The email field must be a valid email address.\n' +
      '  --gender takes one of male, female, other, got "robot"\n';
    // No interceptor: a request of either run would fail it otherwise.
    for (const name of [['--name', 'Ann'], []]) {
      const { code, stdout, stderr } = await api.run(['contacts', 'update', '7', ...name, '--email', 'nope', '--gender', 'robot']);
      expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: expected });
    }
  });
});

describe('contacts delete', () => {
  it('piped without --yes: exit 2, says to pass --yes, nothing sent', async () => {
    const { code, stdout, stderr } = await api.run(['contacts', 'delete', '7']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: deleting contact 7 needs --yes when not on a terminal\n');
  });

  it('--yes deletes, after reading the contact for the change journal; -o json prints the server answer', async () => {
    const answer = { message: 'Contact deleted successfully.', status: 200 };
    api.pool.intercept({ path: `${WSP}/contacts/7`, method: 'GET' }).reply(200, { data: contact(7) }, JSON_HEADERS);
    api.pool.intercept({ path: `${WSP}/contacts/7`, method: 'DELETE' }).reply(200, answer, JSON_HEADERS);
    const { code, stdout } = await api.run(['contacts', 'delete', '7', '--yes', '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(answer);
  });

  it('on a terminal reads the contact, asks naming it, then says what it did on stderr', async () => {
    meHolds(api, ['contacts.view', 'contacts.delete']);
    api.pool.intercept({ path: `${WSP}/contacts/7`, method: 'GET' }).reply(200, { data: contact(7, { name: 'Ann Lee' }) }, JSON_HEADERS);
    api.pool
      .intercept({ path: `${WSP}/contacts/7`, method: 'DELETE' })
      .reply(200, { message: 'Contact deleted successfully.', status: 200 }, JSON_HEADERS);
    const prompter = scriptedPrompter({ confirm: [true] });
    const { code, stdout, stderr } = await api.run(['contacts', 'delete', '7'], { stdinTTY: true, stdoutTTY: true, prompter });
    expect(code).toBe(0);
    expect(prompter.asked).toEqual([
      'Delete contact Ann Lee (id 7, 14155550007)? wsm undo can make it again, with a new id and all its values',
    ]);
    expect(stdout).toBe('');
    expect(stderr).toBe('\x1b[32m✓\x1b[39m deleted contact Ann Lee (id 7, 14155550007)\n');
  });

  it('on a terminal, a contact that does not exist is exit 4 before any question', async () => {
    noMe(api);
    api.pool
      .intercept({ path: `${WSP}/contacts/7`, method: 'GET' })
      .reply(404, { message: 'Resource not found.', status: 404 }, JSON_HEADERS);
    const prompter = scriptedPrompter({});
    const { code, stderr } = await api.run(['contacts', 'delete', '7'], { stdinTTY: true, prompter });
    expect(code).toBe(4);
    expect(prompter.asked).toEqual([]);
    expect(stderr).toBe('error: contact 7 not found\n');
  });

  it('on a terminal against a server without GET one contact: asks about the bare id (the journal finds it in the list)', async () => {
    noMe(api);
    api.pool
      .intercept({ path: `${WSP}/contacts/7`, method: 'GET' })
      .reply(405, { message: 'Method not allowed.' }, JSON_HEADERS)
      .times(2);
    api.pool.intercept({ path: `${WSP}/contacts?per_page=1`, method: 'GET' }).reply(200, page([contact(7)]), JSON_HEADERS);
    api.pool
      .intercept({ path: `${WSP}/contacts/7`, method: 'DELETE' })
      .reply(200, { message: 'Contact deleted successfully.', status: 200 }, JSON_HEADERS);
    const prompter = scriptedPrompter({ confirm: [true] });
    const { code } = await api.run(['contacts', 'delete', '7'], { stdinTTY: true, prompter });
    expect(code).toBe(0);
    expect(prompter.asked).toEqual(['Delete contact 7? wsm undo can make it again, with a new id and all its values']);
  });

  it('answering no on a terminal cancels (exit 2), nothing deleted', async () => {
    meHolds(api, ['contacts.delete']);
    api.pool.intercept({ path: `${WSP}/contacts/7`, method: 'GET' }).reply(200, { data: contact(7) }, JSON_HEADERS);
    const { code, stderr } = await api.run(['contacts', 'delete', '7'], {
      stdinTTY: true,
      prompter: scriptedPrompter({ confirm: [false] }),
    });
    expect(code).toBe(2);
    expect(stderr).toBe('error: cancelled\n');
  });
});

describe('contacts export', () => {
  it("contacts list -o csv and contacts get -o csv print the export's columns and cells (finding 16)", async () => {
    const fields = page(
      [
        { id: 1, name: 'city' },
        { id: 2, name: 'plan tier' },
      ],
      1,
      1,
      100,
    );
    const record = contact(1, {
      name: 'Lee, Ann',
      gender: 'female',
      fields: { city: 'Porto: north', 'plan tier': 'gold' },
      contact_groups: [
        { id: 3, name: 'News, weekly' },
        { id: 5, name: 'VIP' },
      ],
    });
    api.pool
      .intercept({ path: `${WSP}/contact-fields?per_page=100&page=1`, method: 'GET' })
      .reply(200, fields, JSON_HEADERS)
      .times(3);
    api.pool.intercept({ path: `${WSP}/contacts?per_page=100&page=1`, method: 'GET' }).reply(200, page([record], 1, 1, 100), JSON_HEADERS);
    api.pool.intercept({ path: `${WSP}/contacts`, method: 'GET' }).reply(200, page([record]), JSON_HEADERS);
    api.pool.intercept({ path: `${WSP}/contacts/1`, method: 'GET' }).reply(200, { data: record }, JSON_HEADERS);
    const exported = await api.run(['contacts', 'export']);
    expect(exported.stdout).toBe(
      'id,number,name,email,gender,status,contact_groups,created_at,updated_at,city,plan tier\n' +
        '1,14155550001,"Lee, Ann",,female,true,"[""News, weekly"",""VIP""]",2025-03-01T10:00:00.000Z,2025-03-01T10:00:00.000Z,Porto: north,gold\n',
    );
    const listed = await api.run(['contacts', 'list', '-o', 'csv']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(exported.stdout);
    const got = await api.run(['contacts', 'get', '1', '-o', 'csv']);
    expect(got.code).toBe(0);
    expect(got.stdout).toBe(exported.stdout);
  });

  it('writes a fixed header plus one column per contact field, then every page', async () => {
    api.pool
      .intercept({ path: `${WSP}/contact-fields?per_page=100&page=1`, method: 'GET' })
      .reply(200, page([{ id: 1, name: 'city' }], 1, 1, 100), JSON_HEADERS)
      .times(2);
    api.pool
      .intercept({ path: `${WSP}/contacts?per_page=100&search=example&page=1`, method: 'GET' })
      .reply(
        200,
        page(
          [
            contact(1, {
              name: 'Lee, Ann',
              email: 'a@example.com',
              fields: { city: 'Porto' },
              contact_groups: [
                { id: 3, name: 'A' },
                { id: 5, name: 'B' },
              ],
            }),
          ],
          1,
          2,
          100,
          2,
        ),
        JSON_HEADERS,
      )
      .times(2);
    api.pool
      .intercept({ path: `${WSP}/contacts?per_page=100&search=example&page=2`, method: 'GET' })
      .reply(200, page([contact(2, { gender: 'male' })], 2, 2, 100, 2), JSON_HEADERS)
      .times(2);
    const { code, stdout } = await api.run(['contacts', 'export', '--search', 'example']);
    expect(code).toBe(0);
    expect(stdout).toBe(
      'id,number,name,email,gender,status,contact_groups,created_at,updated_at,city\n' +
        '1,14155550001,"Lee, Ann",a@example.com,,true,"[""A"",""B""]",2025-03-01T10:00:00.000Z,2025-03-01T10:00:00.000Z,Porto\n' +
        '2,14155550002,Contact 2,,male,true,[],2025-03-01T10:00:00.000Z,2025-03-01T10:00:00.000Z,\n',
    );
    // `--output-file -` is standard output, as `-` is for --from: never a file named "-".
    const dashed = await api.run(['contacts', 'export', '--search', 'example', '--output-file', '-']);
    expect([dashed.code, dashed.stdout, dashed.stderr]).toEqual([0, stdout, '']);
  });
});

describe('contacts export stopped part way', () => {
  const firstPage = () =>
    page(
      Array.from({ length: 100 }, (_, i) => contact(i + 1)),
      1,
      3,
      100,
      250,
    );
  const fieldsAnswer = () =>
    api.pool.intercept({ path: `${WSP}/contact-fields?per_page=100&page=1`, method: 'GET' }).reply(200, page([], 1, 1, 100), JSON_HEADERS);

  it('a page that fails: the failure, then how many contacts were written and that the output is incomplete (exit 6)', async () => {
    fieldsAnswer();
    api.pool.intercept({ path: `${WSP}/contacts?per_page=100&page=1`, method: 'GET' }).reply(200, firstPage(), JSON_HEADERS);
    api.pool
      .intercept({ path: `${WSP}/contacts?per_page=100&page=2`, method: 'GET' })
      .reply(500, { message: 'Server error.', status: 500 }, JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['contacts', 'export', '--concurrency', '1']);
    expect(code).toBe(6);
    expect(stdout.trim().split('\n')).toHaveLength(101); // the header and page 1: whole rows only
    expect(stderr).toBe('error: page 2 of 3 failed: Server error. (500); 100 contacts were written: the output is incomplete\n');
  });

  it('Ctrl-C: how many contacts were written and that the output is incomplete (exit 130)', async () => {
    fieldsAnswer();
    api.pool.intercept({ path: `${WSP}/contacts?per_page=100&page=1`, method: 'GET' }).reply(200, firstPage(), JSON_HEADERS);
    api.pool
      .intercept({ path: (path) => /[?&]page=[23](&|$)/.test(path), method: 'GET' })
      .reply(200, page([], 2, 3, 100, 250), JSON_HEADERS)
      .delay(60_000)
      .times(2);
    const io = createTestIO({});
    const running = main(['contacts', 'export'], {
      io,
      env: { WSM_BASE_URL: BASE_URL, WSM_TOKEN: TOKEN, WSM_WORKSPACE: WS },
      configDir: join(api.dir, 'config'),
      dispatcher: api.agent,
    });
    while (!io.stdoutText.includes('\n100,')) await new Promise((resolve) => setTimeout(resolve, 5));
    process.emit('SIGINT');
    const code = await running;
    expect(io.stderrText).toBe('interrupted: the export stopped; 100 contacts were written: the output is incomplete\n');
    expect(code).toBe(130);
    expect(io.stdoutText.trim().split('\n')).toHaveLength(101);
    expect(io.stderrText).toBe('interrupted: the export stopped; 100 contacts were written: the output is incomplete\n');
  });
});
