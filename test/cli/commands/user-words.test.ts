// Errors in the user's words (what a new user's first session found): what reaches
// stderr, and the exit code, for the mistakes a new user makes first.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JSON_HEADERS, WS, WSP, contact, importRecord, page, setupApi, type Api, NO_JOURNAL } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

describe('profiles and login', () => {
  it('a --profile or WSM_PROFILE that does not exist is named, exit 2, nothing sent', async () => {
    for (const [argv, env] of [
      [['--profile', 'nosuch', 'contacts', 'list'], {}],
      [['contacts', 'list'], { WSM_PROFILE: 'nosuch' }],
      [['--profile', 'nosuch', '-w', WS, 'contacts', 'list'], {}],
    ] as const) {
      const { code, stderr } = await api.run([...argv], { env });
      expect(stderr, argv.join(' ')).toBe('error: no profile named "nosuch" (see `wsm profile list`)\n');
      expect(code).toBe(2);
    }
  });

  it('a fresh install is told to log in before being told to pick a workspace', async () => {
    const { code, stderr } = await api.run(['contacts', 'list'], {
      env: { WSM_BASE_URL: undefined, WSM_TOKEN: undefined, WSM_WORKSPACE: undefined },
    });
    expect(stderr).toBe('error: not logged in: run `wsm auth login` or `wsm serve`\n');
    expect(code).toBe(2);
  });

  it('an empty --profile, --workspace, --base-url or --token (a shell variable left unset) is exit 2, never the current profile', async () => {
    for (const argv of [
      ['--profile', '', 'contacts', 'list'],
      ['contacts', 'list', '-w', ''],
      ['--base-url', ' ', 'contacts', 'list'],
      ['--token', '', 'contacts', 'delete', '1', '--yes'],
      ['serve', '--profile', '', '--port', '0'],
    ]) {
      const { code, stdout, stderr } = await api.run(argv);
      const flag = argv[argv.findIndex((a) => a.trim() === '') - 1];
      expect(stderr, argv.join(' ')).toBe(`error: ${flag === '-w' ? '--workspace' : flag} needs a value, got an empty one\n`);
      expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    }
  });

  it('`profile set --profile new` still creates that profile', async () => {
    const { code } = await api.run(['profile', 'set', 'workspace', WS, '--profile', 'fresh']);
    expect(code).toBe(0);
    expect((await api.run(['profile', 'show', 'fresh', '--json', 'name'])).stdout).toContain('"fresh"');
  });
});

describe('base URL checked before any request', () => {
  it('--base-url without a scheme: one line naming the flag and an example, exit 2', async () => {
    const { code, stdout, stderr } = await api.run(['--base-url', '127.0.0.1:18101/api/v3', 'contacts', 'list']);
    expect(stderr).toBe('error: --base-url must be an http(s) URL such as https://api.example.com/api/v3, got "127.0.0.1:18101/api/v3"\n');
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
  });

  it('WSM_BASE_URL with another scheme names the variable; -o json gets the error object', async () => {
    const { code, stdout, stderr } = await api.run(['-o', 'json', 'contacts', 'list'], {
      env: { WSM_BASE_URL: 'ftp://api.example.com/api/v3' },
    });
    expect(stderr).toBe(
      'error: WSM_BASE_URL must be an http(s) URL such as https://api.example.com/api/v3, got "ftp://api.example.com/api/v3"\n',
    );
    expect(code).toBe(2);
    expect(JSON.parse(stdout).error).toMatchObject({ exit_code: 2 });
  });

  it("a profile's bad base URL names the profile and the fix", async () => {
    const { writeFile, mkdir } = await import('node:fs/promises');
    const { join } = await import('node:path');
    await mkdir(join(api.dir, 'config'), { recursive: true });
    await writeFile(
      join(api.dir, 'config', 'config.json'),
      JSON.stringify({ current: 'p', profiles: { p: { base_url: 'notaurl', token: 't' } } }),
    );
    const { code, stderr } = await api.run(['contacts', 'list'], { env: { WSM_BASE_URL: undefined } });
    expect(stderr).toBe(
      `error: the base URL of profile "p" in ${join(api.dir, 'config', 'config.json')} must be an http(s) URL such as https://api.example.com/api/v3, got "notaurl" (fix it with \`wsm profile set base-url <url>\`)\n`,
    );
    expect(code).toBe(2);
  });
});

describe("commander's failures in wsm's words", () => {
  it('a mistyped required flag is an unknown option with a suggestion, not a missing one', async () => {
    const { code, stdout, stderr } = await api.run(['contacts', 'create', '--nubmer', '1']);
    expect(stderr).toBe("error: unknown option '--nubmer' (did you mean --number?)\n");
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
  });

  it('a required flag left out is named the way it is typed', async () => {
    const { code, stderr } = await api.run(['users', 'create', '--name', 'Ann', '--email', 'a@example.com', '--password', 'secret123']);
    expect(stderr).toBe('error: --role is required\n');
    expect(code).toBe(2);
  });

  it("a value outside an option's choices: one line listing them, exit 2; -o json gets it too", async () => {
    const table = await api.run(['contacts', 'list', '-o', 'xml']);
    expect(table.stderr).toBe('error: --output takes one of table, json, ndjson, csv, xlsx, got "xml"\n');
    expect(table.code).toBe(2);
    const json = await api.run(['contacts', 'list', '-o', 'json', '--nope']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({ error: { message: "unknown option '--nope'", exit_code: 2 } });
  });

  it("a value outside an argument's choices names the argument", async () => {
    const { code, stderr } = await api.run(['completion', 'powershell']);
    expect(stderr).toBe('error: <shell> takes one of bash, zsh, fish, got "powershell"\n');
    expect(code).toBe(2);
  });

  it('an unknown command keeps its suggestion on the same line', async () => {
    const { code, stderr } = await api.run(['contcts', 'list']);
    expect(stderr).toBe("error: unknown command 'contcts' (did you mean contacts?)\n");
    expect(code).toBe(2);
  });

  it('an option without its value says so', async () => {
    const { code, stderr } = await api.run(['contacts', 'list', '--search']);
    expect(stderr).toBe('error: --search needs a value\n');
    expect(code).toBe(2);
  });
});

describe('help at any depth', () => {
  it('`wsm help contacts list` shows the help of contacts list', async () => {
    const { code, stdout } = await api.run(['help', 'contacts', 'list']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: wsm contacts list /);
    expect(stdout).toContain('--per-page');
  });

  it('`wsm help contacts` still shows the group', async () => {
    const { code, stdout } = await api.run(['help', 'contacts']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: wsm contacts /);
  });
});

describe("the server's errors in the user's words", () => {
  const validation = (errors: Record<string, string[]>) => ({ message: 'Validation error', errors });

  it('a 404 on a record names it; the request appears only with -v', async () => {
    api.pool
      .intercept({ path: `${WSP}/contacts/999`, method: 'GET' })
      .reply(404, { message: 'Resource not found.', status: 404 }, JSON_HEADERS)
      .times(2);
    const plain = await api.run(['contacts', 'get', '999']);
    expect(plain.stderr).toBe('error: contact 999 not found\n');
    expect(plain.code).toBe(4);
    const verbose = await api.run(['contacts', 'get', '999', '-v']);
    expect(verbose.stderr.split('\n').at(-2)).toBe(`error: contact 999 not found (404 on GET ${WSP}/contacts/999)`);
    expect(verbose.code).toBe(4);
  });

  it('a 404 on a list says the workspace is not found or not yours', async () => {
    api.pool
      .intercept({ path: `${WSP}/contacts`, method: 'GET' })
      .reply(404, { message: 'Resource not found.', status: 404 }, JSON_HEADERS);
    const { code, stderr } = await api.run(['contacts', 'list']);
    expect(stderr).toBe(`error: workspace ${WS} (from WSM_WORKSPACE) not found or not yours\n`);
    expect(code).toBe(4);
  });

  it('a 403 names what the role may not do; -o json says the same, with the server body under server', async () => {
    const body = { message: 'This action is unauthorized.', status: 403 };
    // The change journal reads the contact first: a role may read what it may not delete.
    api.pool.intercept({ path: `${WSP}/contacts/2`, method: 'GET' }).reply(200, { data: contact(2) }, JSON_HEADERS);
    api.pool.intercept({ path: `${WSP}/contacts/2`, method: 'DELETE' }).reply(403, body, JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['contacts', 'delete', '2', '--yes', '-o', 'json']);
    expect(stderr).toBe('error: your role may not delete contacts\n');
    expect(code).toBe(3);
    expect(JSON.parse(stdout)).toEqual({
      error: { message: 'your role may not delete contacts', exit_code: 3, status: 403, server: body },
    });
  });

  it('a 422 names the record and the flags: role_id is --role', async () => {
    api.pool
      .intercept({ path: `${WSP}/users/1`, method: 'POST' })
      .reply(422, validation({ role_id: ['You cannot change your own role.'] }), JSON_HEADERS);
    const { code, stderr } = await api.run(['users', 'update', '1', '--role', '2'], NO_JOURNAL);
    expect(stderr).toBe('error: the server rejected the user:\n  --role: You cannot change your own role.\n');
    expect(code).toBe(5);
  });

  it('a 422 on a list item names the value given', async () => {
    api.pool
      .intercept({ path: `${WSP}/roles/2`, method: 'PUT' })
      .reply(422, validation({ 'permissions.1': ['The selected permissions.1 is invalid.'] }), JSON_HEADERS);
    const { code, stderr } = await api.run(
      ['roles', 'update', '2', '--permission', 'contacts.view', '--permission', 'contacts.update'],
      NO_JOURNAL,
    );
    expect(stderr).toBe('error: the server rejected the role:\n  --permission contacts.update: The selected permissions.1 is invalid.\n');
    expect(code).toBe(5);
  });

  it('the same naming for what the local check refuses (nothing sent)', async () => {
    const { code, stderr } = await api.run(['roles', 'update', '2', '--permission', 'contacts.veiw']);
    expect(stderr).toBe(
      'error: the role is invalid: nothing was sent\n  --permission contacts.veiw: The selected permission is invalid.\n',
    );
    expect(code).toBe(2);
  });

  it('every update without any change is refused before sending, in the same words', async () => {
    for (const [resource, flags] of [
      ['labels', '--name, --color'],
      ['roles', '--name, --permission'],
      ['users', '--name, --email, --timezone, --active, --inactive, --client, --password, --avatar, --role'],
      ['contacts', '--name, --email, --gender, --active, --inactive, --group, --add-group, --remove-group, --field, --avatar'],
    ]) {
      const { code, stderr } = await api.run([resource, 'update', '4']);
      expect(stderr, resource).toBe(`error: nothing to update: pass at least one of ${flags}\n`);
      expect(code).toBe(2);
    }
  });
});

describe('one wording for the same kind of mistake', () => {
  it.each([
    [['--timeout', 'abc', 'contacts', 'list'], {}, '--timeout takes a duration such as 10s, 2m or 500ms, got "abc"'],
    [['templates', 'sync', '--wait', '--timeout', 'abc'], {}, '--timeout takes a duration such as 10s, 2m or 500ms, got "abc"'],
    [['contacts', 'list'], { WSM_TIMEOUT: 'soon' }, 'WSM_TIMEOUT takes a duration such as 10s, 2m or 500ms, got "soon"'],
    [['contacts', 'list', '--per-page', '0'], {}, '--per-page takes a whole number from 1 to 100, got "0"'],
    [['contacts', 'list', '--all', '--concurrency', '0'], {}, '--concurrency takes a whole number from 1 to 64, got "0"'],
    [['contacts', 'get', 'abc'], {}, 'contact id must be a positive integer, got "abc"'],
    [['contacts', 'get', '99999999999999999999'], {}, 'contact id must be at most 9007199254740991, got "99999999999999999999"'],
  ])('wsm %j', async (argv, env, line) => {
    const { code, stderr } = await api.run(argv, { env });
    expect(stderr).toBe(`error: ${line}\n`);
    expect(code).toBe(2);
  });
});

describe('counts in sentences read like the progress line', () => {
  it('the paging hint groups thousands; the data itself does not change', async () => {
    const rows = [contact(1), contact(2), contact(3)];
    api.pool
      .intercept({ path: `${WSP}/contacts?per_page=3`, method: 'GET' })
      .reply(200, page(rows, 1, 100006, 3, 300018), JSON_HEADERS)
      .times(2);
    const table = await api.run(['contacts', 'list', '--per-page', '3'], { stdoutTTY: true, stderrTTY: true });
    expect(table.stderr.replace(/\n(?!$)/g, ' ')).toBe(
      'Showing 1-3 of 300,018 contacts (page 1 of 100,006): use --page or --all for more\n',
    );
    const json = await api.run(['contacts', 'list', '--per-page', '3', '-o', 'json']);
    expect(JSON.parse(json.stdout)).toHaveLength(3);
    expect(json.stdout).not.toContain('300,018');
    expect(json.stderr).toBe(
      'warning: printed contacts 1-3 of 300,018 (page 1 of 100,006); the other pages were left out: add --all for every one\n',
    );
  });

  it('an import that finished reports its counts with separators', async () => {
    const done = importRecord(4, {
      status: 'completed',
      total_rows: 300000,
      processed_rows: 300000,
      created_count: 300000,
      updated_count: 0,
      failed_count: 0,
    });
    api.pool.intercept({ path: `${WSP}/contact-imports/4`, method: 'GET' }).reply(200, { data: done }, JSON_HEADERS);
    const { code, stderr } = await api.run(['imports', 'get', '4', '--wait', '--interval', '0s'], { stderrTTY: true });
    expect(code).toBe(0);
    expect(stderr).toContain('Import 4 completed: 300,000 created, 0 updated, 0 failed.\n');
  });
});

describe('import errors on a terminal', () => {
  it('one line a row under the Errors label', async () => {
    const errors = [
      { row: 3, message: 'The number has already been taken.' },
      { row: 4, message: 'The email must be a valid email address.' },
    ];
    api.pool
      .intercept({ path: `${WSP}/contact-imports/6`, method: 'GET' })
      .reply(200, { data: importRecord(6, { status: 'completed', failed_count: 2, errors }) }, JSON_HEADERS);
    const { code, stdout } = await api.run(['imports', 'get', '6', '--no-color'], { stdoutTTY: true, columns: 120 });
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    const at = lines.findIndex((line) => line.startsWith('Errors'));
    expect(lines[at]).toMatch(/^Errors\s+row 3: The number has already been taken\.$/);
    expect(lines[at + 1]).toMatch(/^\s+row 4: The email must be a valid email address\.$/);
  });

  it('a row and its line where a quoted line break parts them; past the first errors, where the rest are', async () => {
    const errors = [{ row: 3, line: 5, message: 'The number must be a phone number of 7 to 15 digits.', failed: true }];
    api.pool
      .intercept({ path: `${WSP}/contact-imports/6`, method: 'GET' })
      .reply(200, { data: importRecord(6, { status: 'completed', failed_count: 1247, errors, errors_total: 1247 }) }, JSON_HEADERS);
    const { code, stdout } = await api.run(['imports', 'get', '6', '--no-color'], { stdoutTTY: true, columns: 120 });
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    const at = lines.findIndex((line) => line.startsWith('Errors'));
    expect(lines[at]).toMatch(/^Errors\s+row 3 \(line 5\): The number must be a phone number of 7 to 15 digits\.$/);
    expect(lines[at + 1]).toMatch(/^\s+… 1,246 more: `wsm imports errors 6` lists every one$/);
  });
});

describe('template files', () => {
  it('a YAML syntax error ends on its sentence, not on a dangling colon', async () => {
    const broken = await api.file('broken.yaml', 'name: x\nbuttons: [a, b\n');
    const { code, stderr } = await api.run(['templates', 'validate', broken]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: .*broken\.yaml is neither valid JSON nor valid YAML: .*\d\n$/);
  });

  it('a template without a category says the category is required', async () => {
    const { code, stderr } = await api.run(['templates', 'create', '--file', await api.file('t.json', '{}')]);
    expect(code).toBe(2);
    expect(stderr).toContain('  category: The category field is required.\n');
    expect(stderr).not.toContain('The selected category is invalid');
  });
});

describe('output flags that conflict, and templates list --status', () => {
  it.each([
    [['contacts', 'list', '--json', 'id', '-o', 'csv'], '--json cannot be used with -o csv: they ask for different output'],
    [['contacts', 'list', '--json', 'id', '-o', 'ndjson'], '--json cannot be used with -o ndjson: they ask for different output'],
    [['contacts', 'list', '-q', '-o', 'json'], '-q cannot be used with -o json: they ask for different output'],
    [['contacts', 'get', '1', '-q', '--json', 'id'], '-q cannot be used with --json: they ask for different output'],
    [['contacts', 'list', '--jq', '.[]', '-o', 'csv'], '--jq cannot be used with -o csv: they ask for different output'],
  ])('wsm %j is exit 2, nothing sent', async (argv, line) => {
    const { code, stderr } = await api.run(argv);
    expect(stderr).toBe(`error: ${line}\n`);
    expect(code).toBe(2);
  });

  it('--json with -o json, and --jq with --json, still work together', async () => {
    api.pool
      .intercept({ path: `${WSP}/contacts`, method: 'GET' })
      .reply(200, page([contact(1)]), JSON_HEADERS)
      .times(2);
    expect(JSON.parse((await api.run(['contacts', 'list', '--json', 'id', '-o', 'json'])).stdout)).toEqual([{ id: 1 }]);
    expect((await api.run(['contacts', 'list', '--json', 'id', '--jq', '.[0].id'])).stdout).toBe('1\n');
  });

  it('--status takes any case; an unknown one is exit 2 listing the choices, nothing sent', async () => {
    api.pool.intercept({ path: `${WSP}/templates?status=APPROVED`, method: 'GET' }).reply(200, page([]), JSON_HEADERS);
    expect((await api.run(['templates', 'list', '--status', 'approved'])).code).toBe(0);
    const { code, stderr } = await api.run(['templates', 'list', '--status', 'BOGUS']);
    expect(stderr).toBe(
      'error: --status takes one of PENDING, APPROVED, REJECTED, PAUSED, DISABLED, IN_APPEAL, PENDING_DELETION, DELETED, LIMIT_EXCEEDED, ARCHIVED, got "BOGUS"\n',
    );
    expect(code).toBe(2);
    expect((await api.run(['templates', 'list', '--category', 'bogus'])).stderr).toBe(
      'error: --category takes one of MARKETING, UTILITY, AUTHENTICATION, got "bogus"\n',
    );
  });

  it('a --jq that compiles but fails on the data is exit 1 (the request was made); a compile error stays exit 2', async () => {
    api.pool.intercept({ path: `${WSP}/contacts`, method: 'GET' }).reply(200, page([contact(1)]), JSON_HEADERS);
    const runtime = await api.run(['contacts', 'list', '--jq', '.[0].name.x']);
    expect(runtime.stderr).toBe('error: --jq: Cannot index string with string ("x")\n');
    expect(runtime.code).toBe(1);
    const compile = await api.run(['contacts', 'list', '--jq', '.[0']);
    expect(compile.code).toBe(2);
    expect(compile.stderr).toMatch(/^error: --jq: /);
  });
});

describe('bulk reports', () => {
  it('contacts delete --from -o json reports numeric ids, like the records', async () => {
    // The change journal's read of the workspace: the contacts' before-images. Contact 6 is not in it, so it is not sent.
    api.pool.intercept({ path: `${WSP}/contacts?per_page=1`, method: 'GET' }).reply(200, page([contact(5)], 1, 1, 1, 1), JSON_HEADERS);
    api.pool
      .intercept({ path: `${WSP}/contacts/5`, method: 'DELETE' })
      .reply(200, { status: 200, message: 'Contact deleted successfully.' }, JSON_HEADERS);
    const { code, stdout } = await api.run(['contacts', 'delete', '--from', await api.file('ids.txt', '5\n6\n'), '--yes', '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).map((r: { id: unknown; outcome: string }) => [r.id, r.outcome])).toEqual([
      [5, 'deleted'],
      [6, 'already gone'],
    ]);
  });

  it('an id too large for a record is refused with its line, nothing sent', async () => {
    const { code, stderr } = await api.run([
      'contacts',
      'delete',
      '--from',
      await api.file('ids.txt', '5\n99999999999999999999\n'),
      '--yes',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('  line 2: "99999999999999999999" is not a contact id (at most 9007199254740991).\n');
  });
});
