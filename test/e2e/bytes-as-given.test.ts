/**
 * Bytes in, bytes out: a multipart text value reaches the server as given. undici's
 * FormData (the WHATWG encoding) turned every LF into CRLF, so `contacts update --from` of wsm's
 * own unedited export rewrote each multi-line value. The real binary against `wsm serve` (fastify
 * multipart) and against the stand-in (the platform's own form parser), which keeps names but
 * not custom fields (they are not in the published API). The binary runs each backend's
 * `contacts update`, `contacts update --from` and first `contacts export`; set-up and read-backs
 * run in-process (in-process.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from './backends.js';
import { wsmInProcess } from './in-process.js';
import { wsm } from './processes.js';

interface Listed {
  id: number;
  name: string;
  fields?: Record<string, string>;
}

for (const kind of [BACKENDS[0], BACKENDS[2]]) {
  describe(`multipart values as given, on ${kind.name}`, () => {
    let backend: Backend;
    let group: string;
    const ids: string[] = [];
    const run = (...args: string[]) => wsmInProcess(backend.env, args);
    const binary = (...args: string[]) => wsm(backend.env, args);
    // Read from the list: the stand-in has no GET of one contact (an extension of wsm serve).
    const contact = async (id: string) => {
      const listed = JSON.parse((await run('contacts', 'list', '--all', '-o', 'json')).stdout) as Listed[];
      return listed.find((c) => String(c.id) === id)!;
    };

    beforeAll(async () => {
      backend = await kind.start();
      expect((await run('fields', 'create', 'notes')).code).toBe(0);
      expect((await run('groups', 'create', 'One')).code).toBe(0);
      group = String(JSON.parse((await run('groups', 'list', '-o', 'json')).stdout)[0].id);
      for (const [number, text] of [
        ['14155550101', 'first\nsecond'],
        ['14155550102', 'crlf\r\nkept'],
        ['14155550103', 'one line'],
      ]) {
        const created = await run(
          'contacts',
          'create',
          '--number',
          number,
          '--name',
          text,
          '--field',
          `notes=${text}`,
          '--group',
          group,
          '-q',
        );
        expect(created.code, created.stderr).toBe(0);
        ids.push(created.stdout.trim());
      }
    });
    afterAll(async () => {
      await backend?.stop();
    });

    it("contacts update ID --field notes=$'a\\nb' --group N keeps the LF", async () => {
      const res = await binary('contacts', 'update', ids[2], '--name', 'a\nb', '--field', 'notes=a\nb', '--group', group);
      expect(res.code, res.stderr).toBe(0);
      const updated = await contact(ids[2]);
      expect(updated.name).toBe('a\nb');
      if (backend.extensions) expect(updated.fields?.notes).toBe('a\nb');
    });

    it("update --from of wsm's own unedited export changes nothing, byte for byte", async () => {
      const file = join(backend.dir, 'export.csv');
      const exported = await binary('contacts', 'export');
      expect(exported.code, exported.stderr).toBe(0);
      writeFileSync(file, exported.stdout);
      const res = await binary('contacts', 'update', '--from', file, '--yes');
      expect(res.code, res.stderr).toBe(0);
      const again = await run('contacts', 'export');
      // Only the update times move.
      const times = /\d{4}-\d\d-\d\dT[\d:.]+Z/g;
      expect(again.stdout.replace(times, 'T')).toBe(readFileSync(file, 'utf8').replace(times, 'T'));
      expect((await contact(ids[0])).name).toBe('first\nsecond');
      expect((await contact(ids[1])).name).toBe('crlf\r\nkept');
      if (backend.extensions) expect((await contact(ids[0])).fields?.notes).toBe('first\nsecond');
    });
  });
}
