import { existsSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, NOT_FOUND, stamp, type Harness } from './harness.js';
import { buildApp } from '../../src/server/app.js';
import { openDatabase } from '../../src/server/db.js';
import { processImport, runPendingImports } from '../../src/server/workers/imports.js';
import { readCsvRows } from '../../src/api/import-csv.js';
import { CSV_MESSAGES } from '../../src/formats/csv/reader.js';
import { multipart } from './template-fixtures.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h?.close();
});

const NOT_CSV = 'The file must be a UTF-8 CSV file whose header row has a number column.';
const importsUrl = () => `/api/v3/workspaces/${h.ws}/contact-imports`;
const contactsUrl = () => `/api/v3/workspaces/${h.ws}/contacts`;
const storedFiles = () => (existsSync(join(h.dir, 'uploads', 'imports')) ? readdirSync(join(h.dir, 'uploads', 'imports')) : []);

function upload(fields: Record<string, string>, file?: { content: string | Buffer; filename?: string }) {
  const files = file ? [{ name: 'file', filename: file.filename ?? 'people.csv', type: 'text/csv', bytes: Buffer.from(file.content) }] : [];
  return multipart(Object.entries(fields), files);
}

async function createImport(content: string | Buffer, fields: Record<string, string> = { name: 'Spring' }, token?: string) {
  const res = await h.call({ method: 'POST', url: importsUrl(), ...upload(fields, { content }), token });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}
const getImport = async (id: number) => (await h.call({ method: 'GET', url: `${importsUrl()}/${id}` })).json().data;
const post = async (url: string, payload: object) => (await h.call({ method: 'POST', url, payload })).json().data;

describe('contact imports: upload', () => {
  it('stores the file and answers 201 with the pending record', async () => {
    const group = await post(`/api/v3/workspaces/${h.ws}/contact-groups`, { name: 'Imported' });
    const res = await h.call({
      method: 'POST',
      url: importsUrl(),
      ...upload(
        { name: 'Spring', contact_groups: String(group.id) },
        { content: 'number,name\n5550000001,Ann\n', filename: 'C:\\Users\\me\\people.csv' },
      ),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      status: 201,
      message: 'Contact import created successfully.',
      data: {
        id: expect.any(Number),
        workspace_id: h.ws,
        name: 'Spring',
        status: 'pending',
        contact_group: { id: group.id, name: 'Imported' },
        file_name: 'people.csv',
        total_rows: 1,
        processed_rows: 0,
        created_count: 0,
        updated_count: 0,
        failed_count: 0,
        errors: [],
        errors_total: 0,
        ...stamp,
        finished_at: null,
      },
    });
    expect(storedFiles()).toHaveLength(1);
    expect(await getImport(res.json().data.id)).toEqual(res.json().data);
  });

  it('refuses a missing file, a file that is not a CSV with a number column, an unknown group, a long name', async () => {
    const cases: Array<[ReturnType<typeof upload>, Record<string, string[]>]> = [
      [upload({ name: 'x' }), { file: ['The file field is required.'] }],
      [upload({}, { content: 'name,email\nAnn,a@b.co\n' }), { file: [NOT_CSV] }],
      // Named, not guessed: the first byte that is not UTF-8, its line, what the file looks like, the fix.
      [
        upload({}, { content: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex') }),
        {
          file: [
            'The file is not text the import can read: line 1 is not UTF-8 (byte 0x89, "‰" in Windows-1252: the file looks like Windows-1252). Save it as "CSV UTF-8", or convert it: iconv -f WINDOWS-1252 -t UTF-8 old.csv > new.csv',
          ],
        },
      ],
      [upload({}, { content: '' }), { file: ['The file is empty: it needs a header row with a number column.'] }],
      [
        upload({ contact_groups: '999' }, { content: 'number\n5550000001\n' }),
        { contact_groups: ['The selected contact group is invalid.'] },
      ],
      [
        upload({ contact_groups: 'abc' }, { content: 'number\n5550000001\n' }),
        { contact_groups: ['The contact groups field must be a number.'] },
      ],
      [
        upload({ name: 'x'.repeat(256) }, { content: 'number\n5550000001\n' }),
        { name: ['The name field must not be greater than 255 characters.'] },
      ],
    ];
    for (const [form, errors] of cases) {
      const res = await h.call({ method: 'POST', url: importsUrl(), ...form });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: 'Validation error', errors });
    }
    const json = await h.call({ method: 'POST', url: importsUrl(), payload: { name: 'x' } });
    expect(json.json()).toEqual({ message: 'Validation error', errors: { file: ['The file field is required.'] } });
    // Nothing rejected stays on disk.
    expect(storedFiles()).toEqual([]);
  });

  it('accepts a UTF-8 BOM, a Number header in any case, and defaults the name to the file name', async () => {
    const group = await post(`/api/v3/workspaces/${h.ws}/contact-groups`, { name: 'Bracketed' });
    // `contact_groups[0]`, the bracket form this API family uses, names the one group too.
    const made = await createImport('\uFEFFNumber,Name\r\n5550000001,Zoë\r\n', { 'contact_groups[0]': String(group.id) });
    expect(made).toMatchObject({ name: 'people.csv', contact_group: { id: group.id, name: 'Bracketed' } });
    await runPendingImports(h.app);
    expect(await getImport(made.id)).toMatchObject({ status: 'completed', total_rows: 1, created_count: 1, errors: [] });
    const contacts = (await h.call({ method: 'GET', url: contactsUrl() })).json().data;
    expect(contacts.map((c: { name: string; number: string }) => [c.number, c.name])).toEqual([['5550000001', 'Zoë']]);
  });

  it('answers 413 beyond 100 MB and keeps nothing', async () => {
    // Streamed, so the test never holds the 100 MB in memory.
    const boundary = 'wsm-big-upload';
    const line = Buffer.from('5550000001,Somebody with a fairly long name\n'.repeat(4096));
    function* body() {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\nnumber,name\n`,
      );
      for (let sent = 0; sent <= 100 * 1024 * 1024; sent += line.length) yield line;
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    const res = await h.call({
      method: 'POST',
      url: importsUrl(),
      payload: Readable.from(body()),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'Payload too large.', status: 413 });
    expect(storedFiles()).toEqual([]);
  });
});

describe('contact imports: processing', () => {
  it('holds each row to the rules of contacts create: a field value the create refuses fails its row', async () => {
    await h.create(`/api/v3/workspaces/${h.ws}/contact-fields`, { name: 'note' });
    const long = 'x'.repeat(2000);
    const refused = await h.call({ method: 'POST', url: contactsUrl(), payload: { number: '5550000009', fields: { note: long } } });
    expect(refused.json()).toEqual({
      message: 'Validation error',
      errors: { 'fields.note': ['The note field must not be greater than 1024 characters.'] },
    });
    const made = await createImport(`number,name,note\n5550000001,Ann,${long}\n5550000002,${'n'.repeat(51)},ok\n5550000003,Cy, fine \n`);
    await runPendingImports(h.app);
    const done = await getImport(made.id);
    expect(done).toMatchObject({ status: 'completed', created_count: 1, failed_count: 2 });
    expect(done.errors).toEqual([
      { row: 2, line: 2, message: 'The note field must not be greater than 1024 characters.', failed: true },
      { row: 3, line: 3, message: 'The name field must not be greater than 50 characters.', failed: true },
    ]);
    const [cy] = (await h.call({ method: 'GET', url: contactsUrl() })).json().data;
    expect([cy.name, cy.fields]).toEqual(['Cy', { note: 'fine' }]);
  });

  it('checks the whole upload as text, not a sample: a Windows-1252 byte past 64 KiB is a 422 naming its line; nothing is stored', async () => {
    const rows = Array.from({ length: 70_000 }, (_, i) => `${5_550_000_000 + i},Person ${i}`);
    const content = Buffer.concat([Buffer.from(`number,name\n${rows.join('\n')}\n`), Buffer.from('5559999999,Zo\xeb\n', 'latin1')]);
    const res = await h.call({ method: 'POST', url: importsUrl(), ...upload({}, { content }) });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file[0]).toMatch(
      /^The file is not text the import can read: line 70002 is not UTF-8 \(byte 0xEB, "ë" in Windows-1252/,
    );
    expect(storedFiles()).toEqual([]);
  });

  it('reads UTF-16 with its BOM and a semicolon-separated file, naming how in the errors (row 1); U+FFFD only where the file has it', async () => {
    const utf16 = Buffer.from('\ufeffnumber,name\r\n5550000001,Zoë\r\n5550000002,Ñúñez \ufffd\r\n', 'utf16le');
    const semicolon = 'number;name;email\n5550000003;"Lee, Ann";ann@example.com\n';
    for (const content of [utf16, semicolon]) {
      const made = await createImport(content);
      await runPendingImports(h.app);
      expect(await getImport(made.id)).toMatchObject({ status: 'completed', failed_count: 0 });
    }
    const notes = [];
    for (const record of (await h.call({ method: 'GET', url: importsUrl() })).json().data) notes.push(...record.errors);
    expect(notes).toEqual([
      { row: 1, line: 1, message: 'The file is read as UTF-16 (little-endian) text (its byte order mark says so).', failed: false },
      { row: 1, line: 1, message: 'The file is read as semicolon-separated: its header row splits on ";".', failed: false },
    ]);
    const names = (await h.call({ method: 'GET', url: contactsUrl() }))
      .json()
      .data.map((c: { name: string; email: string | null }) => [c.name, c.email]);
    expect(names).toEqual([
      ['Zoë', null],
      ['Ñúñez \ufffd', null],
      ['Lee, Ann', 'ann@example.com'],
    ]);
  });

  it('imports mixed rows: exact counts, row numbers, created vs updated, fields, unknown column, group', async () => {
    const group = await post(`/api/v3/workspaces/${h.ws}/contact-groups`, { name: 'Imported' });
    await post(`/api/v3/workspaces/${h.ws}/contact-fields`, { name: 'city' });
    const existing = await post(contactsUrl(), { number: '5559999999', name: 'Before', email: 'before@example.com' });
    const csv = [
      'number,name,email,gender,status,city,shoe_size',
      '+1 555 000 0001,Ann,ann@example.com,female,1,Lisbon,42',
      '5550000002,,,,,,',
      'bad-number,Bob,,,,,',
      '5550000004,Carl,not-an-email,,,,',
      '5550000005,Dee,,robot,,,',
      '15550000001,Ann Updated,,,,Porto,',
      '5559999999,Existing updated,,,0,,',
      ',NoNumber,,,,,',
      '',
    ].join('\n');
    const made = await createImport(csv, { name: 'Mixed', contact_groups: String(group.id) });
    await runPendingImports(h.app);

    expect(await getImport(made.id)).toEqual({
      ...made,
      status: 'completed',
      total_rows: 8,
      processed_rows: 8,
      created_count: 2,
      updated_count: 2,
      failed_count: 4,
      errors_total: 5,
      errors: [
        { row: 1, line: 1, message: 'Unknown column "shoe_size" was ignored.', failed: false },
        { row: 4, line: 4, message: 'The number must be a phone number of 7 to 15 digits.', failed: true },
        { row: 5, line: 5, message: 'The email field must be a valid email address.', failed: true },
        { row: 6, line: 6, message: 'The selected gender is invalid: it must be one of male, female, other.', failed: true },
        { row: 9, line: 9, message: 'The number field is required.', failed: true },
      ],
      updated_at: expect.stringMatching(/Z$/),
      finished_at: expect.stringMatching(/Z$/),
    });
    const contacts = (await h.call({ method: 'GET', url: `${contactsUrl()}?per_page=100` })).json().data;
    const byNumber = Object.fromEntries(contacts.map((c: { number: string }) => [c.number, c]));
    expect(Object.keys(byNumber).sort()).toEqual(['15550000001', '5550000002', '5559999999']);
    expect(byNumber['15550000001']).toMatchObject({
      name: 'Ann Updated',
      email: 'ann@example.com',
      gender: 'female',
      status: true,
      fields: { city: 'Porto' },
    });
    expect(byNumber['5550000002']).toMatchObject({ name: 'Unknown', email: null, status: true, fields: {} });
    // Empty cells never blank an existing contact.
    expect(byNumber['5559999999']).toMatchObject({ id: existing.id, name: 'Existing updated', email: 'before@example.com', status: false });
    for (const contact of contacts) expect(contact.contact_groups).toEqual([{ id: group.id, name: 'Imported' }]);
    const counted = await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contact-groups/${group.id}` });
    expect(counted.json().data.contacts_count).toBe(3);
  });

  it('reads a quoted value over several lines as one value (RFC 4180); a quote never closed costs its own line', async () => {
    // decisions.md §8: inside quotes a line break is part of the value; outside, CRLF, blank lines end rows.
    const csv = 'number,name\r\n5550000001,"Two\r\nlines"\r\n\r\nnope,x\r\n5550000003,"a ""quote"""\r\n5550000004,"never closed\r\n';
    const made = await createImport(csv);
    // Counted as the upload's text was checked, before the worker reads the file (it reads it once).
    expect(made).toMatchObject({ status: 'pending', total_rows: 4, processed_rows: 0 });
    await runPendingImports(h.app);
    const done = await getImport(made.id);
    expect(done).toMatchObject({ status: 'completed', total_rows: 4, created_count: 2, failed_count: 2 });
    expect(done.errors).toEqual([
      // The spreadsheet's rows 4 and 6: the quoted line break puts them one line further down.
      { row: 4, line: 5, message: 'The number must be a phone number of 7 to 15 digits.', failed: true },
      { row: 6, line: 7, message: CSV_MESSAGES.unclosed, failed: true },
    ]);
    const names = (await h.call({ method: 'GET', url: contactsUrl() })).json().data.map((c: { name: string }) => c.name);
    expect(names).toEqual(['Two\r\nlines', 'a "quote"']);
  });

  it('places every row, and every row it cannot read, at its own line', async () => {
    const linesOf = async (content: string) => {
      const path = join(h.dir, 'lines.csv');
      writeFileSync(path, content);
      const items = [];
      for await (const item of readCsvRows(path)) items.push(item.kind === 'record' ? item.line : `error@${item.line}`);
      return items;
    };
    expect(await linesOf('number,name\n1,a\n2,"x"\n\n3,"multi\nline"\n4,b')).toEqual([1, 2, 3, 5, 7]);
    expect(await linesOf('number,name\n1,a\n\n\n2,"never\nclosed\n\n3,x\n')).toEqual([1, 2, 'error@5', 6, 8]);
    expect(await linesOf('number,name\n1,a\n,,\n2,"never\nclosed\n3,x\n')).toEqual([1, 2, 'error@4', 5, 6]);
    expect(await linesOf('number,name\r\n1,"a\r\nb\r\nc"\r\n2,x\r\n')).toEqual([1, 2, 5]);
  });

  it('keeps the first 100 errors and an exact failed count; a repeated number updates', async () => {
    const rows = ['number'];
    for (let i = 0; i < 150; i += 1) rows.push(`bad${i}`);
    rows.push('5550000001', '555-000-0001');
    const made = await createImport(rows.join('\n'));
    await runPendingImports(h.app, { batchSize: 7 });
    const done = await getImport(made.id);
    expect(done).toMatchObject({
      status: 'completed',
      total_rows: 152,
      processed_rows: 152,
      failed_count: 150,
      created_count: 1,
      updated_count: 1,
    });
    expect(done.errors).toHaveLength(100);
    expect(done.errors[99]).toEqual({ row: 101, line: 101, message: 'The number must be a phone number of 7 to 15 digits.', failed: true });
    expect(done.errors_total).toBe(150);
  });

  it('reads cells as spreadsheets write them: TRUE/FALSE any case, yes/no, 1/0; gender without case; scientific notation named', async () => {
    const csv = [
      'number,status,gender',
      '5550000101,TRUE,Female',
      '5550000102,false,MALE',
      '5550000103,Yes,Other',
      '5550000104,no,',
      '5550000105,1,',
      '5550000106,0,',
      '5.55E+09,,',
      '5550000108,maybe,M',
    ].join('\n');
    const made = await createImport(csv);
    await runPendingImports(h.app);
    const done = await getImport(made.id);
    expect(done).toMatchObject({ created_count: 6, failed_count: 2 });
    expect(done.errors).toEqual([
      {
        row: 8,
        line: 8,
        message:
          'The number cell holds "5.55E+09", a number in scientific notation: a spreadsheet wrote it so and its last digits are lost (format the column as text and save the file again).',
        failed: true,
      },
      {
        row: 9,
        line: 9,
        message:
          'The selected gender is invalid: it must be one of male, female, other. The status field must be TRUE or FALSE (any case; yes/no, 1/0 and active/inactive are read too), not "maybe".',
        failed: true,
      },
    ]);
    const contacts = (await h.call({ method: 'GET', url: `${contactsUrl()}?per_page=100` })).json().data;
    expect(contacts.map((c: { number: string; status: boolean; gender: string | null }) => [c.number, c.status, c.gender])).toEqual([
      ['5550000101', true, 'female'],
      ['5550000102', false, 'male'],
      ['5550000103', true, 'other'],
      ['5550000104', false, null],
      ['5550000105', true, null],
      ['5550000106', false, null],
    ]);
  });

  it('keeps every error (extension GET .../errors, paginated like every list), each once across batches', async () => {
    const rows = ['number,name'];
    for (let i = 0; i < 130; i += 1) rows.push(i % 2 === 0 ? `bad${i},x` : `55500${String(i).padStart(5, '0')},ok`);
    rows.push('5550000001,"two\nlines"', 'nope,after the line break');
    const made = await createImport(rows.join('\n'));
    await runPendingImports(h.app, { batchSize: 7 });
    expect(await getImport(made.id)).toMatchObject({ failed_count: 66, errors_total: 66 });
    const first = await h.call({ method: 'GET', url: `${importsUrl()}/${made.id}/errors?per_page=50` });
    expect(first.statusCode).toBe(200);
    expect(first.json().meta).toMatchObject({ current_page: 1, per_page: 50, total: 66, last_page: 2, from: 1, to: 50 });
    expect(first.json().links.next).toContain(`/contact-imports/${made.id}/errors?per_page=50&page=2`);
    const second = (await h.call({ method: 'GET', url: `${importsUrl()}/${made.id}/errors?per_page=50&page=2` })).json();
    const all = [...first.json().data, ...second.data];
    expect(all).toHaveLength(66);
    expect(all.map((e: { row: number }) => e.row)).toEqual([...Array.from({ length: 65 }, (_, i) => 2 + 2 * i), 133]);
    // The last row comes after a quoted line break: spreadsheet row 133 starts on line 134.
    expect(all.at(-1)).toEqual({ row: 133, line: 134, message: 'The number must be a phone number of 7 to 15 digits.', failed: true });
    const refused = await h.call({ method: 'GET', url: `${importsUrl()}/${made.id}/errors?per_page=0` });
    expect(refused.statusCode).toBe(422);
    // Deleting the import deletes its errors with it.
    expect((await h.call({ method: 'DELETE', url: `${importsUrl()}/${made.id}` })).statusCode).toBe(200);
    expect(h.db.prepare('SELECT count(*) FROM contact_import_errors WHERE import_id = ?').pluck().get(made.id)).toBe(0);
  });

  it('resumes an import interrupted mid-way on a rebuilt app: exact counts, no duplicates', async () => {
    const rows = ['number,name'];
    for (let i = 0; i < 25; i += 1) rows.push(`55500000${String(i).padStart(2, '0')},Person ${i}`);
    rows.push('broken,row');
    const made = await createImport(rows.join('\n'));
    // The process "dies" right after its first committed batch.
    expect(await processImport(h.app, made.id, { batchSize: 10, shouldStop: () => true })).toBe('stopped');
    expect(await getImport(made.id)).toMatchObject({ status: 'processing', total_rows: 26, processed_rows: 10, created_count: 10 });

    await h.app.close();
    h.db.close();
    const db = openDatabase(h.dbPath);
    const app = await buildApp({ db, uploadsDir: join(h.dir, 'uploads'), workers: false });
    await app.ready();
    try {
      expect(await runPendingImports(app, { batchSize: 10 })).toBe(1);
      const res = await app.inject({ method: 'GET', url: `${importsUrl()}/${made.id}`, headers: { authorization: `Bearer ${h.token}` } });
      expect(res.json().data).toMatchObject({
        status: 'completed',
        total_rows: 26,
        processed_rows: 26,
        created_count: 25,
        updated_count: 0,
        failed_count: 1,
      });
      expect(res.json().data.errors).toEqual([
        { row: 27, line: 27, message: 'The number must be a phone number of 7 to 15 digits.', failed: true },
      ]);
      // Stored with the batch that noted it: the resumed run adds it once.
      const kept = await app.inject({
        method: 'GET',
        url: `${importsUrl()}/${made.id}/errors`,
        headers: { authorization: `Bearer ${h.token}` },
      });
      expect(kept.json()).toMatchObject({ data: [{ row: 27, line: 27, failed: true }], meta: { total: 1 } });
      expect(db.prepare('SELECT count(*) AS n, count(DISTINCT number) AS d FROM contacts').get()).toEqual({ n: 25, d: 25 });
    } finally {
      await app.close();
      db.close();
      rmSync(h.dir, { recursive: true, force: true });
      h = undefined as unknown as Harness;
    }
  });

  it('marks an interrupted import failed with a reason when its file is gone', async () => {
    const made = await createImport('number\n5550000001\n');
    h.db.prepare("UPDATE contact_imports SET status = 'processing' WHERE id = ?").run(made.id);
    for (const file of storedFiles()) unlinkSync(join(h.dir, 'uploads', 'imports', file));
    await runPendingImports(h.app);
    expect(await getImport(made.id)).toMatchObject({
      status: 'failed',
      errors: [{ row: 0, line: 0, message: 'The uploaded file is no longer available.', failed: false }],
      finished_at: expect.stringMatching(/Z$/),
    });
  });

  it('runs in the background when workers are on, and GET shows the result', async () => {
    await h.close();
    h = await createHarness({ workers: true });
    const made = await createImport('number,name\n5550000001,Bg\n5550000002,Bg2\n');
    let current = made;
    for (let i = 0; i < 100 && current.status !== 'completed'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      current = await getImport(made.id);
    }
    expect(current).toMatchObject({ status: 'completed', created_count: 2 });
  });
});

describe('contact imports: the search index behind them', () => {
  it("search finds an import's rows before the index holds them, and the index catches up once the import is done", async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `55500001${String(i).padStart(2, '0')},Índex Person ${i}`).join('\n');
    const made = await createImport(`number,name\n${rows}\n`);
    await runPendingImports(h.app); // workers off: nothing indexes behind the import
    const line = () => h.db.prepare('SELECT indexed_upto FROM search_index_state').pluck().get() as number;
    const search = async (q: string) =>
      (await h.call({ method: 'GET', url: `${contactsUrl()}?search=${encodeURIComponent(q)}&per_page=100` })).json();
    const lastId = h.db.prepare('SELECT max(id) FROM contacts').pluck().get() as number;
    expect(line()).toBeLessThan(lastId);
    const waiting = await search('INDEX PERSON 1');
    expect(waiting.meta.total).toBe(11); // 1 and 10-19
    expect((await search('índex')).meta.total).toBe(30);

    // A server with workers on the same database: the index catches up behind the finished import on its own.
    const withWorkers = await buildApp({ db: h.db, uploadsDir: join(h.dir, 'uploads'), workers: true });
    await withWorkers.ready();
    for (let i = 0; i < 200 && line() < lastId; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    await withWorkers.close();
    expect(line()).toBe(lastId);
    h.db.prepare("INSERT INTO contacts_fts (contacts_fts, rank) VALUES ('integrity-check', 1)").run();
    const indexed = await search('INDEX PERSON 1');
    expect(indexed.meta.total).toBe(11);
    expect(indexed.data.map((c: { id: number }) => c.id)).toEqual(waiting.data.map((c: { id: number }) => c.id));
    expect((await getImport(made.id)).status).toBe('completed');
  });
});

describe('contact imports: list, delete, access', () => {
  it('lists, deletes the record and its file but not the contacts', async () => {
    const first = await createImport('number\n5550000001\n');
    const second = await createImport('number\n5550000002\n');
    await runPendingImports(h.app);
    const list = (await h.call({ method: 'GET', url: `${importsUrl()}?per_page=1&page=2` })).json();
    expect(list.data).toEqual([await getImport(second.id)]);
    expect(list.meta).toEqual({ current_page: 2, per_page: 1, total: 2, last_page: 2, from: 2, to: 2 });

    expect(storedFiles()).toHaveLength(2);
    const del = await h.call({ method: 'DELETE', url: `${importsUrl()}/${first.id}` });
    expect(del.json()).toEqual({ message: 'Contact import deleted successfully.', status: 200 });
    expect(storedFiles()).toHaveLength(1);
    expect((await h.call({ method: 'GET', url: `${importsUrl()}/${first.id}` })).json()).toEqual(NOT_FOUND);
    expect((await h.call({ method: 'DELETE', url: `${importsUrl()}/${first.id}` })).json()).toEqual(NOT_FOUND);
    expect((await h.call({ method: 'GET', url: contactsUrl() })).json().meta.total).toBe(2);
  });

  it('404s on bad ids and foreign workspaces, 401 without token, 403 without permission', async () => {
    const made = await createImport('number\n5550000001\n');
    const one = `${importsUrl()}/${made.id}`;
    for (const id of ['abc', '0', '99999']) {
      expect((await h.call({ method: 'GET', url: `${importsUrl()}/${id}` })).json()).toEqual(NOT_FOUND);
      expect((await h.call({ method: 'GET', url: `${importsUrl()}/${id}/errors` })).json()).toEqual(NOT_FOUND);
    }
    const outsider = await h.outsider();
    const form = upload({}, { content: 'number\n5550000009\n' });
    const operations = [
      { method: 'GET', url: importsUrl(), needs: 'contact_imports.view' },
      { method: 'POST', url: importsUrl(), needs: 'contact_imports.create', ...form },
      { method: 'GET', url: one, needs: 'contact_imports.view' },
      { method: 'GET', url: `${one}/errors`, needs: 'contact_imports.view' },
      { method: 'DELETE', url: one, needs: 'contact_imports.delete' },
    ] as const;
    for (const op of operations) {
      const request = {
        method: op.method,
        url: op.url,
        payload: 'payload' in op ? op.payload : undefined,
        headers: 'headers' in op ? op.headers : undefined,
      };
      expect((await h.call({ ...request, token: null })).json()).toEqual({ message: 'Unauthenticated.' });
      expect((await h.call({ ...request, token: outsider })).json()).toEqual(NOT_FOUND);
      const others = ['contact_imports.view', 'contact_imports.create', 'contact_imports.delete'].filter((p) => p !== op.needs);
      const denied = await h.call({ ...request, token: await h.memberWith(others) });
      expect(denied.statusCode, `${op.method} ${op.url}`).toBe(403);
    }
    expect(storedFiles()).toHaveLength(1);
  });
});

describe('contact imports: the contact_groups column and exported cells (decisions.md §3)', () => {
  const contactsByNumber = async () =>
    Object.fromEntries(
      (
        (await h.call({ method: 'GET', url: `${contactsUrl()}?per_page=100` })).json().data as Array<{
          number: string;
          name: string;
          contact_groups: Array<{ name: string }>;
        }>
      ).map((c) => [c.number, { name: c.name, groups: c.contact_groups.map((g) => g.name).sort() }]),
    );

  it('joins the named groups, creating those the workspace lacks (named once in the errors) when the uploader may create groups', async () => {
    const vip = await post(`/api/v3/workspaces/${h.ws}/contact-groups`, { name: 'VIP' });
    const csv = [
      'number,name,contact_groups',
      '5550000001,Ann,"[""VIP"",""News, \\""weekly\\""""]"',
      '5550000002,Bo,"["" News, \\""weekly\\"" ""]"',
      '5550000003,Cy,[]',
      '5550000004,Di,',
    ].join('\n');
    const made = await createImport(csv);
    await runPendingImports(h.app);
    const done = await getImport(made.id);
    expect(done).toMatchObject({ status: 'completed', created_count: 4, failed_count: 0 });
    const news = (await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contact-groups` }))
      .json()
      .data.find((g: { name: string }) => g.name === 'News, "weekly"');
    expect(done.errors).toEqual([
      { row: 2, line: 2, message: `The contact group "News, "weekly"" did not exist and was created (id ${news.id}).`, failed: false },
    ]);
    expect(await contactsByNumber()).toEqual({
      '5550000001': { name: 'Ann', groups: ['News, "weekly"', 'VIP'] },
      '5550000002': { name: 'Bo', groups: ['News, "weekly"'] },
      '5550000003': { name: 'Cy', groups: [] },
      '5550000004': { name: 'Di', groups: [] },
    });
    expect(vip.id).toBeLessThan(news.id);
  });

  it('an existing contact keeps its groups and joins the named ones (an import adds, never removes)', async () => {
    const a = await post(`/api/v3/workspaces/${h.ws}/contact-groups`, { name: 'A' });
    await post(`/api/v3/workspaces/${h.ws}/contact-groups`, { name: 'B' });
    await h.create(contactsUrl(), { number: '5550000001', name: 'Ann', contact_groups: [a.id] });
    const made = await createImport('number,contact_groups\n5550000001,"[""B""]"\n');
    await runPendingImports(h.app);
    expect(await getImport(made.id)).toMatchObject({ status: 'completed', updated_count: 1 });
    expect((await contactsByNumber())['5550000001'].groups).toEqual(['A', 'B']);
  });

  it('without contact_groups.create, a row naming a missing group fails with what to do; rows naming existing groups go in', async () => {
    await post(`/api/v3/workspaces/${h.ws}/contact-groups`, { name: 'VIP' });
    const token = await h.memberWith(['contact_imports.create', 'contact_imports.view']);
    const made = await createImport(
      'number,contact_groups\n5550000001,"[""VIP""]"\n5550000002,"[""VIP"",""Ghost""]"\n',
      { name: 'limited' },
      token,
    );
    await runPendingImports(h.app);
    const done = await getImport(made.id);
    expect(done).toMatchObject({ status: 'completed', created_count: 1, failed_count: 1 });
    expect(done.errors).toEqual([
      {
        row: 3,
        line: 3,
        message:
          'The contact group "Ghost" does not exist, and this import may not create it (the uploader lacks contact_groups.create): create it first.',
        failed: true,
      },
    ]);
    expect(Object.keys(await contactsByNumber())).toEqual(['5550000001']);
    expect(
      (await h.call({ method: 'GET', url: `/api/v3/workspaces/${h.ws}/contact-groups` })).json().data.map((g: { name: string }) => g.name),
    ).toEqual(['VIP']);
  });

  it('a cell that is not a JSON array of names fails its row, saying what the cell must be', async () => {
    const made = await createImport('number,contact_groups\n5550000001,VIP\n5550000002,"[1]"\n5550000003,"[""""]"\n');
    await runPendingImports(h.app);
    const done = await getImport(made.id);
    expect(done).toMatchObject({ created_count: 0, failed_count: 3 });
    const format = 'The contact groups cell must be a JSON array of group names, such as ["VIP","News"] (or [] for none).';
    expect(done.errors).toEqual([
      { row: 2, line: 2, message: format, failed: true },
      { row: 3, line: 3, message: format, failed: true },
      { row: 4, line: 4, message: 'The contact groups field is required.', failed: true },
    ]);
  });

  it("takes off exactly the ' the export puts before a formula-like value in a file whose header is the export's, and says so; the export's own columns are read without a note", async () => {
    const field = await post(`/api/v3/workspaces/${h.ws}/contact-fields`, { name: 'score' });
    const csv =
      "id,number,name,email,gender,status,contact_groups,created_at,updated_at,score\n7,5550000001,'=1+1,,,true,[],x,y,'-2\n8,5550000002,''@x,,,false,[],x,y,'Tis\n";
    const made = await createImport(csv);
    await runPendingImports(h.app);
    const done = await getImport(made.id);
    expect(done).toMatchObject({
      status: 'completed',
      created_count: 2,
      failed_count: 0,
      errors: [
        {
          row: 1,
          message:
            "It is read as a `wsm contacts export` file (its header is the export's): the ' the export puts before a value starting with = + - @ is taken off.",
        },
      ],
    });
    const contacts = (await h.call({ method: 'GET', url: contactsUrl() })).json().data;
    expect(contacts.map((c: { name: string; status: boolean; fields: Record<string, string> }) => [c.name, c.status, c.fields])).toEqual([
      ['=1+1', true, { score: '-2' }],
      ["'@x", false, { score: "'Tis" }],
    ]);
    expect(field.name).toBe('score');
  });

  it("keeps every ' of a file that is not an export: its values are as written (decisions.md)", async () => {
    await post(`/api/v3/workspaces/${h.ws}/contact-fields`, { name: 'score' });
    const made = await createImport("number,name,score\n5550000011,'=1+1,'-2\n5550000012,''@x,'Tis\n");
    await runPendingImports(h.app);
    expect(await getImport(made.id)).toMatchObject({ status: 'completed', created_count: 2, failed_count: 0, errors: [] });
    const contacts = (await h.call({ method: 'GET', url: contactsUrl() })).json().data;
    expect(contacts.map((c: { name: string; fields: Record<string, string> }) => [c.name, c.fields])).toEqual([
      ["'=1+1", { score: "'-2" }],
      ["''@x", { score: "'Tis" }],
    ]);
  });
});
