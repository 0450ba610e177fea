/**
 * A cell whose line breaks a spreadsheet rewrote: a contact's name stored with CRLF inside, the
 * file's cell the same text with LF, as LibreOffice saves a cell's line breaks (these are the bytes
 * it writes: a quoted cell holding LF). The change is held as spreadsheet damage, said like the
 * other kinds, while the row's other change (an e-mail the operator edited) goes in; --apply-flagged
 * sends it. On `wsm serve` and on the stand-in of the published API, in-process (in-process.ts),
 * the held import by the binary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendFile, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

const STORED = 'multi\r\nline';
const SAVED = 'number,name,email\n14155550808,"multi\nline",new@example.com\n';
const WHY = "only its line breaks differ (CRLF or CR stored, LF in the file), as a spreadsheet saves a cell's line breaks";

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`a cell's CRLF saved as LF by a spreadsheet, against ${kind.name}`, () => {
    let backend: Backend;
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const stored = async () =>
      (JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as { name: string; email: string }[]).map(
        ({ name, email }) => ({
          name,
          email,
        }),
      );

    beforeAll(async () => {
      backend = await kind.start();
      const created = await run('contacts', 'create', '--number', '14155550808', '--name', STORED, '--email', 'old@example.com');
      expect(created.code, created.stderr).toBe(0);
      expect(await stored()).toEqual([{ name: STORED, email: 'old@example.com' }]);
    });
    afterAll(async () => {
      if (backend) expect(await backend.stop()).toBe(0);
    });

    it('the plan holds the name and applies the e-mail; the run keeps the stored name; --apply-flagged sends it', async () => {
      const file = backendFile(backend, 'saved.csv', SAVED);
      const dry = await run('contacts', 'import', file, '--dry-run', '-o', 'json');
      expect(dry.code, dry.stderr).toBe(0);
      expect(JSON.parse(dry.stdout)).toMatchObject({
        update: 1,
        held: 1,
        contacts: [
          {
            action: 'update',
            changes: { email: { from: 'old@example.com', to: 'new@example.com' } },
            held: { name: { from: STORED, to: 'multi\nline', why: WHY } },
          },
        ],
      });
      const text = await run('contacts', 'import', file, '--dry-run');
      expect(text.stdout).toContain(`! name: "multi\\r\\nline" kept, not "multi\\nline": ${WHY}`);
      expect(text.stdout).not.toContain('name: "multi\\r\\nline" -> "multi\\nline"');

      const imported = await wsm(backend.env, ['contacts', 'import', file, '--wait']);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toContain('1 cell looks changed by a spreadsheet and was kept as stored: --apply-flagged to apply it');
      expect(await stored()).toEqual([{ name: STORED, email: 'new@example.com' }]);

      const applied = await run('contacts', 'import', file, '--wait', '--apply-flagged');
      expect(applied.code, applied.stderr).toBe(0);
      expect(await stored()).toEqual([{ name: 'multi\nline', email: 'new@example.com' }]);
    });
  });
}
