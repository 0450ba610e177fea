// The local check of `wsm contacts import` before anything is sent: columns that are
// neither a contact attribute nor a field of the workspace are named (with "did you mean"), every
// invalid row is reported (named by its spreadsheet row, and its line where they differ), and
// cells are read as spreadsheets write them (TRUE/FALSE, yes/no, 1/0; `Female`; scientific notation named).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers.js';
import { JSON_HEADERS, WSP, emptyWorkspace, importRecord, listFields, page, setupApi, type Api } from './harness.js';

let api: Api;
beforeEach(async () => (api = await setupApi()));
afterEach(() => api?.close());

function acceptUpload() {
  const seen = { uploads: 0 };
  api.pool.intercept({ path: `${WSP}/contact-imports`, method: 'POST' }).reply(() => {
    seen.uploads += 1;
    return {
      statusCode: 201,
      data: JSON.stringify({ status: 201, message: 'Contact import created successfully.', data: importRecord(5) }),
      responseOptions: JSON_HEADERS,
    };
  });
  return seen;
}

/** The workspace's contacts, none: a real import reads them first, to ask about changes a spreadsheet may have made. */
const PLAN_TIER = 'number,name,plan_tier,Nmae,region\n14155550101,Ann,gold,x,north\n';

describe('contacts import: columns checked before the upload', () => {
  it('a column that is neither an attribute nor a field is a warning naming it, with "did you mean"; the file is still sent', async () => {
    const file = await api.file('tiers.csv', PLAN_TIER);
    listFields(api, ['plan_type', 'region']);
    emptyWorkspace(api);
    const seen = acceptUpload();
    const { code, stderr } = await api.run(['contacts', 'import', file, '-q']);
    expect(code).toBe(0);
    expect(seen.uploads).toBe(1);
    expect(stderr).toContain(
      `warning: ${file}: column "plan_tier" will not be imported: it is neither a contact attribute nor a contact field of this workspace (did you mean "plan_type"?)\n`,
    );
    expect(stderr).toContain(
      `warning: ${file}: column "Nmae" will not be imported: it is neither a contact attribute nor a contact field of this workspace (did you mean "name"?)\n`,
    );
    expect(stderr).not.toContain('"region"');
  });

  it('--strict refuses such a file: exit 2, each column named, nothing sent', async () => {
    const file = await api.file('tiers.csv', PLAN_TIER);
    listFields(api, ['plan_type', 'region']);
    emptyWorkspace(api);
    const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '--strict']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `error: ${file}: 2 columns would not be imported (--strict): nothing was sent\n` +
        '  column "plan_tier": Column 3 is neither a contact attribute nor a contact field of this workspace (did you mean "plan_type"?).\n' +
        '  column "Nmae": Column 4 is neither a contact attribute nor a contact field of this workspace (did you mean "name"?).\n',
    );
  });

  it('--dry-run -o json gives the columns as data', async () => {
    const file = await api.file('tiers.csv', PLAN_TIER);
    listFields(api, ['plan_type', 'region']);
    const { code, stdout } = await api.run(['contacts', 'import', file, '--dry-run', '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      fields_checked: true,
      unknown_columns: [
        { column: 'plan_tier', position: 3, did_you_mean: ['plan_type'] },
        { column: 'Nmae', position: 4, did_you_mean: ['name'] },
      ],
    });
  });

  it('a dry run without a login cannot read the fields: the columns that are no attribute are named as unchecked', async () => {
    const config = await tempDir();
    try {
      const file = join(config.dir, 'tiers.csv');
      await writeFile(file, PLAN_TIER);
      const { code, stdout, stderr } = await runCli(['contacts', 'import', file, '--dry-run', '-o', 'json'], { configDir: config.dir });
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({
        fields_checked: false,
        unknown_columns: [],
        unchecked_columns: ['plan_tier', 'Nmae', 'region'],
      });
      expect(stderr).toBe(
        `warning: ${file}: "plan_tier", "Nmae", "region" are no contact attributes; whether the workspace has such fields is not known (its fields could not be read)\n`,
      );
    } finally {
      await config.cleanup();
    }
  });
});

describe('contacts import: every invalid row', () => {
  it('--dry-run reports all 150 invalid rows (no cap of 100); stderr names the first 20 and counts the rest', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => `${100 + i},Bad ${i}`);
    const file = await api.file('many.csv', `number,name\n14155550101,Good\n${rows.join('\n')}\n`);
    listFields(api, []);
    const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '--dry-run', '-o', 'json']);
    expect(code).toBe(8);
    const report = JSON.parse(stdout);
    expect(report.invalid_rows).toBe(150);
    expect(report.problems).toHaveLength(150);
    expect(report.problems.at(-1)).toEqual({
      row: 152,
      line: 152,
      field: 'number',
      message: 'The number must be a phone number of 7 to 15 digits.',
    });
    const warnings = stderr.split('\n').filter((line) => line.startsWith(`warning: ${file} row `));
    expect(warnings).toHaveLength(20);
    expect(stderr).toContain('warning: 130 more invalid rows not listed (-o json or --rejects FILE gives every one)\n');
  });
});

describe('contacts import: cells as spreadsheets write them', () => {
  it('TRUE/FALSE in any case, yes/no and 1/0 are booleans; Female is female; the file is valid', async () => {
    const file = await api.file(
      'sheet.csv',
      'number,status,gender\n14155550101,TRUE,Female\n14155550102,False,MALE\n14155550103,yes,other\n14155550104,No,\n14155550105,1,\n14155550106,0,\n',
    );
    listFields(api, []);
    const { code, stdout } = await api.run(['contacts', 'import', file, '--dry-run', '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ rows: 6, valid_rows: 6, invalid_rows: 0, problems: [] });
  });

  it('a refusal lists the accepted values, names the row (and its line where a quoted line break moves it), and names scientific notation', async () => {
    const file = await api.file(
      'sheet.csv',
      'number,name,gender,status\n14155550101,"Ann\nLee",M,maybe\n1.23457E+11,Bob,,\n14155550103,Cy,,\n',
    );
    listFields(api, []);
    const { code, stdout, stderr } = await api.run(['contacts', 'import', file, '--dry-run', '-o', 'json']);
    expect(code).toBe(8);
    expect(JSON.parse(stdout).problems).toEqual([
      { row: 2, line: 2, field: 'gender', message: 'The selected gender is invalid: it must be one of male, female, other.' },
      {
        row: 2,
        line: 2,
        field: 'status',
        message: 'The status field must be TRUE or FALSE (any case; yes/no, 1/0 and active/inactive are read too), not "maybe".',
      },
      {
        row: 3,
        line: 4,
        field: 'number',
        message:
          'The number cell holds "1.23457E+11", a number in scientific notation: a spreadsheet wrote it so and its last digits are lost (format the column as text and save the file again).',
      },
    ]);
    expect(stderr).toContain(`warning: ${file} row 3 (line 4): number: The number cell holds "1.23457E+11"`);
  });
});

describe('imports errors', () => {
  const error = (row: number) => ({ row, line: row + 1, message: `bad ${row}`, failed: true });

  it('on a terminal: a table of every error, row and line apart, read page after page', async () => {
    api.pool
      .intercept({ path: (path) => path.startsWith(`${WSP}/contact-imports/5/errors`), method: 'GET' })
      .reply(200, page([error(2)], 1, 1, 1, 2), JSON_HEADERS);
    api.pool
      .intercept({ path: (path) => path.startsWith(`${WSP}/contact-imports/5/errors`), method: 'GET' })
      .reply(200, page([error(2), error(3)], 1, 1, 100, 2), JSON_HEADERS);
    const { code, stdout } = await api.run(['imports', 'errors', '5', '--no-color'], { stdoutTTY: true, columns: 100 });
    expect(code).toBe(0);
    expect(stdout.split('\n').map((line) => line.trimEnd())).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ROW\s+LINE\s+FAILED\s+MESSAGE$/),
        expect.stringMatching(/^2\s+3\s+yes\s+bad 2$/),
        expect.stringMatching(/^3\s+4\s+yes\s+bad 3$/),
      ]),
    );
  });

  it("on a server without the extension: the record's errors, and a warning that only those are known", async () => {
    api.pool
      .intercept({ path: (path) => path.startsWith(`${WSP}/contact-imports/5/errors`), method: 'GET' })
      .reply(404, { message: 'Not Found' }, JSON_HEADERS);
    api.pool
      .intercept({ path: `${WSP}/contact-imports/5`, method: 'GET' })
      .reply(200, { data: importRecord(5, { failed_count: 1247, errors: [{ row: 2, message: 'bad' }] }) }, JSON_HEADERS);
    const { code, stdout, stderr } = await api.run(['imports', 'errors', '5', '-o', 'csv']);
    expect(code).toBe(0);
    expect(stdout).toBe('row,line,failed,message\n2,2,true,bad\n');
    expect(stderr).toBe(
      'warning: this server does not list every error of an import: only the first 1 of import 5 are known (1,247 failed rows in all)\n',
    );
  });
});
