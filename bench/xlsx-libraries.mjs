// Which .xlsx library: writing and reading 100,000 export-shaped rows (11 text columns)
// with exceljs 4.4 (its streaming WorkbookWriter/WorkbookReader), SheetJS (@e965/xlsx 0.20.3, the
// registry's `xlsx` being older) and wsm's own (src/formats/xlsx, from dist/: `npm run build` first),
// each task a process of its own: time, peak RSS (sampled every 20 ms) and the time to load the
// library. Baseline in the same run: the same rows written as CSV. The candidates are installed
// into a scratch folder outside the project (npm, once; WSM_XLSX_CANDIDATES names another).
//   node bench/xlsx-libraries.mjs [rows=100000]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt } from './lib.mjs';

const rows = Number(process.argv[2] ?? 100_000);
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const candidates = process.env.WSM_XLSX_CANDIDATES ?? join(tmpdir(), 'wsm-xlsx-candidates');
if (!existsSync(join(candidates, 'node_modules', 'exceljs')) || !existsSync(join(candidates, 'node_modules', '@e965', 'xlsx'))) {
  mkdirSync(candidates, { recursive: true });
  execFileSync('npm', ['install', '--prefix', candidates, '--no-audit', '--no-fund', '--no-save', 'exceljs@4.4.0', '@e965/xlsx@0.20.3'], {
    stdio: 'ignore',
  });
}
const work = join(tmpdir(), `wsm-xlsx-bench-${process.pid}`);
mkdirSync(work, { recursive: true });

// One task, run by `node -e` in a process of its own: prints {ms, loadMs, peakMb} as JSON.
const TASK = String.raw`
const { createWriteStream, writeFileSync, readFileSync } = await import('node:fs');
const { createRequire } = await import('node:module');
const [task, file, count, candidates, root] = process.argv.slice(1);
const require = createRequire(candidates + '/node_modules/');
const ROWS = Number(count);
const { HEADER: header, exportRow: row, writeRows } = await import(root + '/bench/xlsx-rows.mjs');
let peak = 0;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const t0 = performance.now();
let loadMs = 0;
let read = 0;
if (task === 'csv-write') {
  const out = createWriteStream(file);
  const q = (c) => (/[",\n\r]/.test(c) ? '"' + c.replace(/"/g, '""') + '"' : c);
  out.write(header.join(',') + '\n');
  for (let i = 1; i <= ROWS; i += 100) {
    let s = '';
    for (let j = i; j < i + 100 && j <= ROWS; j++) s += row(j).map(q).join(',') + '\n';
    if (!out.write(s)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
} else if (task === 'exceljs-write') {
  const ExcelJS = require('exceljs');
  loadMs = performance.now() - t0;
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: createWriteStream(file), useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet('Contacts', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = header.map((h) => ({ header: h, key: h, width: 16, style: { numFmt: '@' } }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  for (let i = 1; i <= ROWS; i++) {
    ws.addRow(row(i)).commit();
    if (i % 1000 === 0) await new Promise(setImmediate);
  }
  ws.commit();
  await wb.commit();
} else if (task === 'sheetjs-write') {
  const XLSX = require('@e965/xlsx');
  loadMs = performance.now() - t0;
  const aoa = [header];
  for (let i = 1; i <= ROWS; i++) aoa.push(row(i));
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(aoa), 'Contacts');
  writeFileSync(file, XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }));
} else if (task === 'wsm-write') {
  const { writeXlsx } = await import(root + '/dist/formats/xlsx/sheet-writer.js');
  loadMs = performance.now() - t0;
  await writeRows(writeXlsx, file, ROWS);
} else if (task === 'exceljs-read') {
  const ExcelJS = require('exceljs');
  loadMs = performance.now() - t0;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'ignore' });
  for await (const ws of reader) {
    for await (const r of ws) read += r.values.length > 0 ? 1 : 0;
    break;
  }
} else if (task === 'sheetjs-read') {
  const XLSX = require('@e965/xlsx');
  loadMs = performance.now() - t0;
  const wb = XLSX.read(readFileSync(file), { type: 'buffer', cellText: true, dense: true, sheets: 0 });
  read = XLSX.utils.sheet_to_json(wb.Sheets[wb.SheetNames[0]], { header: 1, raw: false, defval: '' }).length;
} else if (task === 'wsm-read') {
  const { openWorkbook } = await import(root + '/dist/formats/xlsx/sheet-reader.js');
  loadMs = performance.now() - t0;
  const wb = await openWorkbook(file);
  for await (const r of wb.rows()) read += r.cells.length > 0 ? 1 : 0;
  await wb.close();
}
clearInterval(sample);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(JSON.stringify({ ms: performance.now() - t0, loadMs, peakMb: peak / 1e6, read }));
`;

function task(name, file) {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', TASK, name, file, String(rows), candidates, root], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (result.status !== 0) throw new Error(`${name}: ${result.stderr.slice(0, 2000)}`);
  return JSON.parse(result.stdout.trim().split('\n').pop());
}

const csv = task('csv-write', join(work, 'rows.csv'));
console.log(`baseline: ${rows.toLocaleString('en-US')} rows written as CSV in ${fmt(csv.ms / 1000)} s, peak RSS ${fmt(csv.peakMb, 0)} MB`);
for (const library of ['exceljs', 'sheetjs', 'wsm']) {
  const file = join(work, `${library}.xlsx`);
  const write = task(`${library}-write`, file);
  const reads = ['exceljs', 'sheetjs', 'wsm'].map((reader) => [reader, task(`${reader}-read`, file)]);
  const own = reads.find(([reader]) => reader === library)[1];
  console.log(
    `${library}: load ${fmt(write.loadMs, 0)} ms; write ${fmt(write.ms / 1000)} s (${fmt(write.ms / csv.ms)}x the CSV), peak RSS ${fmt(write.peakMb, 0)} MB, ${fmt(statSync(file).size / 1e6)} MB; ` +
      `read back by itself ${fmt(own.ms / 1000)} s, peak RSS ${fmt(own.peakMb, 0)} MB; rows read by exceljs/SheetJS/wsm: ${reads.map(([, r]) => r.read).join('/')}`,
  );
}
