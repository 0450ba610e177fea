/**
 * An import file naming a column twice (`name` beside `Name`, `number` twice) is refused before
 * anything is sent, its dry run too, as `update --from` refuses one: `wsm serve` reads such a column
 * from its first cell, a server whose reading is not known may read it from its last, so the plan
 * could not say which value the run sets. Columns no import reads (the export's `id`, a nameless
 * one) may repeat. A CSV and an `.xlsx` sheet alike, against `wsm serve` and the stand-in of the
 * published API, whose requests show that nothing was uploaded. The refusals are the built
 * binary's; the reads in-process (in-process.ts).
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeExcelLike } from '../formats/xlsx/excel-like.js';
import { BACKENDS, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const REFUSAL = (file: string) =>
  [
    `error: ${file} names a column twice: nothing was sent`,
    '  number: columns 1 and 4 are both "number": keep one.',
    '  name: columns 2 and 3 are both "name": keep one.',
    '',
  ].join('\n');

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`an import file naming a column twice, against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const numbers = async () =>
      (JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Array<{ number: string }>).map((c) => c.number);

    beforeAll(async () => {
      backend = await kind.start();
    });
    afterAll(async () => {
      await backend?.stop();
    });

    it('is refused, exit 2, by the dry run and the run, a CSV and a sheet alike, and nothing is uploaded', async () => {
      const csv = join(backend.dir, 'twice.csv');
      writeFileSync(csv, 'number,name,Name,NUMBER\n14155550801,First,Last,14155550802\n');
      const sheet = join(backend.dir, 'twice.xlsx');
      await writeExcelLike(sheet, [
        { name: 'Sheet1', rows: { 1: ['number', 'name', 'Name', 'NUMBER'], 2: ['14155550801', 'First', 'Last', '14155550802'] } },
      ]);
      for (const file of [csv, sheet])
        for (const args of [
          ['contacts', 'import', file, '--dry-run'],
          ['contacts', 'import', file, '--wait'],
          ['imports', 'create', file, '--yes'],
        ]) {
          const res = await wsm(backend.env, args);
          expect([res.code, res.stderr, res.stdout], args.join(' ')).toEqual([2, REFUSAL(file), '']);
        }
      expect(await numbers()).toEqual([]);
      const imports = await run('imports', 'list', '-o', 'json');
      expect(imports.code, imports.stderr).toBe(0);
      expect(JSON.parse(imports.stdout)).toEqual([]);
    });

    it("takes a file whose repeated columns are ones no import reads (the export's id, a nameless column)", async () => {
      const csv = join(backend.dir, 'skipped.csv');
      writeFileSync(csv, 'id,number,name,ID,,\n7,14155550803,Ann,7,,\n');
      const res = await run('contacts', 'import', csv, '--wait', '--interval', '0.1s', '-q');
      expect(res.code, res.stderr).toBe(0);
      expect(await numbers()).toEqual(['14155550803']);
    });
  });
}
