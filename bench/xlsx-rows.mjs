// The export-shaped rows the .xlsx benches write (11 text columns), and a workbook of them written
// by the writeXlsx given (today's or another commit's), a page of 100 rows at a time.
import { createWriteStream } from 'node:fs';

export const HEADER = [
  'id',
  'number',
  'name',
  'email',
  'gender',
  'status',
  'contact_groups',
  'created_at',
  'updated_at',
  'city',
  'customer_id',
];

export const exportRow = (i) => [
  String(i),
  `0770090${String(i).padStart(4, '0')}`,
  `Zoë Person ${i}`,
  `p${i}@example.com`,
  'female',
  'true',
  '["VIP","News"]',
  '2026-11-26T10:00:00.000Z',
  '2026-11-26T10:00:00.000Z',
  'Lisbon',
  `000123456789${String(i).padStart(8, '0')}`,
];

export async function writeRows(writeXlsx, file, count) {
  const out = createWriteStream(file);
  const sink = { write: (b) => new Promise((res) => (out.write(b) ? res() : out.once('drain', res))) };
  async function* pages() {
    for (let i = 1; i <= count; i += 100) {
      const page = [];
      for (let j = i; j < i + 100 && j <= count; j++) page.push(exportRow(j));
      yield page;
    }
  }
  await writeXlsx(sink, { sheetName: 'Contacts', header: HEADER, rows: pages(), sample: [exportRow(1)] });
  await new Promise((r) => out.end(r));
}
