// Throughput of the CSV reader (src/formats/csv/reader.ts through import-csv.ts: fatal decoding,
// RFC 4180 records, blank rows, formula quotes) against csv-parse reading the same file with the
// same rules (every line end, relaxed column count), in the same run. Two files of N rows: plain
// contact rows as an export writes them, and the same with one row in ten holding a quoted
// multi-line note. Also the floor: decoding the file and splitting it at line ends, nothing more.
//   node bench/csv-reader.mjs [rows=200000] [runs=5]
import { createReadStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contactRow, fmt, median, ROOT, tempDir } from './lib.mjs';

const count = Number(process.argv[2] ?? 200_000);
const runs = Number(process.argv[3] ?? 5);
const dir = tempDir();
const { readCsvRows } = await import(pathToFileURL(join(ROOT, 'dist/api/import-csv.js')).href);
const { parse } = await import(pathToFileURL(join(ROOT, 'node_modules/csv-parse/lib/index.js')).href);

function writeFile(name, note) {
  const lines = ['id,number,name,email,gender,status,contact_groups,created_at,updated_at,note'];
  for (let i = 0; i < count; i++) {
    const row = contactRow(i);
    const noteCell = note && i % 10 === 0 ? `"Emergency contacts:\nwife, 415 555 0202, ""Robin""\r\n(call after 6pm)"` : '';
    lines.push(
      `${i + 1},${row.number},${row.name},${row.email},,true,"[""VIP""]",2025-03-01T10:00:00.000Z,2025-03-01T10:00:00.000Z,${noteCell}`,
    );
  }
  const path = join(dir, name);
  writeFileSync(path, lines.join('\r\n') + '\r\n');
  return path;
}

async function ours(path) {
  let rows = 0;
  for await (const row of readCsvRows(path)) if (row.kind === 'record') rows += 1;
  return rows;
}

async function csvParse(path) {
  let rows = 0;
  const parser = createReadStream(path).pipe(parse({ bom: true, record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true }));
  for await (const record of parser) if (record.length > 1) rows += 1;
  return rows;
}

async function floor(path) {
  let rows = 0;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 }))
    rows += decoder.decode(chunk, { stream: true }).split('\n').length - 1;
  return rows;
}

/** Rows/s of one read. */
async function once(read, path) {
  const start = performance.now();
  const rows = await read(path);
  const ms = performance.now() - start;
  if (rows < count) throw new Error(`${read.name} read ${rows} rows of ${count + 1}`);
  return (count / ms) * 1000;
}

for (const [label, path] of [
  ['plain rows', writeFile('plain.csv', false)],
  ['one row in ten with a quoted 3-line note', writeFile('notes.csv', true)],
]) {
  // One read each to warm the JIT up, then the readers in turn, so that the machine's load moves
  // every reader alike: the ratio is the median of each round's own ratio.
  for (const read of [csvParse, ours, floor]) await once(read, path);
  const rounds = [];
  for (let i = 0; i < runs; i++)
    rounds.push({ base: await once(csvParse, path), mine: await once(ours, path), bare: await once(floor, path) });
  const ratio = median(rounds.map((r) => r.mine / r.base));
  console.log(
    `${count.toLocaleString('en-US')} rows, ${label}: wsm reader ${fmt(median(rounds.map((r) => r.mine)), 0)} rows/s, csv-parse ${fmt(median(rounds.map((r) => r.base)), 0)} rows/s ` +
      `(${fmt(ratio, 2)}x csv-parse, median of ${runs} rounds); decode + split at line ends ${fmt(median(rounds.map((r) => r.bare)), 0)} rows/s`,
  );
}
