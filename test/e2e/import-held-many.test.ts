/**
 * The default import of a file whose every row holds a cell (a column a spreadsheet wrote in
 * scientific notation): 140,000 such rows stopped the import with `Maximum call stack size
 * exceeded` (the largest row of the held contacts was taken with Math.max over all of them as
 * arguments), and a file sent as its own bytes with each held record a part of a Blob took over 30
 * s to send 300,000 of them. Now the pass settles each contact at its last row, and many held
 * records go as a copy written in one pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { wsmInProcess } from './in-process.js';

describe('an import whose every row holds a cell, against wsm serve', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('140,000 rows: ten held cells said and the rest counted, every contact created without the held name', async () => {
    const rows = 140_000;
    const text = `number,name,email\n${Array.from({ length: rows }, (_, at) => `${16150000000 + at},3.51E+12,p${at}@example.com\n`).join('')}`;
    const file = backendFile(backend, 'held.csv', text);
    const imported = await run('contacts', 'import', file, '--wait', '--interval', '0.1s', '-o', 'json');
    expect(imported.code, imported.stderr.slice(-500)).toBe(0);
    const warnings = imported.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings.slice(0, 1)).toEqual([
      `warning: ${file} row 2, new contact 16150000000: name: "Unknown" (the server's name for a new contact without one), not "3.51E+12": "3.51E+12" is in scientific notation, as a spreadsheet writes a long number: its last digits may be lost`,
    ]);
    expect(warnings.slice(10)).toEqual([
      `warning: and ${(rows - 10).toLocaleString('en-US')} more (--dry-run lists them all)`,
      `warning: ${file}: ${rows.toLocaleString('en-US')} cells look changed by a spreadsheet and were left out: --apply-flagged to apply them`,
    ]);
    const { summary } = JSON.parse(imported.stdout);
    expect(summary).toMatchObject({ created: rows, failed: 0 });
    const last = JSON.parse((await run('contacts', 'list', '--search', String(16150000000 + rows - 1), '-o', 'json')).stdout);
    expect(last.map((contact: { name: string; email: string }) => [contact.name, contact.email])).toEqual([
      ['Unknown', `p${rows - 1}@example.com`],
    ]);
  });
});
