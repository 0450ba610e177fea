/**
 * Issue 35.3, the round trip through a real spreadsheet: `contacts export -o xlsx` -> opened and
 * saved by LibreOffice (headless) -> `contacts import` into the same workspace changes nothing;
 * an edited copy (two cells changed, saved by LibreOffice again) given to `contacts update --from`
 * changes exactly those two cells. Needs LibreOffice's `soffice` (.ci/run installs
 * libreoffice-calc-nogui): without it this test fails, saying so; it never passes without it.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openZip } from '../../src/cli/xlsx/zip-reader.js';
import { ZipWriter } from '../../src/cli/xlsx/zip-writer.js';
import { BACKENDS, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';

const SOFFICE = process.env.SOFFICE ?? '/usr/bin/soffice';

let backend: Backend;
const run = (...args: string[]) => wsmInProcess(backend.env, args);

/** Opens `file` in LibreOffice and saves it as .xlsx into `folder` (a profile of its own, so runs never share one). */
async function saveWithLibreOffice(file: string, folder: string): Promise<string> {
  mkdirSync(folder, { recursive: true });
  const profile = pathToFileURL(join(backend.dir, 'lo-profile')).href;
  await promisify(execFile)(SOFFICE, [`-env:UserInstallation=${profile}`, '--headless', '--calc', '--convert-to', 'xlsx:Calc MS Excel 2007 XML', '--outdir', folder, file], { timeout: 120_000 });
  const saved = join(folder, basename(file));
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
const contacts = async () => (JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Contact[]).map(({ updated_at: _, ...rest }) => rest);

beforeAll(async () => {
  // Never a skip: without LibreOffice nothing here can say that a spreadsheet's file comes back whole.
  if (!existsSync(SOFFICE)) throw new Error(`${SOFFICE} not found: install LibreOffice (apt-get install -y libreoffice-calc-nogui; .ci/run does) or set SOFFICE to its soffice`);
  backend = await BACKENDS[0].start();
  for (const field of ['code', 'note', 'flag', 'day', 'big']) expect((await run('fields', 'create', field)).code).toBe(0);
  expect((await run('groups', 'create', 'VIP')).code).toBe(0);
  const people: Array<[string, string, string[]]> = [
    ['07700900123', 'Zoë =1+1', ['code=00012345678901234567', 'note=line one\nline two', 'flag=true', 'day=5/12', 'big=1E5']],
    ['14155550102', 'مرحبا 😀', ['code=0042', 'note=@home', 'flag=FALSE', 'day=2024-11-26', 'big=447911123458']],
    ['14155550103', 'Edit Me', ['code=-7', 'note=Lisbon', 'flag=yes', 'day=12/5', 'big=00000']],
  ];
  for (const [number, name, fields] of people) {
    const res = await run('contacts', 'create', '--number', number, '--name', name, '--group', '1', ...fields.flatMap((f) => ['--field', f]));
    expect(res.code, res.stderr).toBe(0);
  }
}, 120_000);

afterAll(async () => {
  if (backend) expect(await backend.stop()).toBe(0);
});

describe('the round trip through LibreOffice', () => {
  it('export -o xlsx, saved by LibreOffice, imported into the same workspace: nothing changes', async () => {
    const before = await contacts();
    const file = join(backend.dir, 'contacts.xlsx');
    expect((await run('contacts', 'export', '--output-file', file)).code).toBe(0);
    const saved = await saveWithLibreOffice(file, join(backend.dir, 'saved'));
    const res = await run('contacts', 'import', saved, '--wait', '--interval', '0.2s', '-o', 'json');
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ failed_count: 0, created_count: 0 });
    expect(await contacts()).toEqual(before);
  }, 180_000);

  it('an edited copy, saved by LibreOffice, given to update --from: exactly the edited cells change', async () => {
    const before = await contacts();
    const file = join(backend.dir, 'to-edit.xlsx');
    expect((await run('contacts', 'export', '--output-file', file)).code).toBe(0);
    const saved = await saveWithLibreOffice(file, join(backend.dir, 'first'));
    const changed = join(backend.dir, 'changed', 'to-edit.xlsx');
    mkdirSync(join(backend.dir, 'changed'));
    // LibreOffice keeps text in its shared strings: one name and one city, each in one cell.
    await edited(saved, changed, [['>Edit Me<', '>Edited Name<'], ['>Lisbon<', '>Porto<']]);
    const again = await saveWithLibreOffice(changed, join(backend.dir, 'second'));
    const res = await run('contacts', 'update', '--from', again, '-o', 'json');
    expect(res.code, res.stderr).toBe(0);
    const after = await contacts();
    const target = before.find((c) => c.name === 'Edit Me')!;
    expect(after).toEqual(before.map((c) => (c.id === target.id ? { ...c, name: 'Edited Name', fields: { ...c.fields, note: 'Porto' } } : c)));
  }, 180_000);
});
