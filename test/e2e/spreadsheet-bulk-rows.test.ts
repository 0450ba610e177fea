/**
 * `contacts update|delete --from FILE.xlsx` read the sheet's cells as cells, as `contacts import`
 * does (one reading of a sheet's rows for every verb): a cell holding a semicolon, a tab or a line
 * break is one value of one column, never text split again as a CSV's would be. Against `wsm
 * serve`; wsm runs in-process (in-process.ts: the binary's entry point, its bytes and exit code),
 * and the built binary runs each command the file is about once: the refused `contacts update` and
 * `contacts delete` of a one-column sheet.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeExcelLike } from '../formats/xlsx/excel-like.js';
import { BACKENDS, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

describe('contacts update|delete --from FILE.xlsx: a cell is one value, whatever it holds', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  const binary = (...args: string[]) => wsm(backend.env, args);
  const ids: string[] = [];
  const names = async () =>
    (JSON.parse((await run('contacts', 'list', '-o', 'json')).stdout) as Array<{ id: number; name: string }>).map((c) => [
      String(c.id),
      c.name,
    ]);
  beforeAll(async () => {
    backend = await BACKENDS[0].start();
    for (const number of ['14155550701', '14155550702']) {
      ids.push((await run('contacts', 'create', '--number', number, '--name', `Person ${number.slice(-1)}`, '-q')).stdout.trim());
    }
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('a sheet whose one column is headed "id;name" has no id column: update and delete refuse it, nothing sent (exit 2)', async () => {
    const file = join(backend.dir, 'pasted.xlsx');
    // CSV text pasted into column A: the spreadsheet shows one column, and so is it read.
    await writeExcelLike(file, [{ name: 'Sheet1', rows: { 1: ['id;name'], 2: [`${ids[0]};Renamed`] } }]);
    const refusal = `error: ${file} has no "id" column: nothing was sent\n  id: The header row must have an id column (or give one id a line).\n`;
    const update = await binary('contacts', 'update', '--from', file, '--yes');
    expect(update.code, update.stdout).toBe(2);
    expect(update.stderr).toBe(refusal);

    await writeExcelLike(file, [{ name: 'Sheet1', rows: { 1: ['id\tnote'], 2: [`${ids[1]}\tleft`] } }]);
    const remove = await binary('contacts', 'delete', '--from', file, '--yes');
    expect(remove.code, remove.stdout).toBe(2);
    expect(remove.stderr).toBe(refusal);
    expect(await names()).toEqual([
      [ids[0], 'Person 1'],
      [ids[1], 'Person 2'],
    ]);
  });

  it('a cell holding a line break and a semicolon is one name; the plan names each row by its sheet row', async () => {
    const file = join(backend.dir, 'cells.xlsx');
    await writeExcelLike(file, [
      {
        name: 'Sheet1',
        rows: { 1: ['id', 'name'], 2: [{ number: Number(ids[0]) }, 'Ann;\nLee'], 3: [{ number: Number(ids[1]) }, 'Bo'] },
      },
    ]);
    const plan = await run('contacts', 'update', '--from', file, '--dry-run');
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toBe(
      [
        `~ row 2: update contact ${ids[0]} (14155550701)`,
        '    name: "Person 1" -> "Ann;\\nLee"',
        `~ row 3: update contact ${ids[1]} (14155550702)`,
        '    name: "Person 2" -> "Bo"',
        'Plan: 0 to create, 2 to update, 0 unchanged, 0 invalid.',
        '',
      ].join('\n'),
    );
    const res = await run('contacts', 'update', '--from', file);
    expect(res.code, res.stderr).toBe(0);
    expect(await names()).toEqual([
      [ids[0], 'Ann;\nLee'],
      [ids[1], 'Bo'],
    ]);
  });
});
