/**
 * A hostile import file of 200,000 refused rows, each refused twice (an e-mail, the same message
 * every row; a status cell quoted in its message, different every row), through the real binary
 * against a real `wsm serve`. The row report keeps its problems a few bytes each: stderr names the
 * first 20 rows and counts the rest, -o json lists every problem in file order, --rejects writes
 * every refused row, and past 10,000 different messages a problem says its reason was not kept.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, backendFile, serveBackend } from './backends.js';
import { cleanup, testEnv, wsm } from './processes.js';

const REFUSED = 200_000;
const EMAIL = 'The email field must be a valid email address.';
const NOT_KEPT = "This status was refused; the reason is not kept: the file's refusals say more than 10,000 different things.";

/** One valid row, then REFUSED rows: row 3 onwards, each line its row. */
const hostile = () =>
  'number,name,email,status\n+14155550100,Good,good@example.com,true\n' +
  Array.from({ length: REFUSED }, (_, i) => `+1415${String(1_000_000 + i)},Bad ${i},not-an-address,s${i}\n`).join('');

let backend: Backend;
let file: string;

beforeAll(async () => {
  backend = await serveBackend();
  file = backendFile(backend, 'hostile.csv', hostile());
});
afterAll(async () => {
  if (backend !== undefined) {
    expect(await backend.stop()).toBe(0);
    cleanup(backend.dir);
  }
});

describe('an import file of 200,000 refused rows (wsm serve, the real binary)', () => {
  it('--dry-run -o json lists every problem in file order, --rejects writes every refused row; stderr names the first 20 rows', async () => {
    const rejects = join(backend.dir, 'rejects.csv');
    const run = await wsm(backend.env, ['contacts', 'import', file, '--dry-run', '-o', 'json', '--rejects', rejects]);
    expect(run.code, run.stderr.slice(0, 500)).toBe(8);
    const plan = JSON.parse(run.stdout);
    expect(plan).toMatchObject({ rows: REFUSED + 1, valid_rows: 1, invalid_rows: REFUSED, invalid: REFUSED, create: 1 });
    expect(plan.contacts).toHaveLength(REFUSED + 1);
    expect(plan.problems).toHaveLength(2 * REFUSED);
    const status = (cell: string) => expect.stringMatching(new RegExp(`^The status field .*, not "${cell}"\\.$`));
    expect(plan.problems.slice(0, 2)).toEqual([
      { row: 3, line: 3, field: 'email', message: EMAIL },
      { row: 3, line: 3, field: 'status', message: status('s0') },
    ]);
    // The 9,999th different status message is kept; every one after it is not.
    expect(plan.problems[2 * 9_998 + 1]).toEqual({ row: 9_998 + 3, line: 9_998 + 3, field: 'status', message: status('s9998') });
    expect(plan.problems[2 * 9_999 + 1]).toEqual({ row: 9_999 + 3, line: 9_999 + 3, field: 'status', message: NOT_KEPT });
    expect(plan.problems.at(-2)).toEqual({ row: REFUSED + 2, line: REFUSED + 2, field: 'email', message: EMAIL });
    expect(plan.problems.at(-1)).toEqual({ row: REFUSED + 2, line: REFUSED + 2, field: 'status', message: NOT_KEPT });
    const rows = plan.problems.map((problem: { row: number }) => problem.row);
    expect(rows.every((row: number, i: number) => row === 3 + Math.floor(i / 2))).toBe(true);

    const written = readFileSync(rejects, 'utf8').split('\n');
    expect(written).toHaveLength(REFUSED + 2);
    expect(written[0]).toBe('number,name,email,status,import_error,import_line');
    expect(written[1]).toMatch(
      /^\+14151000000,Bad 0,not-an-address,s0,"The email field must be a valid email address\. The status field .*, not ""s0""\.",3$/,
    );
    expect(written.at(-2)).toBe(`+14151199999,Bad 199999,not-an-address,s199999,"${EMAIL} ${NOT_KEPT}",${REFUSED + 2}`);
    expect(written.at(-1)).toBe('');
    expect(run.stderr).toContain(`wrote ${REFUSED.toLocaleString('en-US')} rows that failed to ${rejects}`);

    const warned = run.stderr.split('\n').filter((line) => line.startsWith(`warning: ${file} row `));
    expect(warned).toHaveLength(40);
    expect(warned.slice(0, 2)).toEqual([
      `warning: ${file} row 3: email: ${EMAIL}`,
      expect.stringMatching(/^warning: .* row 3: status: .*"s0"\.$/),
    ]);
    expect(warned.at(-1)).toMatch(/ row 22: status: .*"s19"\.$/);
    expect(run.stderr).toContain('warning: 199,980 more invalid rows not listed (-o json or --rejects FILE gives every one)\n');
  });

  it('a dry run without a login (no plan) streams the report alike: -o ndjson is one line holding every problem', async () => {
    const run = await wsm(testEnv(join(backend.dir, 'no-login')), ['contacts', 'import', file, '--dry-run', '-o', 'ndjson']);
    expect(run.code, run.stderr.slice(0, 500)).toBe(8);
    expect(run.stdout.endsWith('}\n') && run.stdout.indexOf('\n') === run.stdout.length - 1).toBe(true);
    const report = JSON.parse(run.stdout);
    expect(Object.keys(report)).toEqual([
      'file',
      'columns',
      'rows',
      'valid_rows',
      'invalid_rows',
      'problems',
      'unknown_columns',
      'fields_checked',
      'unchecked_columns',
    ]);
    expect(report).toMatchObject({ rows: REFUSED + 1, valid_rows: 1, invalid_rows: REFUSED });
    expect(report.problems).toHaveLength(2 * REFUSED);
    expect(report.problems.at(-1)).toEqual({ row: REFUSED + 2, line: REFUSED + 2, field: 'status', message: NOT_KEPT });
  });

  it('--strict refuses the file naming the first 20 rows and counting the rest: exit 2, nothing sent', async () => {
    const run = await wsm(backend.env, ['contacts', 'import', file, '--strict', '--wait']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`^error: ${file}: 200,000 of 200,001 rows are invalid \\(--strict\\): nothing was sent`));
    expect(run.stderr).toContain(`row 3 email: ${EMAIL}`);
    expect(run.stderr).toMatch(/row 22 status: .*"s19"\./);
    expect(run.stderr).not.toContain('row 23 ');
    expect(run.stderr).toContain('199,980 more invalid rows not listed (-o json or --rejects FILE gives every one)');
    const imports = await wsm(backend.env, ['imports', 'list', '-o', 'json']);
    expect(JSON.parse(imports.stdout)).toEqual([]);
  });
});
