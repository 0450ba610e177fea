/**
 * An export opened in LibreOffice and saved as CSV comes back with its numbers, dates and times in
 * LibreOffice's own format: `1.50` as `1.5`, `1,000` as `1000`, `5%` as `5.00%`, `Jan 5` as
 * `01/05/26`, `12:30` as `12:30:00 PM`. None of those was the operator's
 * edit, so `contacts import` and `contacts update --from` hold them as spreadsheet damage (the
 * stored value kept, each cell said on stderr as the import says it) while the one cell the operator changed goes in, and the
 * contacts end as the dry run's plan said. Against `wsm serve` and the stand-in of the published
 * API; the real runs are the built binary's. Needs LibreOffice's `soffice` (.ci/run installs it):
 * without it this test fails, saying so.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import type { Stored } from './plan-property.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const SOFFICE = process.env.SOFFICE ?? '/usr/bin/soffice';

/** The names a spreadsheet reads as numbers, dates and times, each with what the plan says of it, and the one the operator edits. */
const NUMBER = 'the same number in another format, as a spreadsheet writes a number back';
const DATE = 'the same date or time in another format, as a spreadsheet writes one back';
const HELD = [
  ['1.50', NUMBER],
  ['1,000', NUMBER],
  ['5%', NUMBER],
  ['Jan 5', DATE],
  ['12:30', DATE],
];
const NAMES = [...HELD.map(([name]) => name), 'Edit Me'];

/** The name column of a CSV LibreOffice saved (no name there holds a comma), row by row. */
const savedNames = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',')[2].replace(/^"|"$/g, ''));

/** `csv` opened in LibreOffice (its numbers read as numbers) and saved as CSV again, as `name`.csv in `dir`. */
async function throughLibreOffice(dir: string, name: string, csv: string): Promise<string> {
  const profile = `-env:UserInstallation=${pathToFileURL(join(dir, 'lo-profile')).href}`;
  writeFileSync(join(dir, `${name}.csv`), csv);
  const office = (...args: string[]) => promisify(execFile)(SOFFICE, [profile, '--headless', ...args]);
  await office('--infilter=CSV:44,34,76,1', '--convert-to', 'xlsx', '--outdir', join(dir, 'sheets'), join(dir, `${name}.csv`));
  await office(
    '--convert-to',
    'csv:Text - txt - csv (StarCalc):44,34,76,1',
    '--outdir',
    join(dir, 'saved'),
    join(dir, 'sheets', `${name}.xlsx`),
  );
  const saved = join(dir, 'saved', `${name}.csv`);
  if (!existsSync(saved)) throw new Error(`LibreOffice did not write ${saved}`);
  return saved;
}

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`numbers, dates and times LibreOffice wrote in its own format, against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const names = async () => (JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Stored[]).map((c) => c.name);
    /** The workspace exported, through LibreOffice, with the operator's one edit typed into the saved file. */
    const savedExport = async (name: string, [from, edit]: [string, string]) => {
      const exported = await run('contacts', 'export');
      expect(exported.code, exported.stderr).toBe(0);
      const saved = await throughLibreOffice(backend.dir, name, exported.stdout);
      const text = readFileSync(saved, 'utf8');
      expect(text).toContain(`"${from}"`);
      writeFileSync(saved, text.replace(`"${from}"`, `"${edit}"`));
      return saved;
    };

    beforeAll(async () => {
      if (!existsSync(SOFFICE))
        throw new Error(
          `${SOFFICE} not found: install LibreOffice (apt-get install -y libreoffice-calc-nogui; .ci/run does) or set SOFFICE to its soffice`,
        );
      backend = await kind.start();
      for (const [at, name] of NAMES.entries()) {
        const made = await run('contacts', 'create', '--number', `1415555070${at}`, '--name', name);
        expect(made.code, made.stderr).toBe(0);
      }
    });
    afterAll(async () => {
      await backend?.stop();
    });

    it('update --from holds each reformatted number, date and time and names it, applies the edit, and ends as its plan said', async () => {
      const file = await savedExport('update', ['Edit Me', 'Edited']);
      const written = savedNames(file);
      expect(written.slice(0, 4)).toEqual(['1.5', '1000', '5.00%', expect.stringMatching(/^01\/05\/\d\d$/)]);
      const dry = await run('contacts', 'update', '--from', file, '--dry-run', '-o', 'json');
      expect(dry.code, dry.stderr).toBe(0);
      const plan = JSON.parse(dry.stdout) as { held: number; update: number; contacts: Array<{ id: number; after?: { name: string } }> };
      expect([plan.held, plan.update]).toEqual([5, 1]);
      expect(plan.contacts.map((contact) => contact.after?.name)).toEqual([...HELD.map(([name]) => name), 'Edited']);

      const res = await wsm(backend.env, ['contacts', 'update', '--from', file]);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe(
        [
          `${file}: it is read as a \`wsm contacts export\` file (its header is the export's): the ' the export puts before a value starting with = + - @ is taken off.`,
          ...HELD.map(
            ([from, why], at) =>
              `warning: ${file} line ${at + 2}, contact ${plan.contacts[at].id}: name: "${from}" kept, not "${written[at]}": "${from}" would become "${written[at]}": ${why}`,
          ),
          `warning: ${file}: 5 cells look changed by a spreadsheet and were kept as stored: --apply-flagged to apply them`,
          `✓ updated 1 of the 6 contacts read from ${file}: 0 unchanged, 5 skipped, 0 failed`,
          '',
        ].join('\n'),
      );
      expect(await names()).toEqual([...HELD.map(([name]) => name), 'Edited']);
    });

    it('an import keeps the stored numbers, dates and times, takes the edit, and ends as its plan said', async () => {
      const file = await savedExport('import', ['Edited', 'Imported']);
      const dry = await run('contacts', 'import', file, '--dry-run', '-o', 'json');
      expect(dry.code, dry.stderr).toBe(0);
      const plan = JSON.parse(dry.stdout) as { held: number; update: number };
      expect([plan.held, plan.update]).toEqual([5, 1]);

      const res = await wsm(backend.env, ['contacts', 'import', file, '--wait', '--interval', '0.1s']);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain(`warning: ${file} row 2, contact`);
      expect(res.stderr).toContain(
        ': name: "1.50" kept, not "1.5": "1.50" would become "1.5": the same number in another format, as a spreadsheet writes a number back\n',
      );
      expect(res.stderr).toContain(
        `warning: ${file}: 5 cells look changed by a spreadsheet and were kept as stored: --apply-flagged to apply them\n`,
      );
      expect(await names()).toEqual([...HELD.map(([name]) => name), 'Imported']);
    });
  });
}
