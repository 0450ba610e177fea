import { writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  JSON_HEADERS,
  WS,
  WSP,
  contact,
  emptyWorkspace,
  formOf,
  importRecord,
  listFields,
  page,
  setupApi,
  type Api,
  NO_JOURNAL,
} from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

const GOOD = 'number,name,email\n+1 415 555 0101,Ann,ann@example.com\n14155550102,Bob,\n';
/** What GOOD's plan counts once it is imported into an empty workspace (a finished import's `summary`). */
const GOOD_SUMMARY = { created: 2, updated: 0, unchanged: 0, left_out: 0, failed: 0, contacts: 2, rows: 2 };
const MIXED =
  'Number , Name,EMAIL,gender\n14155550101,Ann,ann@example.com,female\n12,Bob,,\n14155550103,Cy,not-mail,robot\n\n14155550104,"Dee, Dee",,other\n';

function acceptUpload(api: Api, record = importRecord(5)) {
  const seen: { form?: Promise<FormData> } = {};
  api.pool.intercept({ path: `${WSP}/contact-imports`, method: 'POST' }).reply((opts) => {
    seen.form = formOf(opts);
    return {
      statusCode: 201,
      data: JSON.stringify({ status: 201, message: 'Contact import created successfully.', data: record }),
      responseOptions: JSON_HEADERS,
    };
  });
  return seen;
}

/** A server with wsm serve's extensions (its labels list answers): it reads a file as wsm does, so a quote never closed costs its row alone. */
function readsFilesAsWsm(api: Api) {
  api.pool.intercept({ path: (path) => path.startsWith(`${WSP}/labels?`), method: 'GET' }).reply(200, page([]), JSON_HEADERS);
}

/** The workspace's contacts and groups, none: a dry run's plan compares the file with them. */
function listNoContacts(api: Api) {
  api.pool.intercept({ path: `${WSP}/contacts?page=1&per_page=100`, method: 'GET' }).reply(200, page([]), JSON_HEADERS);
  api.pool.intercept({ path: `${WSP}/contact-groups?page=1&per_page=100`, method: 'GET' }).reply(200, page([]), JSON_HEADERS);
}

/** The workspace's contact groups, as the check of --group reads them before anything is sent. */
function workspaceGroups(ids: number[]): void {
  const groups = ids.map((id) => ({ id, name: `Group ${id}`, contacts_count: 0 }));
  api.pool.intercept({ path: `${WSP}/contact-groups?page=1&per_page=100`, method: 'GET' }).reply(200, page(groups), JSON_HEADERS);
}

describe('contacts import: local check', () => {
  it('--dry-run prints the row report with line numbers and sends nothing; invalid rows are exit 8, the report on stdout', async () => {
    const file = await api.file('mixed.csv', MIXED);
    listFields(api);
    listNoContacts(api);
    const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '--dry-run', '-o', 'json']);
    expect(code).toBe(8);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ file, columns: ['number', 'name', 'email', 'gender'], rows: 4, valid_rows: 2, invalid_rows: 2 });
    expect(report.problems).toEqual([
      { row: 3, line: 3, field: 'number', message: 'The number must be a phone number of 7 to 15 digits.' },
      { row: 4, line: 4, field: 'email', message: 'The email field must be a valid email address.' },
      { row: 4, line: 4, field: 'gender', message: 'The selected gender is invalid: it must be one of male, female, other.' },
    ]);
    expect(stderr).toBe(
      `warning: ${file} row 3: number: The number must be a phone number of 7 to 15 digits.\n` +
        `warning: ${file} row 4: email: The email field must be a valid email address.\n` +
        `warning: ${file} row 4: gender: The selected gender is invalid: it must be one of male, female, other.\n` +
        `error: 2 of 4 rows in ${file} are invalid\n`,
    );
  });

  it('--strict refuses a file with bad rows: exit 2, each problem listed, nothing sent', async () => {
    const file = await api.file('mixed.csv', MIXED);
    emptyWorkspace(api);
    const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '--strict']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `error: ${file}: 2 of 4 rows are invalid (--strict): nothing was sent\n` +
        '  row 3 number: The number must be a phone number of 7 to 15 digits.\n' +
        '  row 4 email: The email field must be a valid email address.\n' +
        '  row 4 gender: The selected gender is invalid: it must be one of male, female, other.\n',
    );
  });

  it('a file without a number column is exit 2, nothing sent', async () => {
    const file = await api.file('nonumber.csv', 'phone,name\n14155550101,Ann\n');
    const { code, stderr } = await api.run(['contacts', 'import', file]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `error: ${file} has no "number" column: the header row must name one\n  number: The header row must have a number column.\n`,
    );
  });

  it('an unreadable file is one line, exit 2, nothing sent', async () => {
    for (const [file, reason] of [
      ['/nonexistent/x.csv', 'ENOENT'],
      [api.dir, 'EISDIR'],
    ]) {
      const { code, stderr } = await api.run(['contacts', 'import', file]);
      expect({ code, stderr }).toEqual({ code: 2, stderr: `error: cannot read ${file} (${reason})\n` });
    }
  });

  it('an unreadable or empty file is exit 2, nothing sent', async () => {
    const empty = await api.file('empty.csv', '');
    for (const [file, message] of [
      ['/nonexistent/x.csv', 'cannot read /nonexistent/x.csv (ENOENT)'],
      [api.dir, `cannot read ${api.dir} (EISDIR)`],
      [empty, 'is not a CSV file with a header row: it is empty'],
    ]) {
      const { code, stderr } = await api.run(['contacts', 'import', file]);
      expect(code, file).toBe(2);
      expect(stderr).toContain(message);
    }
  });
});

describe('contacts import: upload', () => {
  it('sends name, group and the file as multipart, warns about bad rows, prints the import', async () => {
    const file = await api.file('mixed.csv', MIXED);
    emptyWorkspace(api);
    workspaceGroups([3]);
    const seen = acceptUpload(api, importRecord(5, { name: 'March', total_rows: 4 }));
    const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '--name', 'March', '--group', '3']);
    expect(code).toBe(0);
    expect((await seen.form!).get('name')).toBe('March');
    expect((await seen.form!).get('contact_groups')).toBe('3');
    const sent = (await seen.form!).get('file') as File;
    expect(sent.name).toBe('mixed.csv');
    expect(sent.type).toBe('text/csv');
    expect(await sent.text()).toBe(MIXED);
    expect(stdout).toContain('id\t5\nname\tMarch\nstatus\tpending\n');
    expect(stderr).toContain(`warning: ${file} row 3: number:`);
    expect(stderr).toContain('warning: sent anyway: the server skips the 2 invalid rows (use --strict to refuse the file)\n');
  });

  it('with --apply-flagged a file is checked after it is sent; one that changes once sent still reports its import, the check a warning', async () => {
    const file = await api.file('moving.csv', GOOD);
    api.pool.intercept({ path: `${WSP}/contact-imports`, method: 'POST' }).reply(() => {
      writeFileSync(file, 'phone,name\n14155550101,Ann\n'); // replaced while it uploads
      return {
        statusCode: 201,
        data: JSON.stringify({ status: 201, message: 'Contact import created successfully.', data: importRecord(5) }),
        responseOptions: JSON_HEADERS,
      };
    });
    const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '-q', '--apply-flagged']);
    expect(code).toBe(0);
    expect(stdout).toBe('5\n');
    expect(stderr).toBe(
      `warning: the rows of ${file} were not checked after sending: ${file} has no "number" column: the header row must name one\n`,
    );
  });

  it('the import name defaults to the file name; -q prints the id', async () => {
    const file = await api.file('good.csv', GOOD);
    emptyWorkspace(api);
    const seen = acceptUpload(api);
    const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '-q']);
    expect(code).toBe(0);
    expect((await seen.form!).get('name')).toBe('good.csv');
    expect((await seen.form!).has('contact_groups')).toBe(false);
    expect(stdout).toBe('5\n');
    expect(stderr).toBe('');
  });

  it('--wait polls the import until it is completed, then prints the final record', async () => {
    const file = await api.file('good.csv', GOOD);
    emptyWorkspace(api);
    acceptUpload(api, importRecord(5, { total_rows: 2 }));
    api.pool
      .intercept({ path: `${WSP}/contact-imports/5`, method: 'GET' })
      .reply(200, { data: importRecord(5, { status: 'processing', total_rows: 2, processed_rows: 1 }) }, JSON_HEADERS);
    const done = importRecord(5, {
      status: 'completed',
      total_rows: 2,
      processed_rows: 2,
      created_count: 2,
      finished_at: '2025-03-01T10:01:00.000Z',
    });
    api.pool.intercept({ path: `${WSP}/contact-imports/5`, method: 'GET' }).reply(200, { data: done }, JSON_HEADERS);
    const { code, stdout } = await api.run(['contacts', 'import', file, '--wait', '--interval', '0s', '-o', 'json']);
    expect(code).toBe(0);
    // The server's record as it came, and the plan's counts of what it did.
    expect(JSON.parse(stdout)).toEqual({ ...done, summary: GOOD_SUMMARY });
  });

  it('--wait on a terminal draws progress on stderr; rows the server skipped are exit 8', async () => {
    const file = await api.file('good.csv', GOOD);
    emptyWorkspace(api);
    acceptUpload(api, importRecord(5, { total_rows: 2 }));
    const done = importRecord(5, {
      status: 'completed',
      total_rows: 2,
      processed_rows: 2,
      created_count: 1,
      failed_count: 1,
      errors: [{ row: 3, line: 3, message: 'bad', failed: true }],
    });
    api.pool.intercept({ path: `${WSP}/contact-imports/5`, method: 'GET' }).reply(200, { data: done }, JSON_HEADERS);
    const { code, stderr } = await api.run(['contacts', 'import', file, '--wait', '--interval', '0s', '--no-color'], {
      stdoutTTY: true,
      columns: 120,
    });
    expect(code).toBe(8);
    expect(stderr).toMatch(/Importing contacts\.csv ░+ 0% \| 0\/2/);
    // The plan's 2 new contacts, the one whose row the server refused moved into failed; its counters agree.
    expect(stderr).toContain(
      'Import 5 completed: 1 created, 0 unchanged, 0 rows left out, 1 row failed; 2 contacts from 2 rows.\n' +
        'error: import 5: 1 of 2 rows failed (`wsm imports errors 5` lists them)\n',
    );
  });

  it('--wait on a backend without GET import polls the import list instead; the file is sent once', async () => {
    const file = await api.file('good.csv', GOOD);
    emptyWorkspace(api);
    acceptUpload(api);
    api.pool.intercept({ path: `${WSP}/contact-imports/5`, method: 'GET' }).reply(405, { message: 'Method not allowed.' }, JSON_HEADERS);
    const listed = `${WSP}/contact-imports?per_page=100&page=1`;
    api.pool
      .intercept({ path: listed, method: 'GET' })
      .reply(200, page([importRecord(4, { status: 'completed' }), importRecord(5, { status: 'processing' })]), JSON_HEADERS);
    const done = importRecord(5, { status: 'completed', created_count: 2 });
    api.pool.intercept({ path: listed, method: 'GET' }).reply(200, page([importRecord(4, { status: 'completed' }), done]), JSON_HEADERS);
    const { code, stdout } = await api.run(['contacts', 'import', file, '--wait', '--interval', '0s', '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ ...done, summary: GOOD_SUMMARY });
  });

  it("--wait when the server's import record has no status is exit 1 naming the field, after one upload", async () => {
    const file = await api.file('good.csv', GOOD);
    emptyWorkspace(api);
    acceptUpload(api, { id: 5, name: 'good.csv' } as never);
    const { code, stderr } = await api.run(['contacts', 'import', file, '--wait', '--interval', '0s']);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `✓ uploaded ${file} as import 5\nerror: the server's record of import 5 has no \`status\` field, so wsm cannot tell when it is finished: it was uploaded once, do not upload it again\n`,
    );
  });

  it('a failed import under --wait is exit 1 with its reason', async () => {
    const file = await api.file('good.csv', GOOD);
    emptyWorkspace(api);
    acceptUpload(api);
    api.pool
      .intercept({ path: `${WSP}/contact-imports/5`, method: 'GET' })
      .reply(
        200,
        { data: importRecord(5, { status: 'failed', errors: [{ row: 0, message: 'The file could not be read.' }] }) },
        JSON_HEADERS,
      );
    const { code, stderr } = await api.run(['contacts', 'import', file, '--wait', '--interval', '0s']);
    expect(code).toBe(1);
    expect(stderr).toBe(`✓ uploaded ${file} as import 5\nerror: import 5 failed: The file could not be read.\n`);
  });

  it('--wait past --timeout is exit 6: the import keeps running, and the line says how to wait again', async () => {
    const file = await api.file('good.csv', GOOD);
    emptyWorkspace(api);
    acceptUpload(api, importRecord(5, { status: 'processing' }));
    // A profile named explicitly must exist.
    expect((await api.run(['profile', 'set', 'workspace', WS, '--profile', 'ci'])).code).toBe(0);
    const { code, stderr } = await api.run(['contacts', 'import', file, '--wait', '--timeout', '0s', '--profile', 'ci']);
    expect(code).toBe(6);
    expect(stderr).toBe(
      `✓ uploaded ${file} as import 5\nerror: timed out after 0s: import 5 still processing: import 5 keeps running on the server: \`wsm imports get 5 --wait --profile ci\`\n`,
    );
  });

  it('a 413 from the server is exit 1 with its message', async () => {
    const file = await api.file('good.csv', GOOD);
    emptyWorkspace(api);
    api.pool
      .intercept({ path: `${WSP}/contact-imports`, method: 'POST' })
      .reply(413, { message: 'Payload too large.', status: 413 }, JSON_HEADERS);
    const { code, stderr } = await api.run(['contacts', 'import', file]);
    expect(code).toBe(1);
    expect(stderr).toBe('error: Payload too large. (413)\n');
  });
});

describe('imports verbs', () => {
  it('list prints one row an import; get shows the errors', async () => {
    api.pool
      .intercept({ path: `${WSP}/contact-imports`, method: 'GET' })
      .reply(200, page([importRecord(5, { status: 'completed', processed_rows: 3, created_count: 3 })]), JSON_HEADERS);
    const list = await api.run(['imports', 'list']);
    expect(list.code).toBe(0);
    // Piped, ROWS is the server's processed_rows (finding 16); the terminal reads it as 3/3 (below).
    expect(list.stdout).toBe('5\tcontacts.csv\tcompleted\t3\t3\t0\t0\t2025-03-01T10:00:00.000Z\n');

    api.pool.intercept({ path: `${WSP}/contact-imports/5`, method: 'GET' }).reply(
      200,
      {
        data: importRecord(5, {
          contact_group: { id: 3, name: 'VIP' },
          errors: [{ row: 1, message: 'Unknown column "x" was ignored.' }],
        }),
      },
      JSON_HEADERS,
    );
    // Piped, the errors and the group are data (finding 16); on a terminal they read as lines (user-words.test.ts).
    const get = await api.run(['imports', 'get', '5']);
    expect(get.stdout).toContain('errors\t[{"row":1,"message":"Unknown column \\"x\\" was ignored."}]\n');
    expect(get.stdout).toContain('contact_group\t{"id":3,"name":"VIP"}\n');
  });

  it('list on a narrow terminal keeps counts and statuses whole: the name is cut, then the time goes (finding 14)', async () => {
    const big = importRecord(4, {
      name: 'big-customer-list.csv',
      status: 'completed',
      total_rows: 300000,
      processed_rows: 300000,
      created_count: 300000,
    });
    const small = importRecord(5, { status: 'processing', total_rows: 12000, processed_rows: 1500, created_count: 1500, failed_count: 3 });
    const list = async (columns: number) => {
      api.pool.intercept({ path: `${WSP}/contact-imports`, method: 'GET' }).reply(200, page([big, small]), JSON_HEADERS);
      const { code, stdout } = await api.run(['imports', 'list', '--no-color'], { stdoutTTY: true, columns });
      expect(code).toBe(0);
      return stdout.trimEnd().split('\n');
    };
    const at60 = await list(60);
    expect(at60).toEqual([
      'ID  NAME  STATUS      ROWS           NEW     UPDATED  FAILED',
      '4   big…  completed   300000/300000  300000  0        0',
      '5   con…  processing  1500/12000     1500    0        3',
    ]);
    for (const line of at60) expect(line.length, line).toBeLessThanOrEqual(60);
    const at120 = await list(120);
    expect(at120[0]).toMatch(/^ID  NAME +STATUS +ROWS +NEW +UPDATED +FAILED +CREATED$/);
    expect(at120[1]).toMatch(/^4   big-customer-list\.csv +completed +300000\/300000 +300000 +0 +0 +\S.* ago$/);
    // In between, the time is whole or left out, never cut to `CREAT…` / `2 mon…` (re-trial finding).
    for (const width of [64, 68, 72, 76, 80, 86, 92, 100]) {
      const lines = await list(width);
      const withTime = lines[0].endsWith(' CREATED');
      expect(withTime || lines[0].endsWith(' FAILED'), `${width}: ${lines[0]}`).toBe(true);
      for (const line of lines.slice(1)) expect(line.endsWith(' ago'), `${width}: ${line}`).toBe(withTime);
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width);
    }
  });

  it('create uploads like contacts import', async () => {
    const file = await api.file('good.csv', GOOD);
    emptyWorkspace(api);
    workspaceGroups([2]);
    const seen = acceptUpload(api);
    const { code } = await api.run(['imports', 'create', file, '--name', 'Q1', '--group', '2']);
    expect(code).toBe(0);
    expect((await seen.form!).get('name')).toBe('Q1');
    expect((await seen.form!).get('contact_groups')).toBe('2');
  });

  it('delete needs --yes when piped, then DELETEs', async () => {
    expect((await api.run(['imports', 'delete', '5'])).code).toBe(2);
    api.pool
      .intercept({ path: `${WSP}/contact-imports/5`, method: 'DELETE' })
      .reply(200, { message: 'Contact import deleted successfully.', status: 200 }, JSON_HEADERS);
    const { code, stdout } = await api.run(['imports', 'delete', '5', '-y', '-q'], NO_JOURNAL);
    expect(code).toBe(0);
    expect(stdout).toBe('5\n');
  });
});

describe('contacts import: line numbers and encodings', () => {
  it('counts lines like the server: CRLF, a quoted value over two lines, blank lines, a BOM and any header case', async () => {
    // RFC 4180 (decisions.md §8): the quoted "x / y" is one value of the row that starts on line 3.
    const file = await api.file('crlf.csv', '\ufeffNUMBER,Name\r\n12,a\r\n"13","x\r\ny"\r\n14155550100,b\r\n\r\n15,c\r\n');
    const { code, stdout } = await api.run(['contacts', 'import', file, '--dry-run', '-o', 'json']);
    expect(code).toBe(8);
    const report = JSON.parse(stdout);
    expect(report.columns).toEqual(['number', 'name']);
    expect(report.problems.map((p: { line: number }) => p.line)).toEqual([2, 3, 7]);
    // The spreadsheet's rows: the quoted line break puts every row after it one line further down.
    expect(report.problems.map((p: { row: number }) => p.row)).toEqual([2, 3, 6]);
    expect([report.rows, report.valid_rows]).toEqual([4, 1]);
  });

  it('a file that is not UTF-8 text is exit 2 naming the line and what it looks like, nothing sent', async () => {
    const file = await api.file('latin1.csv', Buffer.from('number,name\n14155550100,Jos\xe9\n', 'latin1'));
    const { code, stderr } = await api.run(['contacts', 'import', file]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `error: ${file} line 2 is not UTF-8 (byte 0xE9, "é" in Windows-1252: the file looks like Windows-1252); nothing was sent. ` +
        'Save it as "CSV UTF-8", or convert it: iconv -f WINDOWS-1252 -t UTF-8 old.csv > new.csv\n',
    );
  });

  it('the whole file is checked, not a sample: a Windows-1252 byte far past 64 KiB is found on its line', async () => {
    const rows = Array.from({ length: 70_000 }, (_, i) => `${14_155_500_000 + i},Person ${i}`);
    const file = await api.file(
      'late.csv',
      Buffer.concat([Buffer.from(`number,name\n${rows.join('\n')}\n`), Buffer.from('14155599999,Zo\xeb\n', 'latin1')]),
    );
    for (const argv of [
      ['contacts', 'import', file],
      ['contacts', 'import', file, '--dry-run'],
    ]) {
      const { code, stderr } = await api.run(argv);
      expect(code).toBe(2);
      expect(stderr).toMatch(new RegExp(`^error: ${file} line 70002 is not UTF-8 \\(byte 0xEB, "ë" in Windows-1252`));
    }
  });

  it('a UTF-16 file with its BOM (Excel\'s "Unicode text") is read, and said so', async () => {
    const text = '\ufeffnumber,name\r\n14155550101,Zoë\r\n14155550102,Ñúñez\r\n';
    for (const [name, bytes, encoding] of [
      ['le.csv', Buffer.from(text, 'utf16le'), 'little-endian'],
      ['be.csv', Buffer.from(text, 'utf16le').swap16(), 'big-endian'],
    ] as const) {
      const file = await api.file(name, bytes);
      listFields(api);
      listNoContacts(api);
      const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '--dry-run', '-o', 'json']);
      expect(code, stderr).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ columns: ['number', 'name'], rows: 2, valid_rows: 2 });
      expect(stderr).toBe(`${file}: the file is read as UTF-16 (${encoding}) text (its byte order mark says so).\n`);
    }
  });

  it('Excel\'s "Unicode text" (UTF-16 little-endian, tab-separated) is read, and both are said', async () => {
    const file = await api.file('unicode.txt', Buffer.from('\ufeffnumber\tname\r\n14155550101\t"Zoë, ""Z"""\r\n', 'utf16le'));
    listFields(api);
    listNoContacts(api);
    const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '--dry-run', '-o', 'json']);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ columns: ['number', 'name'], rows: 1, valid_rows: 1 });
    expect(stderr).toBe(
      `${file}: the file is read as UTF-16 (little-endian) text (its byte order mark says so).\n${file}: the file is read as tab-separated: its header row splits on tabs.\n`,
    );
  });

  it('a header that splits on a semicolon or a tab is read with that separator, and said so', async () => {
    for (const [name, content, words] of [
      [
        'semicolon.csv',
        'number;name;email\n14155550101;"Lee, Ann";ann@example.com\n14155550102;Bob;\n',
        'semicolon-separated: its header row splits on ";"',
      ],
      ['tab.csv', 'number\tname\n14155550101\tAnn\n', 'tab-separated: its header row splits on tabs'],
    ]) {
      const file = await api.file(name, content);
      listFields(api);
      listNoContacts(api);
      const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '--dry-run', '-o', 'json']);
      expect(code, stderr).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ invalid_rows: 0 });
      expect(stderr).toBe(`${file}: the file is read as ${words}.\n`);
    }
  });
});

describe('contacts import: failures fail (exit 8) and one set of rules', () => {
  const BAD_ONLY = 'number,name\n12,Ann\nx,Bob\n';

  it('a file with no valid row is refused before the upload: exit 2, nothing sent (the mock has no upload)', async () => {
    const file = await api.file('bad.csv', BAD_ONLY);
    emptyWorkspace(api);
    const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '--wait']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `error: ${file} has no valid row (all 2 rows are invalid): nothing was sent\n` +
        '  row 2 number: The number must be a phone number of 7 to 15 digits.\n' +
        '  row 3 number: The number must be a phone number of 7 to 15 digits.\n',
    );
    const header = await api.file('header.csv', 'number,name\n');
    emptyWorkspace(api);
    expect((await api.run(['contacts', 'import', header])).stderr).toBe(
      `error: ${header} has no rows after its header: nothing was sent\n`,
    );
  });

  it('--dry-run of a file with no valid row is exit 2; -o json keeps the report on stdout', async () => {
    const file = await api.file('bad.csv', BAD_ONLY);
    listFields(api);
    const { code, stdout } = await api.run(['contacts', 'import', file, '--dry-run', '-o', 'json']);
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toMatchObject({ rows: 2, valid_rows: 0, invalid_rows: 2 });
  });

  it('--max-failures N or N% tolerates that many invalid rows (exit 0, said on stderr); one more is exit 8', async () => {
    const file = await api.file('mixed.csv', MIXED); // 2 of 4 rows invalid
    const run = async (limit: string) => {
      listFields(api);
      return api.run(['contacts', 'import', file, '--dry-run', '--max-failures', limit]);
    };
    expect((await run('2')).code).toBe(0);
    expect((await run('50%')).stderr).toContain(`warning: 2 of 4 rows in ${file} are invalid (tolerated: --max-failures 50%)\n`);
    expect((await run('1')).code).toBe(8);
    expect((await run('49.9%')).code).toBe(8);
    const bad = await api.run(['contacts', 'import', file, '--dry-run', '--max-failures', 'some']);
    expect([bad.code, bad.stderr]).toEqual([2, 'error: --max-failures takes a number of items or a share such as 1%, got "some"\n']);
  });

  it('--wait: an import with failed rows is exit 8 with the record on stdout (-o json); --max-failures tolerates them', async () => {
    const file = await api.file('good.csv', GOOD);
    const done = importRecord(5, {
      status: 'completed',
      total_rows: 425_291,
      processed_rows: 425_291,
      failed_count: 425_290,
      created_count: 1,
    });
    for (const [flags, expected] of [
      [[], 8],
      [['--max-failures', '100%'], 0],
    ] as const) {
      emptyWorkspace(api);
      acceptUpload(api, importRecord(5, { total_rows: 2 }));
      api.pool.intercept({ path: `${WSP}/contact-imports/5`, method: 'GET' }).reply(200, { data: done }, JSON_HEADERS);
      const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '--wait', '--interval', '0s', '-o', 'json', ...flags]);
      expect(code).toBe(expected);
      // The record as the server sent it, with the plan's counts of the 2 rows sent; their disagreement said, the server's figures first.
      expect(JSON.parse(stdout)).toEqual({ ...done, summary: GOOD_SUMMARY });
      expect(stderr).toContain(
        'warning: import 5: the server counts 1 created, 0 updated, 425,290 failed where the plan expects 2 created, 0 updated, 0 failed of the rows sent: some rows were not applied as planned\n',
      );
      expect(stderr).toContain(`import 5: 425,290 of 425,291 rows failed (\`wsm imports errors 5\` lists them)`);
    }
  });

  it('imports get --wait exits 8 the same way', async () => {
    const done = importRecord(7, { status: 'completed', total_rows: 3, processed_rows: 3, failed_count: 1, created_count: 2 });
    api.pool.intercept({ path: `${WSP}/contact-imports/7`, method: 'GET' }).reply(200, { data: done }, JSON_HEADERS);
    const { code, stderr } = await api.run(['imports', 'get', '7', '--wait', '--interval', '0s']);
    expect(code).toBe(8);
    expect(stderr).toBe('error: import 7: 1 of 3 rows failed (`wsm imports errors 7` lists them)\n');
  });

  it('a row is held to the rules of contacts create: a field value past 1,024 characters, a name past 50', async () => {
    const long = 'x'.repeat(2000);
    const file = await api.file(
      'fields.csv',
      `number,name,note,other\n14155550101,Ann,${long},${long}\n14155550102,${'n'.repeat(51)},ok,\n14155550103,Cy,fine,\n`,
    );
    listFields(api, ['note']);
    const { code, stdout } = await api.run(['contacts', 'import', file, '--dry-run', '-o', 'json']);
    expect(code).toBe(8);
    // `other` is not a field of the workspace: the server ignores it, so the check does too.
    expect(JSON.parse(stdout).problems).toEqual([
      { row: 2, line: 2, field: 'fields.note', message: 'The note field must not be greater than 1024 characters.' },
      { row: 3, line: 3, field: 'name', message: 'The name field must not be greater than 50 characters.' },
    ]);
  });
});

describe('contacts import: changes that look made by a spreadsheet are left out, cell by cell', () => {
  const SCIENTIFIC = 'number,name,email\n14155550101,1.23457E+16,ann@example.com\n14155550102,Bob,\n';
  const sentFile = async (seen: { form?: Promise<FormData> }) => ((await seen.form!).get('file') as File).text();

  it("a value that would lose its leading zeros is emptied in the upload (the import keeps the stored one), the row's other cells sent; --apply-flagged sends the file as it is", async () => {
    const file = await api.file('zeros.csv', 'number,name,email\n14155550001,7,new@example.com\n14155550002,Ann,\n');
    api.pool.intercept({ path: `${WSP}/contacts?per_page=1`, method: 'GET' }).reply(200, page([contact(1, { name: '007' })]), JSON_HEADERS);
    const seen = acceptUpload(api);
    const kept = await api.run(['contacts', 'import', file, '-q']);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stderr).toBe(
      `warning: ${file} row 2, contact 1: name: "007" kept, not "7": "007" would lose its leading zeros, as a spreadsheet drops them\n` +
        `warning: ${file}: 1 cell looks changed by a spreadsheet and was kept as stored: --apply-flagged to apply it\n`,
    );
    expect(await sentFile(seen)).toBe('number,name,email\n14155550001,,new@example.com\n14155550002,Ann,\n');
    const applied = acceptUpload(api);
    const sent = await api.run(['contacts', 'import', file, '--apply-flagged', '-q']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(await sentFile(applied)).toBe('number,name,email\n14155550001,7,new@example.com\n14155550002,Ann,\n');
  });

  it('a workspace over 10,000 contacts is not read: the numbers of the file are looked up by search, and the rows planned against them', async () => {
    const file = await api.file('sci.csv', SCIENTIFIC);
    api.pool
      .intercept({ path: `${WSP}/contacts?per_page=1`, method: 'GET' })
      .reply(200, page([contact(1)], 1, 10_001, 1, 10_001), JSON_HEADERS)
      .times(3);
    // The plan finds the file's two numbers by search (none is stored), once it has seen the search find contact 1 by its number,
    // and, as none found a number stored with more leading zeros, by the end of its number (the search matches parts of numbers);
    // the journal takes what the plan found.
    api.pool
      .intercept({ path: (path: string) => path.startsWith(`${WSP}/contacts?`) && path.includes('search='), method: 'GET' })
      .reply(({ path }) => ({
        statusCode: 200,
        data: page('14155550001'.includes(/search=(\d+)/.exec(path)![1]) ? [contact(1)] : []),
        responseOptions: JSON_HEADERS,
      }))
      .times(5);
    const seen = acceptUpload(api);
    const { code, stderr } = await api.run(['contacts', 'import', file]);
    expect(code).toBe(0);
    expect(stderr).toBe(
      'the workspace holds over 10,000 contacts: the rows were compared with the contacts of their 2 numbers, each looked up by itself\n' +
        `warning: ${file} row 2, new contact 14155550101: name: "Unknown" (the server's name for a new contact without one), not "1.23457E+16": "1.23457E+16" is in scientific notation, as a spreadsheet writes a long number: its last digits may be lost\n` +
        `warning: ${file}: 1 cell looks changed by a spreadsheet and was left out: --apply-flagged to apply it\n` +
        `✓ uploaded ${file} as import 5\n`,
    );
    expect(await sentFile(seen)).toBe('number,name,email\n14155550101,,ann@example.com\n14155550102,Bob,\n');
  });

  it('a token that may import but not list contacts: said, and the rows are checked by the file alone', async () => {
    const file = await api.file('good.csv', GOOD);
    api.pool
      .intercept({ path: `${WSP}/contacts?per_page=1`, method: 'GET' })
      .reply(403, { message: 'This action is unauthorized.', status: 403 }, JSON_HEADERS);
    acceptUpload(api);
    const { code, stderr } = await api.run(['contacts', 'import', file]);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(
      /^the workspace's contacts could not be read \(.*\): the rows were checked for scientific notation only\n✓ uploaded .*good\.csv as import 5\n$/,
    );
  });

  it('the upload is the file byte for byte but the rows with held cells: line ends, quotes and a row that cannot be read stay as written', async () => {
    const rows = [
      'number,name,email',
      '14155550101,"Ann",ann@example.com',
      '14155550104,"never closed,x',
      '14155550102,1E+5,"bob@example.com"',
      '14155550103,"Cid ""C""",',
    ];
    const file = await api.file('crlf.csv', `${rows.join('\r\n')}\r\n`);
    readsFilesAsWsm(api);
    emptyWorkspace(api);
    const seen = acceptUpload(api);
    const { code, stderr } = await api.run(['contacts', 'import', file, '-q']);
    expect(code, stderr).toBe(0);
    // Only the held row is written anew (its cells quoted where they need it).
    expect(await sentFile(seen)).toBe(`${rows.join('\r\n').replace(',1E+5,"bob@example.com"', ',,bob@example.com')}\r\n`);
  });

  it('a file with a held cell goes at once: the held cells are said before the upload, its rows checked and the rows naming one contact said after it', async () => {
    const file = await api.file('zeros.csv', 'number,name,email\n14155550101,0012345,\n14155550102,Bob,not-an-email\n14155550101,12345,\n');
    emptyWorkspace(api);
    const seen = acceptUpload(api);
    const { code, stderr } = await api.run(['contacts', 'import', file]);
    expect(code, stderr).toBe(0);
    expect(stderr).toBe(
      `warning: ${file} rows 2, 4, new contact 14155550101: name: "0012345" kept, not "12345": "0012345" would lose its leading zeros, as a spreadsheet drops them\n` +
        `warning: ${file}: 1 cell looks changed by a spreadsheet and was left out: --apply-flagged to apply it\n` +
        `✓ uploaded ${file} as import 5\n` +
        `warning: ${file} row 3: email: The email field must be a valid email address.\n` +
        `warning: ${file} rows 2, 4, new contact 14155550101: the rows name one contact and are applied in order, the last row's values win (--strict refuses such a file)\n` +
        'warning: sent anyway: the server skips the invalid row (use --strict to refuse the file)\n',
    );
    expect(await sentFile(seen)).toBe('number,name,email\n14155550101,0012345,\n14155550102,Bob,not-an-email\n14155550101,,\n');
  });

  it('a held contact a row named before with values nothing like damage: the whole file is planned first, so the held line shows what that row set', async () => {
    const file = await api.file('named.csv', 'number,name\n14155550101,Bob\n14155550102,Cy\n14155550101,1E+5\n');
    emptyWorkspace(api);
    const seen = acceptUpload(api);
    const { code, stderr } = await api.run(['contacts', 'import', file, '-q']);
    expect(code, stderr).toBe(0);
    expect(stderr).toBe(
      `warning: ${file} rows 2, 4, new contact 14155550101: the rows name one contact and are applied in order, the last row's values win (--strict refuses such a file)\n` +
        `warning: ${file} rows 2, 4, new contact 14155550101: name: "Bob" kept, not "1E+5": "1E+5" is in scientific notation, as a spreadsheet writes a long number: its last digits may be lost\n` +
        `warning: ${file}: 1 cell looks changed by a spreadsheet and was left out: --apply-flagged to apply it\n`,
    );
    expect(await sentFile(seen)).toBe('number,name\n14155550101,Bob\n14155550102,Cy\n14155550101,\n');
  });

  it('more than ten held cells: ten named, the rest counted', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => `141555501${String(i).padStart(2, '0')},1.2E+${10 + i}`);
    const file = await api.file('many.csv', `number,name\n${rows.join('\n')}\n`);
    emptyWorkspace(api);
    const seen = acceptUpload(api);
    const { code, stderr } = await api.run(['contacts', 'import', file, '-q']);
    expect(code).toBe(0);
    expect(await sentFile(seen)).toBe(`number,name\n${rows.map((row) => `${row.split(',')[0]},`).join('\n')}\n`);
    expect(stderr.match(/^warning: .* is in scientific notation/gm)).toHaveLength(10);
    expect(stderr).toContain('warning: and 2 more (--dry-run lists them all)\n');
    expect(stderr).toContain(`warning: ${file}: 12 cells look changed by a spreadsheet and were left out: --apply-flagged to apply them\n`);
  });

  it('a record over several lines and a row left out keep their lines, so the server names the rows the file has', async () => {
    const file = await api.file(
      'lines.csv',
      'number,name,note\n7700900123,Ann,"two\nlines"\n14155550102,1E+5,x\n14155550103,"Cid\r\nJr",\n',
    );
    listFields(api, ['note']);
    api.pool
      .intercept({ path: `${WSP}/contacts?per_page=1`, method: 'GET' })
      .reply(200, page([contact(1, { number: '07700900123' })]), JSON_HEADERS);
    const seen = acceptUpload(api);
    expect((await api.run(['contacts', 'import', file, '-q'])).code).toBe(0);
    expect(await sentFile(seen)).toBe('number,name,note\n,,"\n"\n14155550102,,x\n14155550103,"Cid\r\nJr",\n');
  });
});

describe('contacts import: a row that cannot be read at all', () => {
  it('is named by its row alone, with no field to blame, in the warning, the plan and --strict', async () => {
    const file = await api.file('open.csv', 'number,name\n14155550101,Ann\n14155550102,"Bob\n');
    listFields(api);
    readsFilesAsWsm(api);
    listNoContacts(api);
    const dry = await api.run(['contacts', 'import', file, '--dry-run']);
    expect(dry.stderr).toContain(`warning: ${file} row 3: The row has a quoted value that is not closed`);
    expect(dry.stdout).toContain('x row 3: invalid\n    The row has a quoted value that is not closed');
    readsFilesAsWsm(api);
    emptyWorkspace(api);
    const strict = await api.run(['contacts', 'import', file, '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('\n  row 3: The row has a quoted value that is not closed');
  });
});
