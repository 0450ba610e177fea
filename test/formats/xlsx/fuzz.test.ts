/**
 * Generated hostile workbooks (fast-check, a bounded number of runs): sheets made of well- and
 * ill-formed pieces (rows and cells numbered anyhow, every cell type, entities, character
 * references, CDATA, comments, cut elements), shared strings and styles of any shape, and archives
 * with bytes flipped, cut or lying in their directory. Each must end in rows or in a
 * WorkbookError naming the file, never in anything else.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkbookError } from '../../../src/formats/workbook-error.js';
import { openWorkbook } from '../../../src/formats/xlsx/sheet-reader.js';
import { type Part, sharedXml, sheetXml, stylesXml, workbookParts, zipBytes } from './crafted.js';

const dir = mkdtempSync(join(tmpdir(), 'wsm-xlsx-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = fc.oneof(
  fc.string({ maxLength: 12 }).map((s) => s.replace(/[<&]/g, '')),
  fc.constantFrom(
    '&amp;',
    '&lt;',
    '&#x110000;',
    '&#0;',
    '&#65;',
    '&bomb;',
    '<![CDATA[x<y]]>',
    '<!-- c -->',
    '_x0001_',
    '0x1F',
    '',
    '1e999',
    '-0',
    '45622',
  ),
);
const reference = fc.oneof(
  fc.constant(undefined),
  fc
    .tuple(fc.constantFrom('A', 'B', 'Z', 'XFD', 'XFE', 'ZZZZZZ', 'a', ''), fc.constantFrom('1', '2', '0', '999999999', '1048577', ''))
    .map(([c, r]) => c + r),
);
const cell = fc
  .record({
    ref: reference,
    type: fc.constantFrom(undefined, 's', 'n', 'b', 'e', 'str', 'inlineStr', 'd', 'zz'),
    style: fc.constantFrom(undefined, '0', '1', '2', '99', '-1', 'x'),
    body: fc.oneof(
      text.map((t) => `<v>${t}</v>`),
      text.map((t) => `<is><t>${t}</t></is>`),
      text.map((t) => `<is><r><t>${t}</t></r><rPh><t>ph</t></rPh></is>`),
      fc.constantFrom('<f>TRUE()</f><v>1</v>', '<f>1+1</f><v>2</v>', '', '<v>', '<c>', '</row>'),
    ),
  })
  .map(
    ({ ref, type, style, body }) =>
      `<c${ref === undefined ? '' : ` r="${ref}"`}${type === undefined ? '' : ` t="${type}"`}${style === undefined ? '' : ` s="${style}"`}>${body}</c>`,
  );
const row = fc
  .record({ r: fc.constantFrom(undefined, '1', '2', '3', '7', '0', '1048576', '1048577', 'x'), cells: fc.array(cell, { maxLength: 6 }) })
  .map(({ r, cells }) => `<row${r === undefined ? '' : ` r="${r}"`}>${cells.join('')}</row>`);
const sheet = fc.oneof(
  { weight: 4, arbitrary: fc.array(row, { maxLength: 8 }).map((rows) => sheetXml(rows.join(''))) },
  { weight: 1, arbitrary: fc.tuple(fc.array(row, { maxLength: 4 }), fc.nat()).map(([rows, cut]) => sheetXml(rows.join('')).slice(0, cut)) },
);
const shared = fc.option(fc.array(text, { maxLength: 4 }).map(sharedXml), { nil: undefined });
const styles = fc.option(
  fc
    .tuple(
      fc.array(fc.constantFrom(0, 1, 14, 49, 164, 165), { maxLength: 4 }),
      fc.constantFrom<Record<number, string>>({}, { 164: '0.00' }, { 164: '00000', 165: 'yyyy-mm-dd' }),
    )
    .map(([xfs, declared]) => stylesXml(xfs, declared)),
  { nil: undefined },
);
/** What is done to the archive's bytes afterwards: nothing, a byte flipped, the end cut, a directory lie. */
const damage = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bits: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('claim' as const), size: fc.constantFrom(0, 1, 0xffff_fff0), crc: fc.constantFrom(undefined, 0) }),
);

let files = 0;

async function outcome(bytes: Buffer): Promise<'rows' | 'refused'> {
  const file = join(dir, `fuzz-${++files}.xlsx`);
  writeFileSync(file, bytes);
  try {
    const workbook = await openWorkbook(file);
    try {
      for await (const _ of workbook.rows()) {
        // every row read through
      }
    } finally {
      await workbook.close();
    }
    return 'rows';
  } catch (error) {
    if (!(error instanceof WorkbookError)) throw error;
    expect(error.message.startsWith(`${file}`)).toBe(true);
    return 'refused';
  } finally {
    rmSync(file, { force: true });
  }
}

describe('generated hostile workbooks', () => {
  it('each ends in rows or a WorkbookError', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(sheet, shared, styles, damage, async (xml, sst, style, harm) => {
        const sheetPart: Partial<Part> =
          harm.kind === 'claim' ? { claim: { size: harm.size, ...(harm.crc === undefined ? {} : { crc: harm.crc }) } } : {};
        let bytes = zipBytes(workbookParts(xml, { shared: sst, styles: style, sheetPart }));
        if (harm.kind === 'flip') {
          bytes = Buffer.from(bytes);
          bytes[harm.at % bytes.length] ^= harm.bits;
        } else if (harm.kind === 'cut') bytes = bytes.subarray(0, harm.at % bytes.length);
        seen.add(await outcome(bytes));
      }),
      { numRuns: 300, seed: 41 },
    );
    // Not every case is refused: the generator makes readable sheets too.
    expect([...seen].sort()).toEqual(['refused', 'rows']);
  });
});
