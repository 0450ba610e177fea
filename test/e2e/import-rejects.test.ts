/**
 * Every failed row comes back: the real `wsm` binary against a real `wsm serve`. An
 * import with more than 100 bad rows gives every one back: `imports errors` lists them all (the
 * server keeps them: GET .../errors), `--rejects` writes them with the file's own header and cells
 * plus import_error and import_line, and that file, fixed, imports again. Against the stand-in of
 * the published API (no such endpoint) wsm says that only the first errors are known.
 * The binary runs the first import, its first `imports errors` and `imports delete`; every other run
 * is in-process (in-process.ts), the entry point the binary runs.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../standin/index.js';
import { wsmInProcess } from './in-process.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup, wsm } from './processes.js';

let served: Backend;
let dir: string;

beforeAll(async () => {
  served = await serveBackend();
  dir = mkdtempSync(join(tmpdir(), 'wsm-rejects-'));
  expect((await wsmInProcess(served.env, ['fields', 'create', 'plan_type'])).code).toBe(0);
});
afterAll(async () => {
  if (served) expect(await served.stop()).toBe(0);
  if (served) cleanup(served.dir);
  cleanup(dir);
});

const BAD = 120;
/** 120 bad numbers among good rows, a multi-line cell before a bad row, a formula-guarded cell and a spreadsheet's boolean and gender. */
function importFile(): { text: string; badLines: number[] } {
  const lines = ['number,name,gender,status,plan_type,Plan_tier'];
  const badLines: number[] = [];
  for (let i = 0; i < BAD; i += 1) {
    lines.push(`1415555${String(i).padStart(4, '0')},Good ${i},Female,TRUE,gold,x`);
    lines.push(`bad-${i},"Bad, ${i}",male,FALSE,'=1+1,y`);
    badLines.push(lines.length);
  }
  lines.push('14155559998,"Two\nlines",,,,');
  lines.push('14155559999,Cy,M,maybe,,');
  badLines.push(lines.length + 1); // the quoted line break puts this row on the next line
  return { text: lines.join('\n') + '\n', badLines };
}

describe('every failed row comes back (wsm serve, the real binary)', () => {
  it('imports errors lists every error; --rejects writes every failed row as the file had it; that file, fixed, imports', async () => {
    const file = join(dir, 'leads.csv');
    const rejects = join(dir, 'rejects.csv');
    const { text, badLines } = importFile();
    writeFileSync(file, text);

    const run = await wsm(served.env, ['contacts', 'import', file, '--wait', '--rejects', rejects, '-o', 'json']);
    expect(run.code, run.stderr).toBe(8);
    const record = JSON.parse(run.stdout);
    expect(record).toMatchObject({ status: 'completed', created_count: BAD + 1, failed_count: BAD + 1, errors_total: BAD + 2 });
    expect(record.errors).toHaveLength(100);
    // Before the upload: the column no field of the workspace has, with the field it is close to.
    expect(run.stderr).toContain(
      `warning: ${file}: column "Plan_tier" will not be imported: it is neither a contact attribute nor a contact field of this workspace (did you mean "plan_type"?)\n`,
    );
    expect(run.stderr).toContain(`wrote ${BAD + 1} rows that failed to ${rejects}, with import_error and import_line`);

    const written = readFileSync(rejects, 'utf8').split('\n');
    expect(written[0]).toBe('number,name,gender,status,plan_type,Plan_tier,import_error,import_line');
    expect(written[1]).toBe(`bad-0,"Bad, 0",male,FALSE,'=1+1,y,The number must be a phone number of 7 to 15 digits.,3`);
    expect(written[BAD]).toBe(
      `bad-${BAD - 1},"Bad, ${BAD - 1}",male,FALSE,'=1+1,y,The number must be a phone number of 7 to 15 digits.,${badLines[BAD - 1]}`,
    );
    expect(written[BAD + 1]).toBe(
      '14155559999,Cy,M,maybe,,,"The selected gender is invalid: it must be one of male, female, other. ' +
        `The status field must be TRUE or FALSE (any case; yes/no, 1/0 and active/inactive are read too), not ""maybe"".",${badLines[BAD]}`,
    );
    expect(written.slice(BAD + 2)).toEqual(['']);

    const listed = await wsm(served.env, ['imports', 'errors', String(record.id), '-o', 'json']);
    expect(listed.code, listed.stderr).toBe(0);
    const errors = JSON.parse(listed.stdout);
    expect(errors).toHaveLength(BAD + 2);
    expect(errors[0]).toEqual({ row: 1, line: 1, message: 'Unknown column "Plan_tier" was ignored.', failed: false });
    // Spreadsheet row 243 starts on line 244: the row and the line are both named.
    expect(errors.at(-1)).toMatchObject({ row: badLines[BAD] - 1, line: badLines[BAD], failed: true });
    const csv = await wsmInProcess(served.env, ['imports', 'errors', String(record.id), '-o', 'csv']);
    expect(csv.stdout.split('\n').slice(0, 2)).toEqual([
      'row,line,failed,message',
      '1,1,false,"Unknown column ""Plan_tier"" was ignored."',
    ]);
    expect(csv.stdout.trimEnd().split('\n')).toHaveLength(BAD + 3);
    const selected = await wsmInProcess(served.env, ['imports', 'errors', String(record.id), '--jq', '[.[] | select(.failed)] | length']);
    expect(selected.stdout).toBe(`${BAD + 1}\n`);

    // Fixed where it failed, the rejects file imports again; its import_error and import_line columns are not named.
    writeFileSync(
      rejects,
      readFileSync(rejects, 'utf8')
        .replaceAll(/^bad-(\d+),/gm, (_, i: string) => `1415666${i.padStart(4, '0')},`)
        .replace(',M,maybe,', ',male,no,'),
    );
    const again = await wsmInProcess(served.env, ['contacts', 'import', rejects, '--wait', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'completed', created_count: BAD + 1, updated_count: 0, failed_count: 0 });
    expect(again.stderr).not.toContain('import_error');

    const deleted = await wsm(served.env, ['imports', 'delete', String(record.id), '--yes']);
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toBe(
      `✓ deleted contact import ${record.id}; the contacts it created or updated stay (\`wsm contacts list\` shows them)\n`,
    );
    // The first import's contacts (the good rows and the two-line one) are still there.
    const contacts = await wsmInProcess(served.env, ['contacts', 'list', '--search', '1415555', '-o', 'json', '--all']);
    expect(JSON.parse(contacts.stdout)).toHaveLength(BAD + 2);
  });

  it('--dry-run --rejects writes the rows the check finds invalid, with their cells beyond the header; --rejects without --wait is exit 2', async () => {
    const file = join(dir, 'dry.csv');
    const rejects = join(dir, 'dry-rejects.csv');
    writeFileSync(file, 'number,name\n14155550001,Ann\nnope,"x\ny"\n');
    const dry = await wsmInProcess(served.env, ['contacts', 'import', file, '--dry-run', '--rejects', rejects]);
    expect(dry.code).toBe(8);
    expect(readFileSync(rejects, 'utf8')).toBe(
      'number,name,import_error,import_line\nnope,"x\ny",The number must be a phone number of 7 to 15 digits.,3\n',
    );
    // A row with values beyond the header comes back with its cells, those beyond after import_error and import_line.
    writeFileSync(file, 'number,name\n14155550001,Ann,extra\n14155550002,Bo\n');
    expect((await wsmInProcess(served.env, ['contacts', 'import', file, '--dry-run', '--rejects', rejects])).code).toBe(8);
    expect(readFileSync(rejects, 'utf8')).toBe(
      'number,name,import_error,import_line\n14155550001,Ann,The row has 3 values but the header has 2 columns.,2,extra\n',
    );
    const refused = await wsmInProcess(served.env, ['contacts', 'import', file, '--rejects', rejects]);
    expect(refused).toMatchObject({
      code: 2,
      stderr: 'error: --rejects needs --wait (or --dry-run): the rows that failed are known once the server has processed the file\n',
    });
  });
  it('--rejects names --dry-run only where the verb has it: contacts import does, imports create does not', async () => {
    const words = (text: string) => text.replace(/\s+/g, ' ');
    const rejectsHelp = (help: string) => /--rejects <file> (.*?) --sheet/.exec(words(help))?.[1];
    const importHelp = await wsmInProcess(served.env, ['contacts', 'import', '--help']);
    expect(rejectsHelp(importHelp.stdout)).toBe(
      "with --wait or --dry-run: write every row that failed to <file>, with the file's header and cells plus import_error and import_line",
    );
    const createHelp = await wsmInProcess(served.env, ['imports', 'create', '--help']);
    expect(createHelp.code).toBe(0);
    expect(rejectsHelp(createHelp.stdout)).toBe(
      "with --wait: write every row that failed to <file>, with the file's header and cells plus import_error and import_line",
    );
    const file = join(dir, 'create.csv');
    writeFileSync(file, 'number,name\n14155550001,Ann\n');
    const refused = await wsmInProcess(served.env, ['imports', 'create', file, '--rejects', join(dir, 'create-rejects.csv')]);
    expect(refused).toMatchObject({
      code: 2,
      stderr: 'error: --rejects needs --wait: the rows that failed are known once the server has processed the file\n',
    });
    const noDryRun = await wsmInProcess(served.env, ['imports', 'create', file, '--dry-run']);
    expect(noDryRun.code).toBe(2);
    expect(noDryRun.stderr).toContain("unknown option '--dry-run'");
  });
  it('a rejects file imported again with --rejects: its import_error and import_line cells are overwritten, not a second pair added', async () => {
    const file = join(dir, 'fix2.csv');
    const rejects = join(dir, 'fix3.csv');
    writeFileSync(
      file,
      'number;name;gender;zipp;email;import_error;import_line\n' +
        '14155557001;Ann;female;1;;The number must be a phone number of 7 to 15 digits.;2\n' +
        'bad-2;Bo;male;2;;stale reason;5\n' +
        '14155557003;Cy;maybe;3;;stale reason;9\n',
    );
    const run = await wsmInProcess(served.env, ['contacts', 'import', file, '--wait', '--rejects', rejects]);
    expect(run.code, run.stderr).toBe(8);
    expect(readFileSync(rejects, 'utf8')).toBe(
      'number;name;gender;zipp;email;import_error;import_line\n' +
        'bad-2;Bo;male;2;;The number must be a phone number of 7 to 15 digits.;3\n' +
        '14155557003;Cy;maybe;3;;The selected gender is invalid: it must be one of male, female, other.;4\n',
    );
    // Columns named in another case and order are found as well; a short row is padded to the header.
    const moved = join(dir, 'moved.csv');
    writeFileSync(moved, 'Import_Line,number,IMPORT_ERROR,name\n7,nope,old,Di\n3,nope-too\n,14155557004,,Ed\n');
    const dry = await wsmInProcess(served.env, ['contacts', 'import', moved, '--dry-run', '--rejects', rejects]);
    expect(dry.code, dry.stderr).toBe(8);
    expect(readFileSync(rejects, 'utf8')).toBe(
      'Import_Line,number,IMPORT_ERROR,name\n' +
        '2,nope,The number must be a phone number of 7 to 15 digits.,Di\n' +
        '3,nope-too,The number must be a phone number of 7 to 15 digits.,\n',
    );
  });
});

describe('a server without the errors extension (the stand-in of the published API)', () => {
  let standin: Standin;
  beforeAll(async () => {
    standin = await startStandin({ importDelayMs: 20 });
  });
  afterAll(() => standin?.close());

  it('imports errors says only the first errors are known; --rejects holds those and the rows the check found invalid', async () => {
    const file = join(dir, 'published.csv');
    const rejects = join(dir, 'published-rejects.csv');
    writeFileSync(file, 'number,name\n14155550001,Ann\nbad,Bo\n');
    const run = await wsmInProcess(standin.env(dir), ['contacts', 'import', file, '--wait', '--rejects', rejects, '--interval', '0s']);
    expect(run.stderr).toMatch(
      /warning: this server does not list the errors of an import: none of import \d+ are known: .*published-rejects\.csv holds the rows the local check found invalid\n/,
    );
    expect(readFileSync(rejects, 'utf8')).toBe(
      'number,name,import_error,import_line\nbad,Bo,The number must be a phone number of 7 to 15 digits.,3\n',
    );
    const id = /as import (\d+)/.exec(run.stderr)![1];
    const listed = await wsmInProcess(standin.env(dir), ['imports', 'errors', id]);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toMatch(/^warning: this server does not list the errors of an import: none of import \d+ are known\n$/);
  });
});
