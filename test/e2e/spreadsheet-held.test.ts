/**
 * A sheet with a cell the plan holds goes as a CSV does: one pass over the sheet's rows finds the
 * held cell, said before the upload; the CSV sent leaves it out while the other cells of its row go
 * in; the rows are checked while the server works, so the invalid row and the rows naming one
 * contact are said after `✓ uploaded`; and the contacts end as the dry run's plan said. The .xlsx
 * is LibreOffice's own (headless, a profile of its own): a long number it rounded to 15 digits.
 * Against `wsm serve` and the stand-in of the published API: wsm runs in-process (in-process.ts:
 * the binary's entry point, its bytes and exit code), and the built binary runs the command the
 * file is about, `contacts import`, once on each backend (the held cell's import). Needs LibreOffice's
 * `soffice` (.ci/run installs it): without it this test fails, saying so.
 */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import type { Stored } from './plan-property.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const SOFFICE = process.env.SOFFICE ?? '/usr/bin/soffice';

/** `csv` typed into LibreOffice and saved as .xlsx: its numbers become number cells, as a spreadsheet keeps them. */
async function libreOfficeSheet(dir: string, name: string, csv: string): Promise<string> {
  const text = join(dir, `${name}.csv`);
  writeFileSync(text, csv);
  const profile = pathToFileURL(join(dir, 'lo-profile')).href;
  const convert = ['--headless', '--calc', '--convert-to', 'xlsx:Calc MS Excel 2007 XML', '--outdir', dir, text];
  await promisify(execFile)(SOFFICE, [`-env:UserInstallation=${profile}`, ...convert]);
  const sheet = join(dir, `${name}.xlsx`);
  if (!existsSync(sheet)) throw new Error(`LibreOffice did not write ${sheet}`);
  return sheet;
}

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`a sheet with a held cell against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const listed = async () => JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Stored[];
    let ann: Stored;

    beforeAll(async () => {
      backend = await kind.start();
      // A 16-digit name: a spreadsheet keeps 15 significant digits of it.
      const created = await run(
        'contacts',
        'create',
        '--number',
        '14155550621',
        '--name',
        '1234567890123457',
        '--email',
        'ann@old.example',
      );
      expect(created.code, created.stderr).toBe(0);
      [ann] = await listed();
    });
    afterAll(async () => {
      await backend?.stop();
    });

    it("the held cell is said before the upload and left out, its row's other cells go in, the rows are checked after it, and the result is the plan", async () => {
      const file = await libreOfficeSheet(
        backend.dir,
        'held',
        'number,name,email\n14155550621,1234567890123457,ann@new.example\n14155550622,Bob,not-an-email\n14155550623,Cy,cy@example.com\n+1 415 555 0623,Cy Two,\n',
      );
      const dry = await run('contacts', 'import', file, '--dry-run', '-o', 'json');
      expect(dry.code, dry.stderr).toBe(8);
      const plan = JSON.parse(dry.stdout) as { held: number; contacts: Array<{ number: string | null; after?: Partial<Stored> }> };
      expect(plan.held).toBe(1);

      const res = await wsm(backend.env, ['contacts', 'import', file, '--wait', '--interval', '0.1s']);
      const id = /as import (\d+)/.exec(res.stderr)?.[1];
      // The row the plan found invalid was skipped: exit 8, whether the server counts it or not.
      expect(res.code, res.stderr).toBe(8);
      expect(res.stderr).toBe(
        [
          `warning: ${file} row 2, contact ${ann.id}: name: "1234567890123457" kept, not "1234567890123460": "1234567890123457" would become "1234567890123460": a spreadsheet keeps 15 significant digits of a number and rounds the rest to zeros`,
          `warning: ${file}: 1 cell looks changed by a spreadsheet and was kept as stored: --apply-flagged to apply it`,
          `✓ uploaded ${file} as import ${id}`,
          `warning: ${file} row 3: email: The email field must be a valid email address.`,
          `warning: ${file} rows 4, 5, new contact 14155550623: the rows name one contact and are applied in order, the last row's values win (--strict refuses such a file)`,
          'warning: sent anyway: the server skips the invalid row (use --strict to refuse the file)',
          `error: import ${id}: 1 of 4 rows failed (${kind === BACKENDS[0] ? `\`wsm imports errors ${id}\` lists them` : 'the warnings above name them'})`,
          '',
        ].join('\n'),
      );

      const after = await listed();
      // Ann's e-mail (the operator's edit) went in, her name stayed as stored; Bob's row was invalid.
      expect(after.map((c) => [c.number, c.name, c.email])).toEqual([
        ['14155550621', '1234567890123457', 'ann@new.example'],
        ['14155550623', 'Cy Two', 'cy@example.com'],
      ]);
      const predicted = plan.contacts.filter((contact) => contact.after !== undefined);
      expect(predicted.map((contact) => contact.number)).toEqual(['14155550621', '14155550623']);
      for (const contact of predicted) {
        const stored = after.find((c) => c.number === contact.number);
        expect({ name: stored?.name, email: stored?.email }, contact.number ?? '').toEqual({
          name: contact.after?.name,
          email: contact.after?.email ?? null,
        });
      }
    });

    it('--apply-flagged sends the sheet as read, the rounded name too', async () => {
      const file = await libreOfficeSheet(backend.dir, 'applied', 'number,name\n14155550621,1234567890123457\n');
      const res = await run('contacts', 'import', file, '--wait', '--interval', '0.1s', '--apply-flagged', '-q');
      expect(res.code, res.stderr).toBe(0);
      expect((await listed()).find((c) => c.id === ann.id)?.name).toBe('1234567890123460');
    });
  });
}
