/**
 * An update that clears an e-mail or a gender and also sets a contact's groups: the groups go in
 * a multipart form, which cannot say "none" for an e-mail, so the cleared values must still reach
 * the server. Seen in the contact after the run, against the plan that promised it, for `contacts
 * update --from`, one contact's `--email '' --group ''`, and the undo that sets back an e-mail the
 * same change gave along with a group. wsm runs in-process (in-process.ts); the built binary runs
 * `contacts update --from`, the command the file is about.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend } from './backends.js';
import { madeId, shownContact } from './contact-reads.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

interface Shown {
  id: number;
  email: string | null;
  gender: string | null;
  contact_groups?: Array<{ name: string }>;
}

describe.each([BACKENDS[0], BACKENDS[2]])('an e-mail cleared beside the groups, on $name', (kind) => {
  let backend: Backend;
  const run = (...args: string[]) => wsmInProcess(backend.env, args);
  const shown = (id: number) => shownContact<Shown>(run, id);
  const create = (...args: string[]) => madeId(run, 'contacts', 'create', ...args);
  let vip: string;

  beforeAll(async () => {
    backend = await kind.start();
    vip = String(await madeId(run, 'groups', 'create', 'VIP'));
  });
  afterAll(async () => {
    await backend?.stop();
  });

  it("one contact's --email '' --gender '' --group '' clears the e-mail and the gender", async () => {
    const id = await create('--number', '14155550201', '--name', 'Ann', '--email', 'ann@example.com', '--gender', 'female', '--group', vip);
    const cleared = await run('contacts', 'update', String(id), '--name', 'Ann', '--email', '', '--gender', '', '--group', '');
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(await shown(id)).toMatchObject({ email: null, gender: null });
  });

  // The stand-in takes any file as the avatar.
  if (kind === BACKENDS[0])
    it('an avatar the server refuses beside a cleared e-mail leaves the contact as it was', async () => {
      const id = await create('--number', '14155550204', '--name', 'Dee', '--email', 'dee@example.com');
      const note = backendFile(backend, 'note.txt', 'no image\n');
      const refused = await run('contacts', 'update', String(id), '--name', 'Dee', '--email', '', '--avatar', note);
      expect([refused.code, refused.stderr]).toEqual([
        5,
        'error: the server rejected the contact:\n  --avatar: The avatar must be an image (PNG, JPEG, GIF or WebP).\n',
      ]);
      expect(await shown(id)).toMatchObject({ email: 'dee@example.com' });
    });

  // The stand-in's contacts show no groups: an emptied contact_groups cell is not sent there.
  if (kind === BACKENDS[0])
    it('update --from: the emptied e-mail, gender and groups of the plan are what the run leaves, and undo gives them back', async () => {
      const id = await create('--number', '14155550202', '--name', 'Bob', '--email', 'bob@example.com', '--gender', 'male', '--group', vip);
      const file = backendFile(backend, 'emptied.csv', `id,email,gender,contact_groups\n${id},,,[]\n`);
      const plan = await run('contacts', 'update', '--from', file, '--dry-run');
      expect([plan.code, plan.stdout]).toEqual([
        0,
        `~ line 2: update contact ${id} (14155550202)\n` +
          '    email: "bob@example.com" -> null\n    gender: "male" -> null\n    contact_groups: ["VIP"] -> []\n' +
          'Plan: 0 to create, 1 to update, 0 unchanged, 0 invalid.\n',
      ]);
      const done = await wsm(backend.env, ['contacts', 'update', '--from', file]);
      expect([done.code, done.stderr]).toEqual([0, `✓ updated 1 of the 1 contact read from ${file}: 0 unchanged, 0 skipped, 0 failed\n`]);
      expect(await shown(id)).toMatchObject({ email: null, gender: null, contact_groups: [] });
      const again = await run('contacts', 'update', '--from', file, '--dry-run');
      expect(again.stdout).toBe('Plan: 0 to create, 0 to update, 1 unchanged, 0 invalid.\n');

      const undone = await run('undo', 'last', '--yes');
      expect(undone.code, undone.stderr).toBe(0);
      expect(await shown(id)).toMatchObject({ email: 'bob@example.com', gender: 'male', contact_groups: [{ name: 'VIP' }] });
    });

  if (kind === BACKENDS[0])
    it('undo of an update that gave an e-mail and a group takes both back', async () => {
      const id = await create('--number', '14155550203', '--name', 'Cid');
      const file = backendFile(backend, 'given.csv', `id,email,contact_groups\n${id},cid@example.com,"[""VIP""]"\n`);
      expect((await run('contacts', 'update', '--from', file)).code).toBe(0);
      expect(await shown(id)).toMatchObject({ email: 'cid@example.com', contact_groups: [{ name: 'VIP' }] });
      const undone = await run('undo', 'last', '--yes');
      expect(undone.code, undone.stderr).toBe(0);
      expect(await shown(id)).toMatchObject({ email: null, contact_groups: [] });
      const after = await run('undo', 'last', '--dry-run');
      expect(after.stdout).toContain('    email: null -> "cid@example.com"\n');
    });
});
