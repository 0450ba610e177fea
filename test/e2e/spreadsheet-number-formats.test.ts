/**
 * Number formats through the commands, against `wsm serve`: a cell whose display drops digits it
 * holds (4.48E+11 for 447911123458) is read in full and said so, once on stderr and under its
 * row in the plans of `contacts import --dry-run` and `contacts update --from --dry-run`; a cell
 * whose format cannot be rendered stops the file before anything is sent, naming the cell and the
 * format (exit 2), never read as the format code.
 * wsm runs in-process (in-process.ts); the built binary runs each command's first plan.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeExcelLike } from '../formats/xlsx/excel-like.js';
import { wsm } from './processes.js';
import { BACKENDS, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';

let backend: Backend;
const run = (...args: string[]) => wsmInProcess(backend.env, args);
const contacts = async () => JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Array<Record<string, unknown>>;

beforeAll(async () => {
  backend = await BACKENDS[0].start();
  expect((await run('fields', 'create', 'account')).code).toBe(0);
});
afterAll(async () => {
  if (backend) expect(await backend.stop()).toBe(0);
});

describe('a display that drops digits the cell holds', () => {
  it('contacts import --dry-run: read in full, said on stderr and under the row in the plan; the import stores every digit', async () => {
    const file = join(backend.dir, 'phones.xlsx');
    await writeExcelLike(file, [
      {
        name: 'Leads',
        rows: {
          1: ['number', 'name', 'account'],
          2: [{ number: 447911123458, format: '0.00E+00' }, 'Ann', { number: 1234567, format: '0.0E+0' }],
          3: [{ number: 14155550102, format: '+0 000 000 0000' }, 'Bob', { number: 1500, format: '0.00E+00' }],
        },
      },
    ]);
    const plan = await wsm(backend.env, ['contacts', 'import', file, '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain(
      `${file}: 2 cells show fewer digits than they hold, each read in full (first A2 shows 4.48E+11; read as 447911123458); --dry-run names them`,
    );
    expect(plan.stdout).toContain(
      '+ row 2: create 447911123458\n    name: "Ann"\n    fields.account: "1234567"\n    note: A2 shows 4.48E+11; read as 447911123458\n    note: C2 shows 1.2E+6; read as 1234567\n',
    );
    // Bob's number is shown as its format writes it; 1.50E+03 holds every digit of 1500: no note, but
    // it is scientific notation, which the import leaves out unless --apply-flagged.
    expect(plan.stdout).toContain(
      '+ row 3: create 14155550102\n    name: "Bob"\n    ! fields.account: "1.50E+03" left out: "1.50E+03" is in scientific notation, as a spreadsheet writes a long number: its last digits may be lost\n',
    );
    const json = JSON.parse((await run('contacts', 'import', file, '--dry-run', '-o', 'json')).stdout);
    expect(json.contacts[0].notes).toEqual(['A2 shows 4.48E+11; read as 447911123458', 'C2 shows 1.2E+6; read as 1234567']);

    const real = await run('contacts', 'import', file, '--wait', '--interval', '0.2s', '--yes', '-o', 'json');
    expect(real.code, real.stderr).toBe(0);
    expect((await contacts()).find((c) => c.name === 'Ann')).toMatchObject({ number: '447911123458', fields: { account: '1234567' } });
  });

  it('contacts update --from --dry-run: the note is under the row of the contact it names', async () => {
    const ann = (await contacts()).find((c) => c.name === 'Ann')!;
    const file = join(backend.dir, 'changes.xlsx');
    await writeExcelLike(file, [
      { name: 'Sheet1', rows: { 1: ['id', 'account'], 4: [{ number: Number(ann.id) }, { number: 987654321012, format: '0.00E+00' }] } },
    ]);
    const plan = await wsm(backend.env, ['contacts', 'update', '--from', file, '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(
      `~ row 4: update contact ${ann.id} (447911123458)\n    fields.account: "1234567" -> "987654321012"\n    note: B4 shows 9.88E+11; read as 987654321012\n`,
    );
    expect(plan.stderr).toContain(
      `${file}: 1 cell shows fewer digits than it holds, each read in full (first B4 shows 9.88E+11; read as 987654321012)`,
    );
  });
});

const FIX = 'format the column as text or General, then import again: nothing was sent';

describe('a format that cannot be rendered', () => {
  it('stops the file before anything is sent, naming the cell and the format (exit 2)', async () => {
    const before = await contacts();
    const file = join(backend.dir, 'bad-format.xlsx');
    await writeExcelLike(file, [
      {
        name: 'Sheet1',
        rows: { 1: ['number', 'name'], 2: [{ number: 14155550111 }, 'Cy'], 3: [{ number: 14155550112, format: '0.00E' }, 'Di'] },
      },
    ]);
    const refusal = `error: ${file} (cell A3 of sheet "Sheet1"): its number format "0.00E" cannot be rendered (Illegal character: 0.00E): ${FIX}\n`;
    for (const args of [
      ['contacts', 'import', file, '--yes'],
      ['contacts', 'import', file, '--dry-run'],
    ]) {
      const res = await run(...args);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toBe(refusal);
    }
    const date = join(backend.dir, 'bad-date.xlsx');
    await writeExcelLike(date, [
      {
        name: 'Sheet1',
        rows: { 1: ['id', 'joined'], 2: [{ number: Number(before[0].id) }, { number: 35_000_000, format: 'yyyy-mm-dd' }] },
      },
    ]);
    const update = await run('contacts', 'update', '--from', date);
    expect(update.code, update.stderr).toBe(2);
    expect(update.stderr).toBe(
      `error: ${date} (cell B2 of sheet "Sheet1"): it holds 35000000, which its number format "yyyy-mm-dd" cannot show (a spreadsheet shows #FMT or ###): ${FIX}\n`,
    );
    expect(await contacts()).toEqual(before);
  });
});
