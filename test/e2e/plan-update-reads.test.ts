/**
 * A real `contacts update --from` reads the workspace as its `--dry-run` does, through the same
 * code, so the contacts its plan calls unchanged are the ones it leaves unsent: in a workspace of
 * more list pages than the file has rows, on `wsm serve` (GET one contact), `wsm serve --api-only`
 * and the stand-in for the hosted service (neither has it: the list is walked for the rows'
 * contacts). What was sent is seen in each contact's `updated_at`, the summary line and the
 * `--verbose` trace of the reads. wsm runs in-process (in-process.ts: the binary's entry point, its
 * bytes and exit code); the built binary runs the command the file is about, `contacts update
 * --from`, on each backend (the real run of the first test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend } from './backends.js';
import { contactReads, importPeople, person, sentTo, type Listed } from './people.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

/** Three pages of the largest size: more than the two rows of the file have, so the run cannot just read them all. */
const CONTACTS = 250;

describe.each(BACKENDS)('update --from in a workspace of more pages than rows, on $name', (kind) => {
  let backend: Backend;
  let same: Listed;
  let other: Listed;

  beforeAll(async () => {
    backend = await kind.start();
    await importPeople(backend, CONTACTS);
    same = await person(backend, 3);
    other = await person(backend, 4);
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it('the run reads what its dry run read, and leaves unsent the row the plan calls unchanged', async () => {
    const file = backendFile(backend, 'two.csv', `id,name\n${same.id},${same.name}\n${other.id},Someone Else\n`);
    const plan = await wsmInProcess(backend.env, ['contacts', 'update', '--from', file, '--dry-run', '-v']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toBe(
      `~ line 3: update contact ${other.id} (${other.number})\n    name: "${other.name}" -> "Someone Else"\n` +
        'Plan: 0 to create, 1 to update, 1 unchanged, 0 invalid.\n',
    );
    const run = await wsm(backend.env, ['contacts', 'update', '--from', file, '-v']);
    expect([run.code, run.stderr.split('\n').filter((line) => line.startsWith('✓'))]).toEqual([
      0,
      [`✓ updated 1 of the 2 contacts read from ${file}: 1 unchanged, 0 skipped, 0 failed`],
    ]);
    expect(contactReads(run.stderr)).toEqual(contactReads(plan.stderr));
    expect(sentTo(run.stderr)).toEqual([other.id]);
    expect(await person(backend, 3)).toEqual(same);
    expect((await person(backend, 4)).name).toBe('Someone Else');
  });

  it('ids one a line keep their names: the unchanged contact is not sent, the changed one is', async () => {
    await wsmInProcess(backend.env, ['contacts', 'update', String(other.id), '--name', other.name, '--inactive']);
    const before = await person(backend, 3);
    const input = `${same.id}\n${other.id}\n`;
    const plan = await wsmInProcess(backend.env, ['contacts', 'update', '--from', '-', '--active', '--dry-run'], input);
    expect([plan.code, plan.stdout]).toEqual([
      0,
      `~ line 2: update contact ${other.id} (${other.number})\n    status: false -> true\nPlan: 0 to create, 1 to update, 1 unchanged, 0 invalid.\n`,
    ]);
    const run = await wsmInProcess(backend.env, ['contacts', 'update', '--from', '-', '--active'], input);
    expect([run.code, run.stderr]).toEqual([
      0,
      '✓ updated 1 of the 2 contacts read from standard input: 1 unchanged, 0 skipped, 0 failed\n',
    ]);
    expect(await person(backend, 3)).toEqual(before);
    expect(await person(backend, 4)).toMatchObject({ name: other.name, status: true });
  });
});
