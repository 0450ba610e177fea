/**
 * The round trip through a real spreadsheet: `contacts export -o xlsx` -> opened and
 * saved by LibreOffice (headless) -> `contacts import` into the same workspace changes nothing;
 * an edited copy (two cells changed, saved by LibreOffice again) given to `contacts update --from`
 * changes exactly those two cells; a sheet LibreOffice writes from typed cells (a number format
 * 00000, a date, a boolean, a formula, an error) imports as LibreOffice shows it. Needs LibreOffice's `soffice` (.ci/run installs
 * libreoffice-calc-nogui): without it this test fails, saying so; it never passes without it.
 * wsm runs in-process (in-process.ts); the built binary runs each command once: the first export,
 * its import and the update --from of the edited copy.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openZip } from '../../src/formats/xlsx/zip-reader.js';
import { ZipWriter } from '../../src/formats/xlsx/zip-writer.js';
import { wsm } from './processes.js';
import { BACKENDS, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';

const SOFFICE = process.env.SOFFICE ?? '/usr/bin/soffice';

let backend: Backend;
const run = (...args: string[]) => wsmInProcess(backend.env, args);

/** Opens `file` in LibreOffice and saves it as .xlsx (same name) into `folder` (a profile of its own, so runs never share one). */
async function saveWithLibreOffice(file: string, folder: string): Promise<string> {
  mkdirSync(folder, { recursive: true });
  const profile = pathToFileURL(join(backend.dir, 'lo-profile')).href;
  await promisify(execFile)(SOFFICE, [
    `-env:UserInstallation=${profile}`,
    '--headless',
    '--calc',
    '--convert-to',
    'xlsx:Calc MS Excel 2007 XML',
    '--outdir',
    folder,
    file,
  ]);
  const saved = join(folder, basename(file).replace(/\.[^.]+$/, '.xlsx'));
  if (!existsSync(saved)) throw new Error(`LibreOffice did not write ${saved}`);
  return saved;
}

/** A copy of an .xlsx with some text replaced in its parts (what typing into two cells does to the file). */
async function edited(file: string, to: string, replacements: Array<[string, string]>): Promise<void> {
  const zip = await openZip(file);
  const chunks: Buffer[] = [];
  const out = new ZipWriter({ write: async (bytes) => void chunks.push(Buffer.from(bytes)) });
  for (const name of zip.names()) {
    let text = await zip.text(name);
    for (const [from, into] of replacements) text = text.replace(from, into);
    await out.add(name, [text]);
  }
  await out.finish();
  await zip.close();
  writeFileSync(to, Buffer.concat(chunks));
}

type Contact = Record<string, unknown> & { id: number; name: string; fields: Record<string, string> };
const contacts = async () =>
  (JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Contact[]).map(({ updated_at: _, ...rest }) => rest);

beforeAll(async () => {
  // Never a skip: without LibreOffice nothing here can say that a spreadsheet's file comes back whole.
  if (!existsSync(SOFFICE))
    throw new Error(
      `${SOFFICE} not found: install LibreOffice (apt-get install -y libreoffice-calc-nogui; .ci/run does) or set SOFFICE to its soffice`,
    );
  backend = await BACKENDS[0].start();
  for (const field of ['code', 'note', 'flag', 'day', 'big', 'zip', 'joined']) expect((await run('fields', 'create', field)).code).toBe(0);
  expect((await run('groups', 'create', 'VIP')).code).toBe(0);
  const people: Array<[string, string, string[]]> = [
    ['07700900123', 'Zoë =1+1', ['code=00012345678901234567', 'note=line one\nline two', 'flag=true', 'day=5/12', 'big=1E5']],
    ['14155550102', 'مرحبا 😀', ['code=0042', 'note=@home', 'flag=FALSE', 'day=2024-11-26', 'big=447911123458']],
    ['14155550103', 'Edit Me', ['code=-7', 'note=Lisbon', 'flag=yes', 'day=12/5', 'big=00000']],
  ];
  for (const [number, name, fields] of people) {
    const res = await run(
      'contacts',
      'create',
      '--number',
      number,
      '--name',
      name,
      '--group',
      '1',
      ...fields.flatMap((f) => ['--field', f]),
    );
    expect(res.code, res.stderr).toBe(0);
  }
});

afterAll(async () => {
  if (backend) expect(await backend?.stop()).toBe(0);
});

describe('the round trip through LibreOffice', () => {
  it('export -o xlsx, saved by LibreOffice, imported into the same workspace: nothing changes', async () => {
    const before = await contacts();
    const file = join(backend.dir, 'contacts.xlsx');
    expect((await wsm(backend.env, ['contacts', 'export', '--output-file', file])).code).toBe(0);
    const saved = await saveWithLibreOffice(file, join(backend.dir, 'saved'));
    const res = await wsm(backend.env, ['contacts', 'import', saved, '--wait', '--interval', '0.2s', '-o', 'json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ failed_count: 0, created_count: 0 });
    expect(await contacts()).toEqual(before);
  });

  it('an edited copy, saved by LibreOffice, given to update --from: exactly the edited cells change', async () => {
    const before = await contacts();
    const file = join(backend.dir, 'to-edit.xlsx');
    expect((await run('contacts', 'export', '--output-file', file)).code).toBe(0);
    const saved = await saveWithLibreOffice(file, join(backend.dir, 'first'));
    const changed = join(backend.dir, 'changed', 'to-edit.xlsx');
    mkdirSync(join(backend.dir, 'changed'));
    // LibreOffice keeps text in its shared strings: one name and one city, each in one cell.
    await edited(saved, changed, [
      ['>Edit Me<', '>Edited Name<'],
      ['>Lisbon<', '>Porto<'],
    ]);
    const again = await saveWithLibreOffice(changed, join(backend.dir, 'second'));
    const res = await wsm(backend.env, ['contacts', 'update', '--from', again, '-o', 'json']);
    expect(res.code, res.stderr).toBe(0);
    const after = await contacts();
    const target = before.find((c) => c.name === 'Edit Me')!;
    expect(after).toEqual(
      before.map((c) => (c.id === target.id ? { ...c, name: 'Edited Name', fields: { ...c.fields, note: 'Porto' } } : c)),
    );
  });

  it('a workbook LibreOffice writes from typed cells imports as LibreOffice shows them; the error cell names its row', async () => {
    const sheet = join(backend.dir, 'typed.fods');
    const cell = (attributes: string, text: string) => `<table:table-cell ${attributes}><text:p>${text}</text:p></table:table-cell>`;
    const text = (value: string) => cell('office:value-type="string"', value);
    writeFileSync(
      sheet,
      `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:styles>
<number:number-style style:name="N5"><number:number number:min-integer-digits="5" number:decimal-places="0"/></number:number-style>
<number:date-style style:name="D1"><number:year number:style="long"/><number:text>-</number:text><number:month number:style="long"/><number:text>-</number:text><number:day number:style="long"/></number:date-style>
<number:boolean-style style:name="B1"><number:boolean/></number:boolean-style>
</office:styles>
<office:automatic-styles>
<style:style style:name="ce1" style:family="table-cell" style:data-style-name="N5"/>
<style:style style:name="ce2" style:family="table-cell" style:data-style-name="D1"/>
<style:style style:name="ce3" style:family="table-cell" style:data-style-name="B1"/>
</office:automatic-styles>
<office:body><office:spreadsheet><table:table table:name="Leads">
<table:table-row>${['number', 'name', 'zip', 'joined', 'status', 'email'].map(text).join('')}</table:table-row>
<table:table-row>${cell('office:value-type="float" office:value="447911123458"', '447911123458')}${cell('table:formula="of:=CONCATENATE(&quot;Bo&quot;;&quot;b&quot;)" office:value-type="string" office:string-value="Bob"', 'Bob')}${cell('table:style-name="ce1" office:value-type="float" office:value="123"', '00123')}${cell('table:style-name="ce2" office:value-type="date" office:date-value="2024-11-26"', '2024-11-26')}${cell('table:style-name="ce3" office:value-type="boolean" office:boolean-value="false"', 'FALSE')}${text('bob@example.com')}</table:table-row>
<table:table-row>${cell('office:value-type="float" office:value="14155550777"', '14155550777')}${text('Cy')}<table:table-cell/><table:table-cell/><table:table-cell/>${cell('table:formula="of:=NA()" office:value-type="float" office:value="0"', '#N/A')}</table:table-row>
</table:table></office:spreadsheet></office:body></office:document>
`,
    );
    // LibreOffice opens the sheet and saves it as .xlsx: its own number formats, booleans, formulas and errors.
    const saved = await saveWithLibreOffice(sheet, join(backend.dir, 'typed'));
    const res = await run('contacts', 'import', saved, '--wait', '--interval', '0.2s', '-o', 'json');
    expect(res.code, res.stderr).toBe(8);
    expect(res.stderr).toContain('2 cells hold formulas (first B2)'); // CONCATENATE and NA()
    expect(res.stderr).toContain('row 3: F3 (email): The cell holds the error #N/A, not a value.');
    expect(res.stderr).toMatch(/1 of 2 rows failed, 1 of them not sent \(cells holding errors\)/);
    const bob = (await contacts()).find((c) => c.name === 'Bob');
    expect(bob).toMatchObject({
      number: '447911123458',
      status: false,
      email: 'bob@example.com',
      fields: { zip: '00123', joined: '2024-11-26' },
    });
  });

  it("LibreOffice's booleans (=TRUE(), =FALSE(): a formula with its boolean result) import as booleans, with no formula warning", async () => {
    const sheet = join(backend.dir, 'booleans.fods');
    const cell = (attributes: string, text: string) => `<table:table-cell ${attributes}><text:p>${text}</text:p></table:table-cell>`;
    const row = (number: string, name: string, formula: string) =>
      `<table:table-row>${cell(`office:value-type="float" office:value="${number}"`, number)}${cell('office:value-type="string"', name)}${cell(`table:formula="of:=${formula}()" office:value-type="boolean" office:boolean-value="${formula === 'TRUE'}"`, formula)}</table:table-row>`;
    writeFileSync(
      sheet,
      `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:body><office:spreadsheet><table:table table:name="Flags">
<table:table-row>${['number', 'name', 'status'].map((t) => cell('office:value-type="string"', t)).join('')}</table:table-row>
${row('14155550881', 'True Tess', 'TRUE')}${row('14155550882', 'False Fred', 'FALSE')}
</table:table></office:spreadsheet></office:body></office:document>
`,
    );
    const saved = await saveWithLibreOffice(sheet, join(backend.dir, 'booleans'));
    const res = await run('contacts', 'import', saved, '--wait', '--interval', '0.2s', '-o', 'json');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toContain('formula');
    const people = await contacts();
    expect(people.find((c) => c.name === 'True Tess')).toMatchObject({ status: true });
    expect(people.find((c) => c.name === 'False Fred')).toMatchObject({ status: false });
  });
});
