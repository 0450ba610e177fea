/**
 * Damaged and hostile workbooks given to the real binary and to `wsm mcp`'s contacts.import: exit 2
 * with one line naming the file (and the cell) and saying nothing was sent, never a stack trace or
 * a raw JavaScript error; `wsm mcp` answers with an error result and keeps serving. wsm runs
 * in-process (in-process.ts: the binary's entry point, its bytes and exit code; a crash fails the
 * test run there); the built binary reads the workbook made to crash a process (char.xlsx),
 * with `contacts import` and `contacts update --from`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedXml, sheetXml, stylesXml, workbookParts, zipBytes } from '../formats/xlsx/crafted.js';
import { startMcp, textOf, type McpSession } from './mcp-helpers.js';
import { wsmInProcess } from './in-process.js';
import { type Backend, serveBackend } from './backends.js';
import { cleanup, testEnv, wsm } from './processes.js';

const dir = mkdtempSync(join(tmpdir(), 'wsm-e2e-hostile-'));
afterAll(() => cleanup(dir));

const HEADER = '<row r="1"><c r="A1" t="inlineStr"><is><t>number</t></is></c></row>';
const file = (name: string, bytes: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const book = (rows: string, extra?: Parameters<typeof workbookParts>[1], end?: { directorySize?: number }) =>
  zipBytes(workbookParts(sheetXml(HEADER + rows), extra), end);

/** A ZIP directory said to be 4 GB long around a cell holding a character reference past U+10FFFF. */
const crashing = () =>
  book('<row r="2"><c r="A2" t="inlineStr"><is><t>&#x110000;</t></is></c></row>', undefined, { directorySize: 0xffff_fff0 });

const CASES: Array<[string, () => Buffer, string]> = [
  [
    'char.xlsx',
    crashing,
    ' (cell A2 of sheet "Contacts"): its part xl/worksheets/sheet1.xml is not well-formed XML (malformed character entity): the file is damaged',
  ],
  [
    'column.xlsx',
    () => book('<row r="2"><c r="ZZZZZZ2"><v>1</v></c></row>'),
    ' (row 2 of sheet "Contacts"): cell ZZZZZZ2 is past column XFD, the last a sheet has',
  ],
  [
    'row.xlsx',
    () => book('<row r="999999999"><c r="A999999999"><v>1</v></c></row>'),
    ': row 999,999,999 is past row 1,048,576, the last a sheet has',
  ],
  [
    'hex.xlsx',
    () => book('<row r="2"><c r="A2"><v>0x1F</v></c></row>'),
    ' (cell A2 of sheet "Contacts"): the cell is a number cell holding "0x1F", which is no number: the file is damaged',
  ],
  [
    'index.xlsx',
    () => book('<row r="2"><c r="A2" t="s"><v>5</v></c></row>', { shared: sharedXml(['x']) }),
    ' (cell A2 of sheet "Contacts"): the cell refers to shared string "5", but the workbook has 1: the file is damaged',
  ],
  ['styles.xlsx', () => book('', { styles: stylesXml(Array(70_000).fill(0)) }), ': its styles declare more than 65,536 cell formats'],
  [
    'crc.xlsx',
    () => book('', { sheetPart: { claim: { crc: 7 } } }),
    ': its part xl/worksheets/sheet1.xml is damaged (its CRC-32 does not match its ZIP directory)',
  ],
  [
    'locked.xlsx',
    () => Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(512), Buffer.from('EncryptionInfo', 'utf16le')]),
    ': it is password-protected: save it without a password, then import it again',
  ],
  [
    'people.xlsx',
    () => Buffer.from('number,name\n+447700900123,Ann\n'),
    ': it is CSV text, not an .xlsx workbook: name it .csv, then import it again',
  ],
];

describe('wsm given each workbook', () => {
  const env = testEnv(dir);
  it.each(CASES)('%s: exit 2, one line naming the file and the place, nothing sent', async (name, bytes, said) => {
    const path = file(name, bytes());
    for (const args of [
      ['contacts', 'import', path, '--dry-run'],
      ['contacts', 'update', '--from', path],
    ]) {
      const run = await (name === 'char.xlsx' ? wsm : wsmInProcess)(env, args);
      expect({ code: run.code, stderr: run.stderr }, args.join(' ')).toEqual({
        code: 2,
        stderr: `error: ${path}${said}: nothing was sent\n`,
      });
    }
  });
});

describe('against wsm serve', () => {
  let server: Backend;
  let mcp: McpSession;
  beforeAll(async () => {
    server = await serveBackend();
    mcp = await startMcp(server.env);
  });
  afterAll(async () => {
    if (mcp) expect(await mcp.close()).toEqual({ code: 0, signal: null });
    if (server) expect(await server.stop()).toBe(0);
    if (server) cleanup(server.dir);
  });

  it('answers each hostile workbook given to contacts.import with an error result, and keeps serving', async () => {
    for (const [name, bytes, said] of CASES) {
      const path = file(`mcp-${name}`, bytes());
      const result = await mcp.call('contacts.import', { file: path, confirm: true });
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toContain(`${path}${said}: nothing was sent`);
      expect(textOf(result), name).not.toMatch(/\bat .*\.js:\d+|TypeError|RangeError/);
    }
    const listed = await mcp.call('contacts.list', {});
    expect(listed.isError, textOf(listed)).toBeFalsy();
    expect(mcp.protocolErrors).toEqual([]);
  });

  it('a sheet of 16,384 columns: the 16,383 not imported are one line, not one warning each', async () => {
    const header = `<row r="1"><c t="inlineStr"><is><t>number</t></is></c>${Array.from({ length: 16_383 }, (_, i) => `<c t="inlineStr"><is><t>extra${i + 1}</t></is></c>`).join('')}</row>`;
    const path = file('wide.xlsx', zipBytes(workbookParts(sheetXml(`${header}<row r="2"><c r="A2"><v>14155550199</v></c></row>`))));
    for (const env of [server.env, testEnv(dir)]) {
      const run = await wsmInProcess(env, ['contacts', 'import', path, '--dry-run']);
      expect(run.code, run.stderr).toBe(0);
      const warnings = run.stderr.split('\n').filter((line) => line.includes('extra'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/"extra1", "extra2", "extra3", "extra4", "extra5" and 16,378 more/);
    }
    expect((await wsmInProcess(server.env, ['contacts', 'import', path, '--dry-run'])).stderr).toContain(
      `warning: ${path}: 16,383 columns will not be imported ("extra1", "extra2", "extra3", "extra4", "extra5" and 16,378 more): they are neither contact attributes nor contact fields of this workspace (-o json lists every one)`,
    );
  });
});
