// Hostile workbooks of under 1 MB against the .xlsx reader (dist/: `npm run build` first): the
// cases of a crafted attack (a sheet that inflates just under the bound, one over it, a 16 MB row,
// 200,000 header cells, 100,000 unclosed cells, deep nesting, styles and shared-strings bombs, a
// directory that lies) and generated ones. Each is read as every verb reading a sheet reads it
// (readSheetRecords), in a process of its own: its time and peak RSS (sampled every 10 ms) must stay
// under 5 s and 300 MB, and it must end in rows or a WorkbookError. Exit 1 when one does not.
//   node bench/xlsx-hostile.mjs [generated=200]
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { fmt, ROOT, tempDir } from './lib.mjs';

const generated = Number(process.argv[2] ?? 200);
const work = tempDir('wsm-xlsx-hostile-');
const LIMIT_MS = 5000;
const LIMIT_MB = 300;

// A ZIP archive written byte by byte, so that a case can make its directory lie.
const u16 = (n) => Buffer.from([n & 0xff, (n >> 8) & 0xff]);
const u32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
function zip(parts, directorySize) {
  const locals = [];
  const dir = [];
  let offset = 0;
  for (const { name, data, claim = {} } of parts) {
    const raw = Buffer.from(data);
    const packed = deflateRawSync(raw, { level: 9 });
    const n = Buffer.from(name);
    const common = [
      u16(20),
      u16(0x800),
      u16(8),
      u16(0),
      u16(0x5c21),
      u32(claim.crc ?? crc32(raw)),
      u32(packed.length),
      u32(claim.size ?? raw.length),
      u16(n.length),
      u16(0),
    ];
    const local = Buffer.concat([u32(0x04034b50), ...common, n, packed]);
    dir.push(Buffer.concat([u32(0x02014b50), u16(20), ...common, u16(0), u16(0), u16(0), u32(0), u32(offset), n]));
    locals.push(local);
    offset += local.length;
  }
  const d = Buffer.concat(dir);
  const inflated = parts.reduce((sum, part) => sum + Buffer.byteLength(part.data), 0);
  return Object.assign(
    Buffer.concat([
      ...locals,
      d,
      u32(0x06054b50),
      u16(0),
      u16(0),
      u16(parts.length),
      u16(parts.length),
      u32(directorySize ?? d.length),
      u32(offset),
      u16(0),
    ]),
    { inflated },
  );
}
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
function book(sheetData, { shared, styles, claim, directorySize, raw } = {}) {
  const parts = [
    {
      name: 'xl/workbook.xml',
      data: `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    },
    { name: 'xl/worksheets/sheet1.xml', data: raw ?? `<worksheet xmlns="${MAIN}"><sheetData>${sheetData}</sheetData></worksheet>`, claim },
  ];
  if (shared !== undefined) parts.push({ name: 'xl/sharedStrings.xml', data: shared });
  if (styles !== undefined) parts.push({ name: 'xl/styles.xml', data: styles });
  return zip(parts, directorySize);
}
const header = '<row r="1"><c r="A1" t="inlineStr"><is><t>number</t></is></c></row>';
/** Rows of `cells` inline-string cells, each `filler` characters of `unit` after a random part: as many as fit in `bytes` once deflated. */
function rowsUpTo(bytes, unit, cells = 10) {
  const rows = [];
  for (let r = 2; ; r++) {
    const row = `<row r="${r}">${Array.from({ length: cells }, () => `<c t="inlineStr"><is><t>${randomBytes(2).toString('hex')}${unit}</t></is></c>`).join('')}</row>`;
    rows.push(row);
    if (r % 2000 === 0 && deflateRawSync(rows.join(''), { level: 9 }).length > bytes) return rows.slice(0, -2000).join('');
  }
}

const cases = [
  ['inflates just under the ratio bound', () => book(header + rowsUpTo(900_000, 'a'.repeat(40)))],
  ['inflates over the ratio bound', () => book(header + rowsUpTo(900_000, 'a'.repeat(400)))],
  [
    'a 16 MB row',
    () =>
      book(
        `<row r="1">${Array.from({ length: 16_000 }, () => `<c t="inlineStr"><is><t>${randomBytes(16).toString('hex')}${'b'.repeat(968)}</t></is></c>`).join('')}</row>`,
      ),
  ],
  ['200,000 header cells', () => book(`<row r="1">${'<c t="inlineStr"><is><t>h</t></is></c>'.repeat(200_000)}</row>`)],
  ['100,000 unclosed <c>', () => book(`<row r="1">${'<c r="A1">'.repeat(100_000)}</row>`)],
  ['nesting 500,000 deep', () => book('', { raw: `<worksheet xmlns="${MAIN}">${'<x>'.repeat(500_000)}` })],
  [
    'an element of 440,000 attributes',
    () => book('', { raw: `<worksheet xmlns="${MAIN}" ${Array.from({ length: 440_000 }, (_, i) => `a${i.toString(36)}=''`).join(' ')}/>` }),
  ],
  ['a cell at column ZZZZZZ', () => book('<row r="1"><c r="ZZZZZZ1"><v>1</v></c></row>')],
  ['row 300,000,000', () => book('<row r="300000000"><c r="A300000000"><v>1</v></c></row>')],
  [
    'styles bomb',
    () => book(header, { styles: `<styleSheet xmlns="${MAIN}"><cellXfs>${'<xf numFmtId="0"/>'.repeat(500_000)}</cellXfs></styleSheet>` }),
  ],
  ['shared-strings bomb', () => book(header, { shared: `<sst xmlns="${MAIN}">${'<si><t/></si>'.repeat(3_000_000)}</sst>` })],
  ['a directory claiming 4 GB', () => book(header, { directorySize: 0xffff_fff0 })],
  ['a part claiming 4 GB', () => book(header, { claim: { size: 0xffff_fff0 } })],
];
const pick = (items) => items[Math.floor(Math.random() * items.length)];
for (let i = 0; i < generated; i++) {
  cases.push([
    `generated ${i + 1}`,
    () => {
      const rows = Array.from(
        { length: 1 + Math.floor(Math.random() * 2000) },
        () =>
          `<row${pick(['', ' r="7"', ' r="1048577"'])}>${Array.from({ length: 1 + Math.floor(Math.random() * 40) }, () => `<c${pick(['', ' t="s"', ' t="b"', ' t="inlineStr"', ' t="e"'])}>${pick(['<v>1</v>', '<v>0x1F</v>', '<is><t>x&amp;y</t></is>', '<v>&#x110000;</v>', '<c>', '<v><![CDATA[5]]></v>'])}</c>`).join('')}</row>`,
      ).join('');
      const bytes = book(header + rows, { shared: `<sst xmlns="${MAIN}"><si><t>a</t></si></sst>` });
      if (Math.random() < 0.3) bytes[Math.floor(Math.random() * bytes.length)] ^= 1 + Math.floor(Math.random() * 255);
      return bytes;
    },
  ]);
}

const TASK = `
const [file, module] = process.argv.slice(1);
let peak = 0;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
const t0 = performance.now();
let outcome = 'rows';
try {
  const { readSheetRecords } = await import(module);
  await readSheetRecords(file, { onRecord: () => {} });
} catch (error) {
  outcome = error?.constructor?.name === 'WorkbookError' ? 'refused' : 'CRASH ' + String(error?.stack ?? error).slice(0, 300);
}
clearInterval(sample);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(JSON.stringify({ ms: performance.now() - t0, peakMb: peak / 1e6, outcome }));
`;

let failures = 0;
let worst = { ms: 0, peakMb: 0 };
for (const [name, make] of cases) {
  const bytes = make();
  if (bytes.length >= 1_000_000) throw new Error(`${name}: ${bytes.length} bytes, not under 1 MB`);
  const file = join(work, 'case.xlsx');
  writeFileSync(file, bytes);
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', TASK, file, join(ROOT, 'dist/formats/xlsx/sheet-csv.js')], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  const run =
    result.status === 0
      ? JSON.parse(result.stdout.trim())
      : { ms: Number.NaN, peakMb: Number.NaN, outcome: `EXIT ${result.status ?? result.signal}: ${result.stderr.slice(0, 300)}` };
  const bad = !(run.ms < LIMIT_MS) || !(run.peakMb < LIMIT_MB) || !['rows', 'refused'].includes(run.outcome);
  if (bad) failures++;
  worst = { ms: Math.max(worst.ms, run.ms), peakMb: Math.max(worst.peakMb, run.peakMb) };
  if (bad || !name.startsWith('generated'))
    console.log(
      `${bad ? 'FAIL' : 'ok  '} ${name} (${fmt(bytes.length / 1e6, 2)} MB${bytes.inflated ? `, ${fmt(bytes.inflated / 1e6, 0)} MB inflated` : ''}): ${run.outcome}, ${fmt(run.ms / 1000, 2)} s, peak RSS ${fmt(run.peakMb, 0)} MB`,
    );
}
console.log(
  `${cases.length} workbooks under 1 MB: the slowest ${fmt(worst.ms / 1000, 2)} s, the largest peak RSS ${fmt(worst.peakMb, 0)} MB; ${failures} past ${LIMIT_MS / 1000} s or ${LIMIT_MB} MB or ending otherwise`,
);
process.exitCode = failures > 0 ? 1 : 0;
