// Bulk update by ids: `wsm contacts list -q | wsm contacts update --from -
// --inactive` reads each contact's name where the API needs it (the published API: the name on every update)
// and reports per id; an empty `name` cell leaves the name as it is. Against the stand-in (the published API's
// operations alone, real HTTP, the CLI in-process), and against a mock that has GET one contact.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../../standin/index.js';
import { runCli, tempDir } from '../helpers.js';
import { JSON_HEADERS, WSP, contact, jsonBodies, page, setupApi, type Api } from './harness.js';

describe('against the published API alone (the stand-in: no GET one contact)', () => {
  let standin: Standin;
  let dir: { dir: string; cleanup: () => Promise<void> };
  const run = (argv: string[], stdin?: string | Buffer) => runCli(argv, { env: standin.env(dir.dir) as Record<string, string>, stdin });
  const ids: string[] = [];
  beforeAll(async () => {
    standin = await startStandin();
    dir = await tempDir();
    for (let i = 0; i < 25; i++) {
      const made = await run(['contacts', 'create', '--number', `1415555${String(2000 + i)}`, '--name', `Person ${i}`, '-q']);
      ids.push(made.stdout.trim());
    }
  });
  afterAll(async () => {
    await standin?.close();
    await dir?.cleanup();
  });

  it('ids one a line (as `contacts list -q` prints them) with --inactive: every name kept, a report line per id', async () => {
    const listed = await run(['contacts', 'list', '--all', '-q']);
    const chosen = listed.stdout.trim().split('\n').slice(3, 23); // 20 of 25: past the first page of 10
    // As the other tests of this file left them, whichever ran first.
    const before = standin.state.contacts.map((c) => [c.name, c.status]);
    const res = await run(['contacts', 'update', '--from', '-', '--inactive', '-o', 'json'], chosen.join('\n') + '\n');
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).map((r: { id: number; outcome: string }) => [r.id, r.outcome])).toEqual(
      chosen.map((id) => [Number(id), 'updated']),
    );
    const after = standin.state.contacts.map((c) => [c.name, c.status]);
    expect(after).toEqual(before.map(([name, status], i) => [name, i >= 3 && i < 23 ? false : status]));
  });

  it('an empty name cell leaves the name as it is; an id the workspace does not have fails its line alone (exit 8)', async () => {
    const csv = `id,name,email\n${ids[0]},,first@example.com\n${ids[1]},Renamed,\n999999,,x@example.com\n`;
    const res = await run(['contacts', 'update', '--from', '-', '-o', 'ndjson'], csv);
    expect(res.code).toBe(8);
    // What was done, of how many read, before the failure that makes it exit 8.
    expect(res.stderr).toBe(
      '✓ updated 2 of the 3 contacts read from standard input: 0 unchanged, 0 skipped, 1 failed\nerror: 1 of 3 failed\n',
    );
    expect(
      res.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { id: Number(ids[0]), outcome: 'updated', status: 200, message: 'Contact updated successfully.' },
      { id: Number(ids[1]), outcome: 'updated', status: 200, message: 'Contact updated successfully.' },
      { id: 999999, outcome: 'failed', status: null, message: 'contact 999999 not found, not sent' },
    ]);
    expect(standin.state.contacts.slice(0, 2).map((c) => [c.name, c.email])).toEqual([
      ['Person 0', 'first@example.com'],
      ['Renamed', null],
    ]);
  });

  it('a CSV as a spreadsheet writes it: FALSE and Female are read as the import reads them', async () => {
    const res = await run(['contacts', 'update', '--from', '-'], `id,status,gender\n${ids[20]},FALSE,Female\n${ids[21]},Yes,MALE\n`);
    expect(res.code, res.stderr).toBe(0);
    expect([20, 21].map((i) => [standin.state.contacts[i].status, standin.state.contacts[i].gender])).toEqual([
      [false, 'female'],
      [true, 'male'],
    ]);
  });

  it('works the same on a server that paginates without last_page (links.next only)', async () => {
    standin.quirks.simplePaginator = true;
    try {
      const res = await run(['contacts', 'update', '--from', '-', '--active'], `${ids[24]}\n${ids[12]}\n`);
      expect(res.code, res.stderr).toBe(0);
      expect([standin.state.contacts[24].status, standin.state.contacts[12].status, standin.state.contacts[12].name]).toEqual([
        true,
        true,
        'Person 12',
      ]);
    } finally {
      standin.quirks.simplePaginator = false;
    }
  });

  it('reads --from as import files are read: a semicolon CSV (said so), UTF-16; a byte that is not UTF-8 is exit 2 naming its line', async () => {
    const semicolon = await run(['contacts', 'update', '--from', '-', '-q'], `id;email\n${ids[5]};semi@example.com\n`);
    expect(semicolon.code, semicolon.stderr).toBe(0);
    expect(semicolon.stderr).toBe('');
    expect(standin.state.contacts[5].email).toBe('semi@example.com');
    const told = await run(['contacts', 'update', '--from', '-'], `id;email\n${ids[5]};semi@example.com\n`);
    expect(told.stderr).toContain('standard input: the file is read as semicolon-separated: its header row splits on ";".\n');
    const utf16 = await run(['contacts', 'update', '--from', '-', '-q'], Buffer.from(`\ufeffid,name\r\n${ids[6]},Zoë\r\n`, 'utf16le'));
    expect(utf16.code, utf16.stderr).toBe(0);
    expect(standin.state.contacts[6].name).toBe('Zoë');
    const latin1 = await run(['contacts', 'update', '--from', '-'], Buffer.from(`id,name\n${ids[7]},Ok\n${ids[8]},Zo\xeb\n`, 'latin1'));
    expect(latin1.code).toBe(2);
    expect(latin1.stderr).toMatch(
      /^error: standard input line 3 is not UTF-8 \(byte 0xEB, "ë" in Windows-1252: the file looks like Windows-1252\); nothing was sent\. /,
    );
    expect(standin.state.contacts[7].name).toBe('Person 7');
  });

  it('reads the workspace once: the names an update keeps come from the read its plan made, not from the list again', async () => {
    const contactList = `GET /workspaces/${standin.workspace}/contacts`;
    standin.requests.length = 0;
    const res = await run(['contacts', 'update', '--from', '-', '--inactive', '-o', 'json'], `${ids[0]}\n${ids[23]}\n`);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).map((r: { outcome: string }) => r.outcome)).toEqual(['updated', 'updated']);
    expect([0, 23].map((i) => [standin.state.contacts[i].name, standin.state.contacts[i].status])).toEqual([
      ['Person 0', false],
      ['Person 23', false],
    ]);
    // The plan's read: the count on a one-contact page, then the 25 contacts on one page of 100.
    expect(standin.requests.filter((request) => request === contactList)).toHaveLength(2);
    expect(standin.requests.filter((request) => request.startsWith('POST '))).toHaveLength(2);
  });

  it('with nothing to change is exit 2, nothing sent', async () => {
    const res = await run(['contacts', 'update', '--from', '-'], `${ids[0]}\n`);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'error: nothing to change: give the changes as flags (--inactive, --email, ...), or a CSV in standard input with an id column and the columns to change\n',
    );
  });
});

describe('where the server has GET one contact and the ids are fewer than the pages', () => {
  let api: Api;
  beforeEach(async () => (api = await setupApi()));
  afterEach(() => api?.close());

  it('reads each contact once with GET one contact instead of walking 50 pages: for the plan, the names and the journal', async () => {
    // 50 pages for 2 rows: the workspace is not read whole; the rows' own contacts are, one by one.
    api.pool
      .intercept({ path: `${WSP}/contacts?per_page=1`, method: 'GET' })
      .reply(200, page([contact(1)], 1, 5000, 1, 5000), JSON_HEADERS);
    for (const id of [4321, 4322]) {
      api.pool
        .intercept({ path: `${WSP}/contacts/${id}`, method: 'GET' })
        .reply(200, { data: contact(id, { name: `Name ${id}` }) }, JSON_HEADERS);
    }
    const { bodies, capture } = jsonBodies();
    for (const id of [4321, 4322]) {
      api.pool
        .intercept({ path: `${WSP}/contacts/${id}`, method: 'POST' })
        .reply(
          (opts) => (
            capture(opts),
            { statusCode: 200, data: JSON.stringify({ status: 200, message: 'ok', data: contact(id) }), responseOptions: JSON_HEADERS }
          ),
        );
    }
    const res = await api.run(['contacts', 'update', '--from', '-', '--inactive', '--concurrency', '1', '-v'], { stdin: '4321\n4322\n' });
    expect(res.code, res.stderr).toBe(0);
    expect(bodies).toEqual([
      { status: false, name: 'Name 4321' },
      { status: false, name: 'Name 4322' },
    ]);
    expect(res.stderr).not.toContain('reading the names');
    expect(res.stderr).toContain('✓ updated 2 of the 2 contacts read from standard input: 0 unchanged, 0 skipped, 0 failed\n');
  });

  it("exit 8 is for items that failed; when every item failed for the run's own reason (the token refused), that code", async () => {
    // The change journal reads the workspace's contacts before each run: their before-images.
    api.pool
      .intercept({ path: `${WSP}/contacts?per_page=1`, method: 'GET' })
      .reply(200, page([contact(1), contact(2)], 1, 1, 1, 2), JSON_HEADERS)
      .times(3);
    for (const id of [1, 2])
      api.pool.intercept({ path: `${WSP}/contacts/${id}`, method: 'DELETE' }).reply(401, { message: 'Unauthenticated.' }, JSON_HEADERS);
    const refused = await api.run(['contacts', 'delete', '--from', '-', '--yes'], { stdin: '1\n2\n' });
    expect([refused.code, refused.stderr]).toEqual([3, 'error: 2 of 2 failed\n']);
    api.pool
      .intercept({ path: `${WSP}/contacts/1`, method: 'DELETE' })
      .reply(200, { message: 'Contact deleted successfully.', status: 200 }, JSON_HEADERS);
    api.pool
      .intercept({ path: `${WSP}/contacts/2`, method: 'DELETE' })
      .reply(422, { message: 'Validation error', errors: { id: ['In use.'] } }, JSON_HEADERS);
    const partly = await api.run(['contacts', 'delete', '--from', '-', '--yes', '-o', 'json'], { stdin: '1\n2\n' });
    expect(partly.code).toBe(8);
    expect(JSON.parse(partly.stdout).map((r: { outcome: string; message: string }) => [r.outcome, r.message])).toEqual([
      ['deleted', 'Contact deleted successfully.'],
      // The server's field errors, not its bare "Validation error".
      ['failed', 'id: In use.'],
    ]);
    for (const id of [1, 2])
      api.pool
        .intercept({ path: `${WSP}/contacts/${id}`, method: 'DELETE' })
        .reply(id === 1 ? 200 : 422, id === 1 ? { message: 'ok', status: 200 } : { message: 'Validation error', errors: {} }, JSON_HEADERS);
    const tolerated = await api.run(['contacts', 'delete', '--from', '-', '--yes', '--max-failures', '1'], { stdin: '1\n2\n' });
    expect([tolerated.code, tolerated.stderr]).toEqual([
      0,
      '✓ deleted 1 of the 2 contacts read from standard input: 0 already gone, 1 failed\nwarning: 1 of 2 failed (tolerated: --max-failures 1)\n',
    ]);
  });
});

describe("a column no contact attribute names, where the workspace's fields cannot be read", () => {
  let api: Api;
  beforeEach(async () => (api = await setupApi()));
  afterEach(() => api?.close());

  it('warns that the column is left to the server and goes on as before', async () => {
    api.pool.intercept({ path: `${WSP}/contacts?per_page=1`, method: 'GET' }).reply(200, page([contact(7)]), JSON_HEADERS);
    api.pool
      .intercept({ path: (path) => path.startsWith(`${WSP}/contact-fields`), method: 'GET' })
      .reply(403, { message: 'This action is unauthorized.' }, JSON_HEADERS);
    const { bodies, capture } = jsonBodies();
    api.pool.intercept({ path: `${WSP}/contacts/7`, method: 'POST' }).reply(
      (opts) => (
        capture(opts),
        {
          statusCode: 200,
          // The server kept the field: nothing is said about values it dropped.
          data: JSON.stringify({ status: 200, message: 'ok', data: contact(7, { fields: { city: 'Lisbon' } }) }),
          responseOptions: JSON_HEADERS,
        }
      ),
    );
    const res = await api.run(['contacts', 'update', '--from', '-'], { stdin: 'id,name,city\n7,Ann,Lisbon\n' });
    expect([res.code, res.stderr]).toEqual([
      0,
      'warning: contact field columns are left to the server: the fields could not be read (This action is unauthorized.)\n' +
        '✓ updated 1 of the 1 contact read from standard input: 0 unchanged, 0 skipped, 0 failed\n',
    ]);
    expect(bodies).toEqual([{ name: 'Ann', fields: { city: 'Lisbon' } }]);
  });
});
