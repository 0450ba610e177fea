// Number cells as displayed: 100,000 numeric cells whose formats cycle through the corpus
// (test/formats/xlsx/number-formats.tsv), read before and after numfmt, in one run. "Before" is
// wsm's own renderer as it was (number-format.ts at BEFORE, taken from git and transpiled here);
// "after" is dist/ (`npm run build` first). Two measures, best of five runs each:
//   1. rendering alone: every (value, format) pair through each renderer;
//   2. reading a workbook of those cells with today's reader: with their formats (after), and all
//      General with the old renderer applied to each cell as it comes (before).
//   node bench/xlsx-number-formats.mjs [cells=100000]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { fmt, ROOT, tempDir } from './lib.mjs';

/** The last commit with wsm's own number-format renderer. */
const BEFORE = 'ece6e39';
const cells = Number(process.argv[2] ?? 100_000);
const dir = tempDir('wsm-number-formats-');

const corpus = readFileSync(join(ROOT, 'test/formats/xlsx/number-formats.tsv'), 'utf8')
  .split('\n')
  .slice(1)
  .filter((line) => line !== '')
  .map((line) => {
    const [format, value] = line.split('\t');
    return { format, value: Number(value) };
  });
const pairs = Array.from({ length: cells }, (_, i) => corpus[i % corpus.length]);

const oldSource = execFileSync('git', ['-C', ROOT, 'show', `${BEFORE}:src/formats/xlsx/number-format.ts`], { encoding: 'utf8' });
const oldFile = join(dir, 'old-number-format.mjs');
writeFileSync(oldFile, (await transform(oldSource, { loader: 'ts', format: 'esm' })).code);
const old = await import(oldFile);
/** The old reader's call: ISO dates for date formats, its renderer otherwise; what it threw, its own text. */
const oldDisplay = (value, code) => {
  try {
    return old.isDateFormat(code) ? old.isoDate(value, code, false) : old.displayNumber(value, code, false);
  } catch {
    return '';
  }
};
const { displayNumber } = await import(join(ROOT, 'dist/formats/xlsx/number-format.js'));
const newDisplay = (value, code) => {
  try {
    return displayNumber(value, code, false).text;
  } catch {
    return '';
  }
};
const { ZipWriter } = await import(join(ROOT, 'dist/formats/xlsx/zip-writer.js'));
const { openWorkbook } = await import(join(ROOT, 'dist/formats/xlsx/sheet-reader.js'));

const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** A workbook of the pairs, one cell a row, each with its format (or all General). */
async function workbook(path, withFormats) {
  const formats = [...new Set(corpus.map((c) => c.format))];
  const style = new Map(formats.map((format, at) => [format, at + 1]));
  const chunks = [];
  const zip = new ZipWriter({ write: async (bytes) => void chunks.push(Buffer.from(bytes)) });
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  await zip.add('[Content_Types].xml', [
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
  ]);
  await zip.add('xl/workbook.xml', [
    `<workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="Cells" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ]);
  await zip.add('xl/_rels/workbook.xml.rels', [
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/styles" Target="styles.xml"/></Relationships>`,
  ]);
  const rows = pairs.map(
    ({ format, value }, i) =>
      `<row r="${i + 1}"><c r="A${i + 1}"${withFormats ? ` s="${style.get(format)}"` : ''}><v>${value}</v></c></row>`,
  );
  await zip.add('xl/worksheets/sheet1.xml', [`<worksheet xmlns="${main}"><sheetData>`, rows.join(''), '</sheetData></worksheet>']);
  await zip.add('xl/styles.xml', [
    `<styleSheet xmlns="${main}"><numFmts>${formats.map((f, at) => `<numFmt numFmtId="${164 + at}" formatCode="${escape(f)}"/>`).join('')}</numFmts>`,
    `<cellXfs><xf numFmtId="0"/>${formats.map((_, at) => `<xf numFmtId="${164 + at}"/>`).join('')}</cellXfs></styleSheet>`,
  ]);
  await zip.finish();
  writeFileSync(path, Buffer.concat(chunks));
}

async function readAll(path, each) {
  const book = await openWorkbook(path);
  let at = 0;
  for await (const row of book.rows()) for (const cell of row.cells) each(cell, pairs[at++]);
  await book.close();
}

/** The best of five runs, in milliseconds. */
async function best(task) {
  let fastest = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    const t0 = performance.now();
    await task();
    fastest = Math.min(fastest, performance.now() - t0);
  }
  return fastest;
}

const formatted = join(dir, 'formatted.xlsx');
const general = join(dir, 'general.xlsx');
await workbook(formatted, true);
await workbook(general, false);

let sink = 0;
const renderBefore = await best(() => pairs.forEach(({ value, format }) => (sink += oldDisplay(value, format).length)));
const renderAfter = await best(() => pairs.forEach(({ value, format }) => (sink += newDisplay(value, format).length)));
const readBefore = await best(() => readAll(general, (cell, pair) => (sink += oldDisplay(Number(cell.text), pair.format).length)));
const readAfter = await best(() => readAll(formatted, (cell) => (sink += cell.text.length)));
const readGeneral = await best(() => readAll(general, (cell) => (sink += cell.text.length)));

const line = (what, before, after) =>
  console.log(`${what.padEnd(44)} before ${fmt(before)} ms   after ${fmt(after)} ms   ${(after / before).toFixed(2)}x`);
console.log(
  `${cells.toLocaleString('en-US')} numeric cells, ${corpus.length} formats of the corpus in turn (best of 5; checksum ${sink % 997})`,
);
line('rendering the cells', renderBefore, renderAfter);
line('reading the workbook, cells as displayed', readBefore, readAfter);
console.log(`${'reading the same cells as General (no format)'.padEnd(44)} ${fmt(readGeneral)} ms`);
