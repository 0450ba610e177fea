/**
 * An import whose change could not keep all it did (sent with --apply-flagged, which reads no
 * before-image; run without --wait, so the contacts it created are not known): `wsm undo` says
 * what it leaves, from the change's notes, beside its result, dry run or not. "✓ nothing to undo"
 * alone reads as if the import were taken back while its contacts stay. On `wsm serve`. And on the
 * stand-in, whose import makes no group: the group its rows named is "not in the workspace" in the
 * undo's plan, never a group that "no longer exists". In-process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend, backendFile } from './backends.js';
import { wsmInProcess } from './in-process.js';

describe('undo of an import that kept less than it did, on wsm serve', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  const numbers = async () =>
    (JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as { number: string }[]).map((c) => c.number).sort();
  const lastChange = async () => (JSON.parse((await run('history', '-o', 'json')).stdout) as { id: string }[])[0].id;

  beforeAll(async () => {
    backend = await BACKENDS[0].start();
  });
  afterAll(async () => {
    if (backend !== undefined) expect(await backend.stop()).toBe(0);
  });

  it('--apply-flagged: undo changes nothing and says the contacts stay', async () => {
    const file = backendFile(backend, 'flagged.csv', 'number,name\n16505550101,Ann\n');
    expect((await run('contacts', 'import', file, '--apply-flagged', '--wait', '--interval', '0.05s', '-q')).code).toBe(0);
    const change = await lastChange();
    const note = `warning: change ${change}: no before-image was taken: --apply-flagged sends the file as it is, without reading the workspace; undo leaves the import's contacts as they are\n`;
    const dry = await run('undo', 'last', '--dry-run');
    expect([dry.code, dry.stderr]).toEqual([0, note]);
    const undone = await run('undo', 'last', '--yes');
    expect([undone.code, undone.stderr]).toEqual([0, `${note}✓ nothing to undo of change ${change}\n`]);
    expect(await numbers()).toEqual(['16505550101']);
  });

  it('without --wait: undo sets back the update and says the contact the import created stays', async () => {
    const file = backendFile(backend, 'unwaited.csv', 'number,name\n16505550101,Bea\n16505550102,Cy\n');
    expect((await run('contacts', 'import', file, '-q')).code).toBe(0);
    const change = await lastChange();
    // The import runs on: its contacts are there before the undo reads them.
    for (let turn = 0; turn < 100 && (await numbers()).length < 2; turn++) await new Promise((resolve) => setTimeout(resolve, 50));
    const undone = await run('undo', 'last', '--yes');
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stderr).toBe(
      `warning: change ${change}: the import's outcome was not read (run without --wait: \`wsm imports get ID --wait\` reads it): the contacts it updated are kept as they were before it; those it created are not known, and undo leaves them\n` +
        `✓ undid change ${change}: 1 set back, 0 deleted, 0 created again, 0 failed\n`,
    );
    expect(await numbers()).toEqual(['16505550101', '16505550102']);
  });
});

describe('undo of an import whose rows name a group the server never made, on the stand-in for the hosted service', () => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  beforeAll(async () => {
    backend = await BACKENDS[2].start();
  });
  afterAll(async () => {
    if (backend !== undefined) expect(await backend.stop()).toBe(0);
  });

  it('the plan says the group is not in the workspace, never that it no longer exists', async () => {
    const seed = backendFile(backend, 'seed.csv', 'number,name\n16505550201,Ann\n');
    expect((await run('contacts', 'import', seed, '--wait', '--interval', '0.05s', '-q')).code).toBe(0);
    const file = backendFile(backend, 'groups.csv', 'number,name,contact_groups\n16505550201,Bea,"[""VIP""]"\n');
    expect((await run('contacts', 'import', file, '--wait', '--interval', '0.05s', '-q')).code).toBe(0);
    const dry = await run('undo', 'last', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      /^~ record 1: update contact \d+ \(16505550201\)\n {4}name: "Bea" -> "Ann"\n {4}note: group "VIP" is not in the workspace \(deleted since, or never made by the import\): left out\n/,
    );
  });
});
