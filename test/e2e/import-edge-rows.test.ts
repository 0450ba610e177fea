/**
 * An import's plan of rows at the edges: one number on twenty thousand rows is one contact, named
 * by all of its rows once (its place was named again at each row, so such a file took minutes); an
 * emptied groups cell beside --group keeps the groups the contact had, not those it joins; and the
 * default import of a file whose every row holds a cell (a column a spreadsheet wrote in scientific
 * notation): 140,000 such rows stopped it with `Maximum call stack size exceeded` (the largest row
 * of the held contacts was taken with Math.max over all of them as arguments), and a file sent as
 * its own bytes with each held record a part of a Blob took over 30 s to send 300,000 of them. Now
 * the pass settles each contact at its last row, and many held records go as a copy written in one pass.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile, withBackend } from './backends.js';
import { wsmInProcess } from './in-process.js';

describe('an import of rows at the edges, against wsm serve', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  withBackend(BACKENDS[0], (started) => {
    backend = started;
  });

  it('one number on 20,000 rows: one contact, its rows named once, the last row its values', async () => {
    const rows = 20_000;
    const file = backendFile(
      backend,
      'same.csv',
      `number,name\n${Array.from({ length: rows }, (_, at) => `14155550999,N${at}\n`).join('')}`,
    );
    const plan = await run('contacts', 'import', file, '--dry-run', '-q');
    expect(plan.code, plan.stderr).toBe(0);
    const places = Array.from({ length: rows }, (_, at) => at + 2).join(', ');
    expect(plan.stdout.split('\n').slice(0, 3)).toEqual([
      `+ rows ${places}: create 14155550999`,
      `    rows ${places} are one contact: created by row 2, updated by rows ${places.slice('2, '.length).replace(/, (\d+)$/, ' and $1')}`,
      `    name: "N${rows - 1}"`,
    ]);
    expect(plan.stdout).toContain(
      "Plan: 1 to create, 0 to update, 0 unchanged, 0 invalid; 1 contact named by several rows (shown together, the last row's values win).\n",
    );
  });

  it('an emptied groups cell beside --group: the change shows the group joined, and no group is said kept that the contact did not have', async () => {
    const vip = (await run('groups', 'create', 'VIP', '-q')).stdout.trim();
    const cafe = (await run('groups', 'create', 'Café', '-q')).stdout.trim();
    expect((await run('contacts', 'create', '--number', '14155550998', '--name', 'Gus', '--group', vip)).code).toBe(0);
    const file = backendFile(backend, 'grouped.csv', 'number,contact_groups\n14155550998,\n14155550997,\n');
    const plan = await run('contacts', 'import', file, '--group', cafe, '--dry-run', '-q');
    expect(plan.code, plan.stderr).toBe(0);
    const id = JSON.parse((await run('contacts', 'list', '-o', 'json')).stdout)[0].id;
    expect(plan.stdout).toBe(
      `~ row 2: update contact ${id} (14155550998)\n    contact_groups: ["VIP"] -> ["VIP","Café"]\n` +
        '+ row 3: create 14155550997\n    name: "Unknown"\n    contact_groups: ["Café"]\n' +
        `Plan: 1 to create, 1 to update, 0 unchanged, 0 invalid.\n${file}\n`,
    );
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
