/**
 * Where the server cannot read one contact (`wsm serve --api-only`, the stand-in for the hosted
 * service), `contacts update|delete --from` read the list for their rows' contacts up to the bound
 * every plan's read has (10,000 contacts), dry run and real run alike. A row whose contact lies
 * past it is never called unchanged: the plan says it is sent as the file gives it, the run sends
 * it and the summary says so. A row the run cannot send unread (no name) is read whatever the cost,
 * and the walk stops once it is found. wsm runs in-process (in-process.ts: the binary's entry point,
 * its bytes and exit code); the built binary runs the real `contacts update --from` and `contacts
 * delete --from` on each backend.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend } from './backends.js';
import { importPeople, person, sentTo, type Listed } from './people.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

/** Past the bound of 10,000 by a page and a half. */
const CONTACTS = 10_150;
const NOT_READ = 'not read (the workspace holds over 10,000 contacts and the server cannot read one contact by itself)';

describe.each(BACKENDS.filter((kind) => kind.name !== 'wsm serve'))('rows past the read bound, on $name', (kind) => {
  let backend: Backend;
  let early: Listed;
  let late: Listed;
  let unnamed: Listed;

  beforeAll(async () => {
    backend = await kind.start();
    await importPeople(backend, CONTACTS);
    [early, late, unnamed] = [await person(backend, 3), await person(backend, 10_120), await person(backend, 10_010)];
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('update: the plan sends the late row as the file gives it, the run sends it and counts it so', async () => {
    const file = backendFile(
      backend,
      'rows.csv',
      `id,name,status\n${early.id},${early.name},true\n${late.id},${late.name},true\n${unnamed.id},,true\n`,
    );
    const plan = await wsmInProcess(backend.env, ['contacts', 'update', '--from', file, '--dry-run']);
    expect([plan.code, plan.stderr]).toEqual([0, '']);
    expect(plan.stdout).toBe(
      `~ line 3: update contact ${late.id}\n    ${NOT_READ}: the row is sent as it is\n    name: "${late.name}"\n    status: true\n` +
        `= line 4: unchanged contact ${unnamed.id} (${unnamed.number})\n    name: emptied in the file, kept "${unnamed.name}"\n` +
        'Plan: 0 to create, 1 to update, 2 unchanged, 0 invalid; 1 contact not read first, sent as the file gives it.\n',
    );
    const run = await wsm(backend.env, ['contacts', 'update', '--from', file, '-v']);
    expect([run.code, run.stderr.split('\n').filter((line) => line.startsWith('✓'))]).toEqual([
      0,
      [
        `✓ updated 1 of the 3 contacts read from ${file}: 2 unchanged, 0 skipped, 0 failed; 1 of them sent as its row gives it, not read first`,
      ],
    ]);
    expect(sentTo(run.stderr)).toEqual([late.id]);
    expect(await person(backend, 3)).toEqual(early);
    expect(await person(backend, 10_010)).toEqual(unnamed);
  });

  it('-o json counts the contacts not read and says why for each', async () => {
    const plan = await wsmInProcess(
      backend.env,
      ['contacts', 'update', '--from', '-', '--name', 'Late', '--dry-run', '-o', 'json'],
      `${late.id}\n`,
    );
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({
      update: 1,
      unchanged: 0,
      not_read: 1,
      contacts: [{ id: late.id, action: 'update', changes: { name: { to: 'Late' } }, unread: NOT_READ.slice('not read ('.length, -1) }],
    });
  });

  it('delete: a contact past the bound is planned as a delete sent, deleted or found gone', async () => {
    const plan = await wsmInProcess(backend.env, ['contacts', 'delete', '--from', '-', '--dry-run'], `${early.id}\n${late.id}\n`);
    expect([plan.code, plan.stdout]).toEqual([
      0,
      `- line 1: delete contact ${early.id} (${early.number})\n` +
        `- line 2: delete contact ${late.id}\n    ${NOT_READ}: the delete is sent (deleted, or found already gone)\n` +
        'Plan: 2 to delete, 0 already gone; 1 contact not read first, each delete sent.\n',
    ]);
    const run = await wsm(backend.env, ['contacts', 'delete', '--from', '-', '--yes', '-v'], `${early.id}\n${late.id}\n`);
    expect(run.code, run.stderr).toBe(0);
    expect(sentTo(run.stderr)).toEqual([early.id, late.id]);
  });
});
