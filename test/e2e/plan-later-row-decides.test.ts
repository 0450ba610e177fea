/**
 * A later row's value decides what an earlier row held or left empty (rows apply in order). A
 * file names one contact on two rows: the first a name in scientific notation (a spreadsheet's)
 * and an emptied e-mail, the second the stored name and e-mail. The contact ends as stored, so the
 * plan shows it unchanged, with nothing held and nothing kept, before the run and after it; a run
 * counts it unchanged. On `wsm serve` and on the stand-in of the published API, in-process
 * (in-process.ts), the first import by the binary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const FILE = 'number,name,email\n14155550707,3.51E+12,\n14155550707,Later,l@example.com\n';

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`rows naming one contact, the later one setting what is stored, against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);

    beforeAll(async () => {
      backend = await kind.start();
      const created = await run('contacts', 'create', '--number', '14155550707', '--name', 'Later', '--email', 'l@example.com');
      expect(created.code, created.stderr).toBe(0);
    });
    afterAll(async () => {
      if (backend) expect(await backend.stop()).toBe(0);
    });

    /** The plan's one contact as -o json gives it, and the plan's counts. */
    async function planned() {
      const file = backendFile(backend, 'later.csv', FILE);
      const dry = await run('contacts', 'import', file, '--dry-run', '-o', 'json');
      expect(dry.code, dry.stderr).toBe(0);
      const plan = JSON.parse(dry.stdout) as { contacts: Record<string, unknown>[] };
      return { plan, text: await run('contacts', 'import', file, '--dry-run') };
    }

    it('the plan shows the contact unchanged, nothing held or kept, before the run and after it', async () => {
      const before = await planned();
      expect(before.plan).toMatchObject({ unchanged: 1, skipped: 0, held: 0, suspicious: 0 });
      expect(before.plan.contacts[0]).toMatchObject({ action: 'unchanged', changes: {}, suspicious: [] });
      expect(before.plan.contacts[0]).not.toHaveProperty('held');
      expect(before.plan.contacts[0]).not.toHaveProperty('kept');
      expect(before.text.stdout + before.text.stderr).not.toMatch(/3\.51E\+12|emptied in the file/);

      const imported = await wsm(backend.env, ['contacts', 'import', backendFile(backend, 'later.csv', FILE), '--wait']);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).not.toMatch(/kept as stored|3\.51E\+12/);
      const contacts = JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as { name: string; email: string }[];
      expect(contacts).toMatchObject([{ name: 'Later', email: 'l@example.com' }]);

      const after = await planned();
      expect(after.plan).toMatchObject({ unchanged: 1, skipped: 0, held: 0 });
      expect(after.plan.contacts[0]).toMatchObject({ action: 'unchanged' });
      expect(after.plan.contacts[0]).not.toHaveProperty('held');
      expect(after.plan.contacts[0]).not.toHaveProperty('kept');
      expect(after.text.stdout + after.text.stderr).not.toMatch(/3\.51E\+12|emptied in the file/);
    });
  });
}
